#!/bin/bash
exec > $OUT/run.log 2>&1
nvidia-smi -L; date
make -j16 all > $OUT/make.log 2>&1 || { echo MAKE FAILED; tail -30 $OUT/make.log; }
date
TEST_PARTS="sandbox attacks" bash tests/run.sh > $OUT/attacks.txt 2>&1; echo "attacks rc=$?"; tail -1 $OUT/attacks.txt; grep -E "FAIL" $OUT/attacks.txt | head
date
for l in labs/[0-9][0-9]-*/; do lab=$(basename $l); f=$(ls $l*.cu | grep -v lab.cu | head -1);
  s=$(date +%s); ./grade LAB=$lab SUBMISSION=solutions/$lab/$(basename $f) > $OUT/sol.txt 2>&1; rc=$?; e=$(date +%s)
  echo "== $lab rc=$rc $((e - s)) s"; grep -E "^(work|right|fast|verdict)" $OUT/sol.txt | cut -c1-200
done
date
timeout 200 env TEST_PARTS="e2e" TEST_CASES="correct/" TEST_LABS="02 03 04 05 06" bash tests/run.sh > $OUT/correct.txt 2>&1; echo "correct rc=$?"; grep -E "^(PASS|FAIL)" $OUT/correct.txt
date
