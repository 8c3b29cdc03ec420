#!/usr/bin/env bash
# tests/class/run.sh [OUTDIR] - tests of the class tool (grader/class/).
#
# One line per test: PASS class/NAME, FAIL class/NAME: why, SKIP class/NAME:
# why. No GPU needed: a stub grader (stub_grader.sh) stands in for ./grade
# to test timeouts, crashes, resume and parallel dispatch; one end-to-end
# case runs the real grader on three lab 01 submissions. HAVE_GPU=1 says
# the machine has one (the solution must then pass fast, not skip it).
set -u
cd "$(dirname "$0")/../.."
T=${1:-build/test/class}
BUILD=${BUILD:-build}
CC=${CC:-gcc}
HAVE_GPU=${HAVE_GPU:-0}
rm -rf "$T"
mkdir -p "$T"
T=$(cd "$T" && pwd)
CLASS=$PWD/$BUILD/class
STUB=$PWD/tests/class/stub_grader.sh
F=tests/class/fixtures
E=tests/class/expected
unset CUDA_VISIBLE_DEVICES STUB_NO_HANG STUB_LOG STUB_LOCKS

pass() { echo "PASS class/$1"; }
fail() { echo "FAIL class/$1: $2"; }
skip() { echo "SKIP class/$1: $2"; }
# check NAME WHY COMMAND...: PASS when the command succeeds.
check() {
    local name=$1 why=$2
    shift 2
    if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name" "$why"; fi
}
done_ok=0
trap '[ $done_ok = 1 ] || echo "FAIL class/run: tests/class/run.sh stopped before its end"' EXIT

# A stub student: stub_student DIR/NAME.cu "pass 0.2"
stub_student() {
    mkdir -p "$(dirname "$1")"
    echo "// STUB $2" >"$1"
}
# The verdict recorded last for a student in a batch folder.
verdict() {
    grep -o "^{\"student\": \"$2\", \"lab\": \"[^\"]*\", \"verdict\": \"[a-z]*\", \"reason\": \"[^\"]*\"" \
        "$1/results.jsonl" 2>/dev/null | tail -n 1 | sed 's/.*"verdict": "\([a-z]*\)", "reason": "\(.*\)"$/\1 \2/'
}
# expect_verdict NAME OUT STUDENT VERDICT [REASON-PHRASE]
expect_verdict() {
    local got
    got=$(verdict "$2" "$3")
    if [ "${got%% *}" != "$4" ]; then
        fail "$1" "$3: verdict '${got%% *}', expected '$4' (${got#* })"
    elif [ -n "${5:-}" ] && [[ "$got" != *"$5"* ]]; then
        fail "$1" "$3: reason '${got#* }' lacks '$5'"
    else
        pass "$1"
    fi
}
lines() {
    local n
    n=$(grep -c . "$1" 2>/dev/null)
    echo "${n:-0}"
}
# Is PID still the given command? (pids are reused on a busy machine)
still_running() { ps -p "$1" -o args= 2>/dev/null | grep -q "^$2"; }

# ------------------------------------------------------------ build
if ! make -s --no-print-directory BUILD="$BUILD" "$BUILD/class" >"$T/build.log" 2>&1; then
    fail build "$(head -n 5 "$T/build.log" | tr '\n' ' ')"
    done_ok=1
    exit 0
fi
pass build

# ------------------------------------------------------------ unit tests
unit_tests() {
    if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -Wno-format-truncation -Igrader -Igrader/class \
        -Itests/unit tests/class/test_class.c grader/class/json.c grader/class/course.c \
        grader/class/escape.c grader/class/result.c grader/class/store.c grader/text.c -lm \
        -o "$T/unit" 2>"$T/unit-build.log"; then
        fail unit/build "$(head -n 5 "$T/unit-build.log" | tr '\n' ' ')"
        return
    fi
    "$T/unit" >"$T/unit.txt" 2>&1
    local code=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$T/unit.txt"
    if [ "$code" != 0 ] && ! grep -q '^FAIL ' "$T/unit.txt"; then
        fail unit/run "stopped with exit code $code: $(tail -n 1 "$T/unit.txt")"
    fi
}

# ------------------------------------------------ report formats, exact
format_tests() {
    local c=(--course "$F/course/heavy_fast.conf")
    "$CLASS" report --from "$F/graded/pass_gpu.json" --format gradescope --student alice >"$T/gs_pass.json" 2>&1
    check format/gradescope_pass "differs from $E/gradescope_pass_gpu.json" diff "$E/gradescope_pass_gpu.json" "$T/gs_pass.json"
    "$CLASS" report --from "$F/graded/fail_right.json" --format gradescope --student bob "${c[@]}" >"$T/gs_fail.json" 2>&1
    check format/gradescope_fail_course "differs from $E/gradescope_fail_right.json" diff "$E/gradescope_fail_right.json" "$T/gs_fail.json"
    "$CLASS" report --from "$F/graded" --format junit >"$T/junit.xml" 2>&1
    check format/junit "differs from $E/junit.xml" diff "$E/junit.xml" "$T/junit.xml"
    "$CLASS" report --from "$F/graded" --format csv "${c[@]}" >"$T/summary.csv" 2>&1
    check format/csv "differs from $E/summary.csv" diff "$E/summary.csv" "$T/summary.csv"
    if command -v python3 >/dev/null; then
        check format/gradescope_is_json "not valid JSON" python3 -c \
            'import json,sys; [json.load(open(f)) for f in sys.argv[1:]]' "$T/gs_pass.json" "$T/gs_fail.json"
        check format/junit_is_well_formed_xml "not well-formed XML" python3 -c \
            'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/junit.xml"
    else
        skip format/gradescope_is_json "no python3 to check with"
        skip format/junit_is_well_formed_xml "no python3 to check with"
    fi
    # The class page: exact, every string from a result escaped (a reason in
    # the fixtures holds <wrong> & "never written"), and, where a headless
    # Chromium is installed, the numbers survive rendering.
    "$CLASS" report --from "$F/graded" --format html >"$T/report.html" 2>&1
    check format/html "differs from $E/report.html" diff "$E/report.html" "$T/report.html"
    check format/html_escapes_results "a reason's < or & reached the page raw" \
        bash -c "! grep -q '<wrong>\\|& \"never' '$T/report.html'"
    local chromium
    chromium=$(command -v chromium chromium-browser google-chrome 2>/dev/null | head -n 1)
    if [ -n "$chromium" ]; then
        "$chromium" --headless --disable-gpu --no-sandbox --dump-dom "file://$(cd "$T" && pwd)/report.html" \
            >"$T/report.dom" 2>/dev/null
        check format/html_renders "the rendered page lacks 3 of 4 or 6.39x" \
            bash -c "grep -q '3 of 4' '$T/report.dom' && grep -q '6.39x' '$T/report.dom'"
    else
        skip format/html_renders "no headless Chromium (Debian: apt install chromium)"
    fi
    "$CLASS" report --from "$F/graded" --format gradescope >"$T/gs_many.log" 2>&1
    check format/gradescope_needs_one_student "several students without --student was not refused" \
        grep -q 'several students' "$T/gs_many.log"
    "$CLASS" report --from "$F/graded/pass_gpu.json" --format csv --course grader/class/course.conf.example >"$T/example.csv" 2>&1
    check format/course_example_is_the_default "course.conf.example does not give 4+3+3 = 10" \
        grep -q '^pass_gpu,01-vector-add,4,3,3,10,10,pass,' "$T/example.csv"
    printf 'points.wrok = 3\n' >"$T/typo.conf"
    "$CLASS" report --from "$F/graded" --format csv --course "$T/typo.conf" >"$T/typo.log" 2>&1
    local code=$?
    check format/course_typo_refused "exit $code, or no line number" \
        test "$code" = 2 -a -n "$(grep 'line 1: points.wrok' "$T/typo.log")"
}

# ---------------------------------- one bad submission never stops a batch
batch_tests() {
    local s=$T/batch/subs o=$T/batch/out
    export STUB_LOG=$T/batch/stub.log STUB_LOCKS=$T/batch/locks
    mkdir -p "$STUB_LOCKS"
    stub_student "$s/alice.cu" "pass"
    stub_student "$s/bob/labs/01-vector-add/vector_add.cu" "fail" # a clone of the workbook
    stub_student "$s/bob/vector_add_old/notes.cu" "pass"
    mkdir -p "$s/carol" && echo "my notes" >"$s/carol/notes.txt"
    stub_student "$s/dave.cu" "hang"
    stub_student "$s/erin.cu" "crash"
    stub_student "$s/frank.cu" "build"
    stub_student "$s/gina.cu" "nogpu"
    stub_student "$s/hank.cu" "garbage"
    stub_student "$s/ivan.cu" "liar"
    stub_student "$s/judy.cu" "pass"
    stub_student "$s/judy/vector_add.cu" "pass"
    echo "not a student" >"$s/README.txt"
    stub_student "$s/.hidden.cu" "pass"
    # --gpus none: on a machine with GPUs the batch would otherwise take them.
    env -u CUDA_VISIBLE_DEVICES "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" --jobs 3 \
        --gpus none --timeout 2 --mem-limit-mb 512 >"$T/batch/run1.log" 2>&1
    local code=$?
    check batch/exit_1_when_a_grading_failed "exit code $code, expected 1" test "$code" = 1
    expect_verdict batch/pass "$o" alice pass
    expect_verdict batch/file_in_a_workbook_clone "$o" bob fail "right: d_c: 2 of 31"
    expect_verdict batch/missing_file "$o" carol missing "missing file: no vector_add.cu in carol/"
    expect_verdict batch/timeout "$o" dave error "timed out after 2 s"
    expect_verdict batch/crash "$o" erin error "killed by signal 11"
    expect_verdict batch/build_error "$o" frank fail "work: vector_add.cu does not build"
    expect_verdict batch/no_gpu_is_incomplete_not_pass "$o" gina incomplete "fast: skipped: needs a GPU"
    expect_verdict batch/unreadable_results "$o" hank error "left no usable results"
    expect_verdict batch/exit_code_contradicts_results "$o" ivan error "disagrees with its results"
    expect_verdict batch/one_student_twice "$o" judy error "two entries for one student"
    check batch/only_students_counted "results.jsonl has $(lines "$o/results.jsonl") lines, expected 10" \
        test "$(lines "$o/results.jsonl")" = 10
    local pid_file=$STUB_LOCKS/hang-dave.pid
    check batch/hung_grader_killed "the stub's sleep ($(cat "$pid_file" 2>/dev/null)) outlived the timeout" \
        test -s "$pid_file" -a -z "$(still_running "$(cat "$pid_file")" 'sleep 600' && echo alive)"
    check batch/mem_limit_forwarded "the grader did not get --mem-limit-mb 512" grep -q 'start alice gpu=unset mem=512' "$STUB_LOG"
    local missing_files=
    for n in alice bob carol dave erin frank gina hank ivan judy; do
        [ -s "$o/students/$n.json" ] && [ -s "$o/students/$n.txt" ] || missing_files+=" $n"
        "$CLASS" report --from "$o/students/$n.json" --format csv >/dev/null 2>&1 || missing_files+=" $n(unreadable)"
    done
    check batch/per_student_json_and_report "missing or unreadable:$missing_files" test -z "$missing_files"
    check batch/summary_csv "summary.csv has $(lines "$o/summary.csv") lines, expected 11" test "$(lines "$o/summary.csv")" = 11
    check batch/summary_json_counts "summary.json counts are off" \
        grep -q '"counts": {"students": 10, "pass": 1, "fail": 2, "incomplete": 1, "missing": 1, "error": 5}' "$o/summary.json"
    check batch/progress_line "no progress line with done/total, pass counts and time left" \
        grep -qE '^class: 10/10 \| passed: work [0-9]+ right [0-9]+ fast [0-9]+ \| [0-9:]+ elapsed, ~[0-9:?]+ left' "$T/batch/run1.log"
    # An output folder whose parents are missing is made, as mkdir -p would.
    local deep=$T/batch/not/yet/there
    env -u CUDA_VISIBLE_DEVICES "$CLASS" batch --lab 01 --submissions "$s" --out "$deep" --grader-cmd "$STUB" \
        --jobs 3 --gpus none --timeout 2 >"$T/batch/deep.log" 2>&1
    check batch/out_parents_made "no results in $deep: $(tail -n 1 "$T/batch/deep.log")" \
        test "$(lines "$deep/results.jsonl")" = 10
    # Retry the errors: only they run again, and the hang is gone now.
    : >"$STUB_LOG"
    rm -rf "$STUB_LOCKS" && mkdir -p "$STUB_LOCKS"
    STUB_NO_HANG=1 "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" --jobs 3 \
        --timeout 5 --retry-errors >"$T/batch/run2.log" 2>&1
    local again
    again=$(grep '^start' "$STUB_LOG" | awk '{print $2}' | sort | tr '\n' ' ')
    check batch/retry_errors_only "graded again: '$again', expected 'dave erin hank ivan '" test "$again" = "dave erin hank ivan "
    expect_verdict batch/retry_errors_regrades "$o" dave pass
    unset STUB_LOG STUB_LOCKS
}

# ------------------------------------- an interrupted batch loses nothing
resume_tests() {
    local s=$T/resume/subs o=$T/resume/out
    export STUB_LOG=$T/resume/stub.log STUB_LOCKS=$T/resume/locks
    mkdir -p "$STUB_LOCKS"
    stub_student "$s/r1.cu" "pass"
    stub_student "$s/r2.cu" "fail"
    stub_student "$s/r3.cu" "hang"
    stub_student "$s/r4.cu" "pass"
    stub_student "$s/r5.cu" "nogpu"
    "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" --timeout 60 \
        >"$T/resume/run1.log" 2>&1 &
    local pid=$! i
    for i in $(seq 200); do
        [ "$(lines "$o/results.jsonl")" -ge 2 ] && [ -s "$STUB_LOCKS/hang-r3.pid" ] && break
        sleep 0.05
    done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    check resume/interrupted_keeps_what_finished "results.jsonl has $(lines "$o/results.jsonl") lines after the interrupt, expected 2" \
        test "$(lines "$o/results.jsonl")" = 2
    sleep 0.2
    check resume/interrupt_stops_the_grader "the hung grader outlived the interrupted batch" \
        test -s "$STUB_LOCKS/hang-r3.pid" -a -z "$(still_running "$(cat "$STUB_LOCKS/hang-r3.pid")" 'sleep 600' && echo alive)"
    printf '{"student": "r9", "lab": "01-vector-add", "verd' >>"$o/results.jsonl" # a torn write
    : >"$STUB_LOG"
    rm -rf "$STUB_LOCKS" && mkdir -p "$STUB_LOCKS"
    STUB_NO_HANG=1 "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" \
        >"$T/resume/run2.log" 2>&1
    local code=$? again
    again=$(grep '^start' "$STUB_LOG" | awk '{print $2}' | sort | tr '\n' ' ')
    check resume/grades_only_the_rest "graded on resume: '$again', expected 'r3 r4 r5 '" test "$again" = "r3 r4 r5 "
    check resume/all_recorded_once "exit $code; csv: $(tr '\n' ' ' <"$o/summary.csv")" \
        bash -c "[ $code = 0 ] && [ \$(cut -d, -f1 '$o/summary.csv' | sort -u | wc -l) = 6 ] && [ \$(grep -c . '$o/summary.csv') = 6 ]"
    check resume/torn_line_skipped "the torn line was not reported or broke the next record" \
        bash -c "grep -q 'unreadable line' '$T/resume/run2.log' && [ \$(grep -c '^{\"student\": \"r[345]\"' '$o/results.jsonl') = 3 ]"
    expect_verdict resume/verdicts_after_resume "$o" r5 incomplete
    : >"$STUB_LOG"
    STUB_NO_HANG=1 "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" --force \
        --timeout 10 >"$T/resume/run3.log" 2>&1
    check resume/force_grades_all_again "graded with --force: $(grep -c '^start' "$STUB_LOG"), expected 5" \
        test "$(grep -c '^start' "$STUB_LOG")" = 5
    check resume/force_keeps_one_row_each "summary has $(lines "$o/summary.csv") lines, expected 6" test "$(lines "$o/summary.csv")" = 6
    unset STUB_LOG STUB_LOCKS
}

# --------------------------------------------- one grading per GPU at once
parallel_tests() {
    local s=$T/par/subs o=$T/par/out i
    export STUB_LOG=$T/par/stub.log STUB_LOCKS=$T/par/locks
    mkdir -p "$STUB_LOCKS"
    for i in 1 2 3 4 5 6 7 8 9; do stub_student "$s/p$i.cu" "pass 0.4"; done
    local t0 t1
    t0=$(date +%s.%N)
    "$CLASS" batch --lab 01 --submissions "$s" --out "$o" --grader-cmd "$STUB" --gpus 0,1,2 >"$T/par/run.log" 2>&1
    t1=$(date +%s.%N)
    local gpus
    gpus=$(grep '^start' "$STUB_LOG" | awk '{print $3}' | sort | uniq -c | awk '{print $2 "x" $1}' | tr '\n' ' ')
    check parallel/each_child_its_own_gpu "CUDA_VISIBLE_DEVICES seen: $gpus" test "$gpus" = "gpu=0x3 gpu=1x3 gpu=2x3 "
    check parallel/never_two_on_one_gpu "$(grep CONFLICT "$STUB_LOG" | head -n 2 | tr '\n' ' ')" bash -c "! grep -q CONFLICT '$STUB_LOG'"
    local most
    most=$(sort -k5 -n "$STUB_LOG" | awk '$1=="start"{n++; if(n>m)m=n} $1=="end"{n--} END{print m}')
    check parallel/side_by_side "at most $most at once, expected 3" test "$most" = 3
    local took
    took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    check parallel/faster_than_one_by_one "9 x 0.4 s took $took s" \
        awk -v t="$took" 'BEGIN { exit !(t < 3.0) }'
    check parallel/gpu_recorded "results.jsonl does not record the GPU" grep -q '"gpu": "[012]"' "$o/results.jsonl"
    : >"$STUB_LOG"
    CUDA_VISIBLE_DEVICES=5,7 "$CLASS" batch --lab 01 --submissions "$s" --out "$T/par/out2" \
        --grader-cmd "$STUB" >"$T/par/run2.log" 2>&1
    gpus=$(grep '^start' "$STUB_LOG" | awk '{print $3}' | sort -u | tr '\n' ' ')
    check parallel/auto_from_cuda_visible_devices "seen: $gpus" test "$gpus" = "gpu=5 gpu=7 "
    : >"$STUB_LOG"
    CUDA_VISIBLE_DEVICES=4 "$CLASS" batch --lab 01 --submissions "$s" --out "$T/par/out3" \
        --grader-cmd "$STUB" --gpus none --jobs 2 >"$T/par/run3.log" 2>&1
    gpus=$(grep '^start' "$STUB_LOG" | awk '{print $3}' | sort -u | tr '\n' ' ')
    check parallel/gpus_none_leaves_the_env "seen: $gpus" test "$gpus" = "gpu=4 "
    "$CLASS" batch --lab 01 --submissions "$s" --out "$T/par/out4" --grader-cmd "$STUB" --gpus 0,0 >"$T/par/run4.log" 2>&1
    check parallel/same_gpu_twice_refused "--gpus 0,0 was accepted" grep -q 'GPU 0 twice' "$T/par/run4.log"
    # --jobs with GPUs: that many gradings at once on each GPU (the grader
    # takes turns for timing by itself; the stub does not, so no STUB_LOCKS).
    : >"$STUB_LOG"
    STUB_LOCKS= "$CLASS" batch --lab 01 --submissions "$s" --out "$T/par/out5" --grader-cmd "$STUB" \
        --gpus 0,1 --jobs 2 >"$T/par/run5.log" 2>&1
    most=$(sort -k5 -n "$STUB_LOG" | awk '$1 == "start" { n[$3]++; if (n[$3] > m[$3]) m[$3] = n[$3] }
        $1 == "end" { n[$3]-- } END { for (g in m) print g ":" m[g] }' | sort | tr '\n' ' ')
    check parallel/jobs_per_gpu "at most $most at once per GPU, expected 2 on each" \
        test "$most" = "gpu=0:2 gpu=1:2 "
    check parallel/jobs_per_gpu_said "$(head -n 1 "$T/par/run5.log")" \
        grep -q 'to grade on 2 GPUs, 2 at once on each' "$T/par/run5.log"
    unset STUB_LOG STUB_LOCKS
}

# ------------------------------------------------------------ a real Slurm
# The job script submitted for real to a one-node Slurm started here:
# munged, slurmctld and slurmd from Debian's slurm-wlm (apt install
# slurm-wlm), three "GPUs" that are device files, the stub grader. Skipped
# when Slurm is not installed, or without root (slurmd starts jobs).
real_slurm_tests() {
    local tool
    for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
        if ! command -v "$tool" >/dev/null; then
            skip slurm/real_cluster "no $tool (Debian: apt install slurm-wlm)"
            return
        fi
    done
    if [ "$(id -u)" != 0 ]; then
        skip slurm/real_cluster "slurmd needs root to start jobs"
        return
    fi
    local R H port i
    R=$(cd "$T" && pwd)/real-slurm H=$(hostname -s) port=$((20000 + $$ % 20000))
    rm -rf "$R" && mkdir -p "$R/state" "$R/spool" "$R/log" "$R/subs"
    head -c 1024 /dev/urandom >"$R/munge.key" && chmod 400 "$R/munge.key"
    cat >"$R/slurm.conf" <<CONF
ClusterName=cudalabtest
SlurmctldHost=$H
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$R/munge.sock
CredType=cred/munge
StateSaveLocation=$R/state
SlurmdSpoolDir=$R/spool
SlurmctldPidFile=$R/slurmctld.pid
SlurmdPidFile=$R/slurmd.pid
SlurmctldLogFile=$R/log/slurmctld.log
SlurmdLogFile=$R/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$H CPUs=$(nproc) RealMemory=1000 Gres=gpu:3 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    printf 'AutoDetect=off\nNodeName=%s Name=gpu File=/dev/null\nNodeName=%s Name=gpu File=/dev/zero\nNodeName=%s Name=gpu File=/dev/full\n' \
        "$H" "$H" "$H" >"$R/gres.conf"
    local stop="kill \$(cat '$R/slurmd.pid' '$R/slurmctld.pid' '$R/munged.pid' 2>/dev/null) 2>/dev/null"
    (
        export SLURM_CONF=$R/slurm.conf
        munged --force --key-file="$R/munge.key" --socket="$R/munge.sock" --pid-file="$R/munged.pid" \
            --log-file="$R/munged.log" --seed-file="$R/munged.seed" &&
            slurmctld -f "$R/slurm.conf" && sleep 1 && slurmd -f "$R/slurm.conf" || exit 3
        for i in $(seq 40); do
            sinfo -h -o %T 2>/dev/null | grep -qx idle && break
            scontrol update nodename="$H" state=resume >/dev/null 2>&1
            sleep 0.5
        done
        sinfo -h -o %T 2>/dev/null | grep -qx idle || exit 4
        for i in 1 2 3 4 5; do stub_student "$R/subs/s$i.cu" "pass"; done
        "$CLASS" slurm --lab 01 --submissions "$R/subs" --out "$R/out" --chunk 2 --cpus 1 --grader-cmd "$STUB" \
            >"$R/gen.log" 2>&1 || exit 5
        timeout 120 sbatch --wait "$R/out/grade-01-vector-add.sbatch" >"$R/sbatch.log" 2>&1 || exit 6
        "$CLASS" merge --out "$R/out" "$R/out"/tasks/task-* >"$R/merge.log" 2>&1 || exit 7
    ) >"$R/run.log" 2>&1
    local code=$?
    eval "$stop"
    local why
    case $code in
    0) why= ;;
    3) why="the daemons did not start: $(tail -n 1 "$R/log/slurmd.log" 2>/dev/null)" ;;
    4) why="the node never became idle: $(scontrol -f "$R/slurm.conf" show node "$H" 2>/dev/null | grep -o 'Reason=.*')" ;;
    5) why="class slurm failed: $(tail -n 1 "$R/gen.log")" ;;
    6) why="the job failed: $(tail -n 2 "$R/sbatch.log" | tr '\n' ' ') $(cat "$R/out"/tasks/slurm-*.log 2>/dev/null | tail -n 2 | tr '\n' ' ')" ;;
    *) why="the merge failed: $(tail -n 1 "$R/merge.log")" ;;
    esac
    if [ -n "$why" ]; then
        fail slurm/real_cluster "$why"
        return
    fi
    local counts
    counts=$(for i in 0 1 2; do lines "$R/out/tasks/task-$i/results.jsonl"; done | tr '\n' ' ')
    check slurm/real_cluster_grades_every_chunk "students per task: $counts, expected 2 2 1" test "$counts" = "2 2 1 "
    check slurm/real_cluster_gives_each_task_a_gpu "a task graded without CUDA_VISIBLE_DEVICES" \
        bash -c "! grep -hq '\"gpu\": \"unset\"' '$R'/out/tasks/task-*/results.jsonl"
    check slurm/real_cluster_merges "merged summary.csv has $(lines "$R/out/summary.csv") lines, expected 6" \
        test "$(lines "$R/out/summary.csv")" = 6
}

# ------------------------------------------------------- Slurm and merge
slurm_tests() {
    local s=$T/slurm/subs o="$T/slurm/out dir's" i
    for i in 1 2 3 4 5; do stub_student "$s/s$i.cu" "pass"; done
    "$CLASS" slurm --lab 01 --submissions "$s" --out "$o" --chunk 2 --grader-cmd "$STUB" \
        --mem-limit-mb 2048 >"$T/slurm/gen.log" 2>&1
    local script="$o/grade-01-vector-add.sbatch"
    check slurm/script_written "no script: $(tr '\n' ' ' <"$T/slurm/gen.log")" test -x "$script"
    check slurm/array_range "no '#SBATCH --array=0-2' for 5 students in chunks of 2" grep -qx '#SBATCH --array=0-2' "$script"
    check slurm/one_gpu_per_task "no --gres=gpu:1" grep -qx '#SBATCH --gres=gpu:1' "$script"
    check slurm/time_limit "no default time limit" grep -qx '#SBATCH --time=00:30:00' "$script"
    check slurm/chunking "no --chunk 2 --chunk-index \"\$task\" --expect-entries 5" \
        grep -qF -- '--chunk 2 --chunk-index "$task" --expect-entries 5' "$script"
    check slurm/paths_quoted "the results path is not a quoted shell word" \
        grep -qF "tasks='$T/slurm/out dir'\\''s/tasks'" "$script"
    check slurm/no_unsafe_sbatch_line "an #SBATCH --output with a blank in it" bash -c "! grep -q '^#SBATCH --output' \"\$1\"" _ "$script"
    check slurm/mem_limit_passed "no --mem-limit-mb 2048" grep -qF -- '--mem-limit-mb 2048' "$script"
    check slurm/valid_bash "bash -n fails" bash -n "$script"
    for i in 0 1 2; do SLURM_ARRAY_TASK_ID=$i CUDA_VISIBLE_DEVICES=$i bash "$script" >"$T/slurm/task$i.log" 2>&1; done
    local counts
    counts=$(for i in 0 1 2; do lines "$o/tasks/task-$i/results.jsonl"; done | tr '\n' ' ')
    check slurm/tasks_grade_their_chunk "students per task: $counts, expected 2 2 1" test "$counts" = "2 2 1 "
    check slurm/task_uses_its_gpu "task 1 did not grade on its CUDA_VISIBLE_DEVICES" \
        grep -q '"gpu": "1"' "$o/tasks/task-1/results.jsonl"
    stub_student "$s/s6.cu" "pass"
    SLURM_ARRAY_TASK_ID=0 bash "$script" >"$T/slurm/changed.log" 2>&1
    local code=$?
    check slurm/changed_folder_refused "exit $code: $(tail -n 1 "$T/slurm/changed.log")" \
        bash -c "[ $code = 2 ] && grep -q 'make the job again' '$T/slurm/changed.log'"
    rm "$s/s6.cu"
    "$CLASS" merge --out "$o" "$o"/tasks/task-* >"$T/slurm/merge.log" 2>&1
    check slurm/merge_summary "merged summary.csv has $(lines "$o/summary.csv") lines, expected 6" test "$(lines "$o/summary.csv")" = 6
    check slurm/merge_copies_student_files "no students/s5.json after the merge" test -s "$o/students/s5.json"
    "$CLASS" slurm --lab 01 --submissions "$s" --out "$T/slurm/plain" --chunk 2 --grader-cmd "$STUB" \
        --time 01:00:00 --partition gpu --account lab42 --max-parallel 4 >/dev/null 2>&1
    local plain=$T/slurm/plain/grade-01-vector-add.sbatch
    check slurm/options "array cap, time, partition, account or output missing" bash -c \
        "grep -qx '#SBATCH --array=0-2%4' '$plain' && grep -qx '#SBATCH --time=01:00:00' '$plain' &&
         grep -qx '#SBATCH --partition=gpu' '$plain' && grep -qx '#SBATCH --account=lab42' '$plain' &&
         grep -qx '#SBATCH --output=$T/slurm/plain/tasks/slurm-%A_%a.log' '$plain'"
    "$CLASS" slurm --lab 01 --submissions "$s" --out "$T/slurm/bad" --partition 'gpu x' --grader-cmd "$STUB" >"$T/slurm/bad.log" 2>&1
    code=$?
    check slurm/unsafe_sbatch_value_refused "exit $code" test "$code" = 2
}

# Two batch folders with the same student: the later result wins.
merge_tests() {
    local m=$T/merge d
    local st='"stages": [{"name": "work", "status": "%s", "message": "m"}, {"name": "right", "status": "%s", "message": "m"}, {"name": "fast", "status": "%s", "message": "m"}]'
    for d in early late; do mkdir -p "$m/$d/students"; done
    printf "{\"student\": \"alice\", \"lab\": \"01-vector-add\", \"verdict\": \"fail\", \"reason\": \"r\", \"finished_unix\": 100, $st}\n" fail skipped skipped >"$m/early/results.jsonl"
    printf "{\"student\": \"bob\", \"lab\": \"01-vector-add\", \"verdict\": \"pass\", \"reason\": \"\", \"finished_unix\": 150, $st}\n" pass pass pass >>"$m/early/results.jsonl"
    printf "{\"student\": \"alice\", \"lab\": \"01-vector-add\", \"verdict\": \"pass\", \"reason\": \"\", \"finished_unix\": 200, $st}\n" pass pass pass >"$m/late/results.jsonl"
    echo early >"$m/early/students/alice.txt"
    echo late >"$m/late/students/alice.txt"
    "$CLASS" merge --out "$m/all" "$m/late" "$m/early" >"$m/merge.log" 2>&1
    expect_verdict merge/latest_wins "$m/all" alice pass
    check merge/files_of_the_winner "students/alice.txt came from the older result" grep -qx late "$m/all/students/alice.txt"
    expect_verdict merge/union_of_students "$m/all" bob pass
    check merge/points_from_course "alice's row: $(grep '^alice' "$m/all/summary.csv")" \
        grep -q '^alice,01-vector-add,4,3,3,10,10,pass,' "$m/all/summary.csv"
}

# ------------------------------------ the real grader, three submissions
e2e_tests() {
    local s=$T/e2e/subs o=$T/e2e/out
    mkdir -p "$s/skeleton"
    cp labs/01-vector-add/solution/vector_add.cu "$s/solution.cu"
    cp labs/01-vector-add/vector_add.cu "$s/skeleton/"
    cp labs/01-vector-add/tests/wrong/wrong_operand__work.cu "$s/wrong_operand.cu"
    make --no-print-directory class BUILD="$BUILD" LAB=01 SUBMISSIONS="$s" OUT="$o" JOBS=2 >"$T/e2e/run.log" 2>&1
    local code=$?
    check e2e/make_class "make class exited $code: $(tail -n 2 "$T/e2e/run.log" | tr '\n' ' ')" test "$code" = 0
    if [ "$HAVE_GPU" = 1 ]; then
        expect_verdict e2e/solution_passes "$o" solution pass
    else
        expect_verdict e2e/solution_without_gpu_is_incomplete "$o" solution incomplete "fast: skipped: needs a GPU"
        check e2e/no_points_for_fast_without_gpu "solution's row: $(grep '^solution' "$o/summary.csv")" \
            grep -q '^solution,01-vector-add,4,3,0,7,10,incomplete,' "$o/summary.csv"
        check e2e/grader_exit_3_recorded "the grader's exit code 3 is not in results.jsonl" \
            grep -q '"student": "solution".*"grader_exit": 3' "$o/results.jsonl"
    fi
    expect_verdict e2e/skeleton_fails_work "$o" skeleton fail "work: "
    expect_verdict e2e/wrong_file_fails_work "$o" wrong_operand fail "work: "
    make -s --no-print-directory class-report BUILD="$BUILD" FROM="$o" FORMAT=gradescope STUDENT=solution >"$T/e2e/gs.json" 2>&1
    local want=7
    [ "$HAVE_GPU" = 1 ] && want=10
    check e2e/class_report_gradescope "score is not $want: $(head -n 2 "$T/e2e/gs.json" | tr '\n' ' ')" \
        grep -q "^  \"score\": $want,\$" "$T/e2e/gs.json"
}

# ------------------------------------------------------- run_autograder
autograder_tests() {
    local a=$T/ag
    mkdir -p "$a/clone/labs/01-vector-add" "$a/renamed" "$a/empty"
    cp labs/01-vector-add/solution/vector_add.cu "$a/clone/labs/01-vector-add/"
    cp labs/01-vector-add/README.md "$a/clone/labs/01-vector-add/"
    echo "// STUB pass" >"$a/renamed/vector_add (1).cu"
    echo "nothing here" >"$a/empty/notes.txt"
    grader/class/run_autograder --lab 01 --submission "$a/clone" --results "$a/clone.json" \
        --junit "$a/clone.xml" >"$a/clone.log" 2>&1
    local want=7
    [ "$HAVE_GPU" = 1 ] && want=10
    check autograder/real_grader "no results.json with score $want: $(tail -n 2 "$a/clone.log" | tr '\n' ' ')" \
        grep -q "^  \"score\": $want,\$" "$a/clone.json"
    check autograder/junit_too "no JUnit file" grep -q '<testsuite name="01-vector-add"' "$a/clone.xml"
    GRADER_CMD=$STUB grader/class/run_autograder --lab 01 --submission "$a/renamed" --results "$a/renamed.json" \
        --exit-code >"$a/renamed.log" 2>&1
    local code=$?
    check autograder/lone_cu_file_whatever_its_name "exit $code; score not 10" \
        bash -c "[ $code = 0 ] && grep -q '^  \"score\": 10,\$' '$a/renamed.json'"
    GRADER_CMD=$STUB grader/class/run_autograder --lab 01 --submission "$a/empty" --results "$a/empty.json" \
        --exit-code >"$a/empty.log" 2>&1
    code=$?
    check autograder/missing_file_scores_0 "exit $code; $(head -n 3 "$a/empty.json" | tr '\n' ' ')" \
        bash -c "[ $code = 1 ] && grep -q '^  \"score\": 0,\$' '$a/empty.json' && grep -q 'missing file' '$a/empty.json'"
}

unit_tests
format_tests
batch_tests
resume_tests
parallel_tests
slurm_tests
real_slurm_tests
merge_tests
e2e_tests
autograder_tests
done_ok=1
