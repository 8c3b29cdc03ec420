#!/usr/bin/env bash
# tests/new_lab_test.sh - is a lab made by `make new-lab` born in the right
# shape?
#
# In a copy of the working tree (what git tracks or would track), it runs
# `make new-lab NAME=98-twice-plus-one`, builds everything, and checks the new lab with
# make test's own facts and emulated end-to-end parts (TEST_LABS=98), so no
# GPU is needed: the skeleton fails work with the grader's message, the reference
# passes work and right, each file of its tests/wrong/ and tests/correct/
# behaves as its __stage suffix says, the README and the slides quote the
# spec's thresholds, the README opens as every lab's does, and the GPU
# toolchain builds the reference and the ladder. It also checks that
# `make new-lab` refuses what it must (a taken number, a malformed name, a
# file it would overwrite, another working directory) with exit code 2 and
# one line, writing nothing.
#
# One line per check, as in tests/run.sh: PASS new-lab/CHECK, FAIL
# new-lab/CHECK: why, or SKIP new-lab/CHECK: why. Exit 1 when a check
# failed. NEW_LAB_KEEP=1 keeps the copy and prints where it is.
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
CC=${CC:-gcc}
NVCC=${NVCC:-nvcc}

lab=98-twice-plus-one
nn=98
student=twice_plus_one.cu

failures=0
pass() { echo "PASS new-lab/$1"; }
fail() {
    echo "FAIL new-lab/$1: $2"
    failures=$((failures + 1))
}
skip() { echo "SKIP new-lab/$1: $2"; }
# The last lines of a log on one line, for a FAIL message.
tail_of() { tail -n "${2:-3}" "$1" 2>/dev/null | tr '\n' ' ' | cut -c1-400; }

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    skip all "needs a git checkout (the copy is made of the tracked files)"
    exit 0
fi
for tool in make tar "$CC"; do
    if ! command -v "$tool" >/dev/null; then
        skip all "$tool not found"
        exit 0
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/new-lab-test.XXXXXX")
if [ -n "${NEW_LAB_KEEP:-}" ]; then
    echo "new-lab: the copy is kept in $tmp"
else
    trap 'rm -rf "$tmp"' EXIT
fi
# The working tree's files that git tracks or would (tracked, and new ones
# not ignored yet; one deleted meanwhile is left out), as they are now: the
# copy is the tree under test even where the index lags behind it.
git ls-files -z --cached --others --exclude-standard |
    xargs -0 tar --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$tmp"
logs=$tmp/.new-lab-logs
mkdir -p "$logs"
cd "$tmp" || exit 1

# The copy is built and graded with its own defaults, whatever the caller
# (make test, a shell) has set for the real tree.
unset BUILD TRUSTED REGISTRY OUT RESULTS LAB NAME STAGE SUBMISSION SEED EMU KEEP LADDER \
    BUILD_ONLY MAKEFLAGS MFLAGS MAKELEVEL CUDALAB_INSTRUCTOR_SEED

# Every file but the build, to see that a refusal writes nothing.
listing() { find . -path ./build -prune -o -path ./.new-lab-logs -prune -o -print | LC_ALL=C sort; }

# ----------------------------------------------------------- the lab is made
make new-lab NAME=$lab >"$logs/new-lab.log" 2>&1
code=$?
missing=""
for f in labs/$lab/README.md labs/$lab/trusted/spec.c labs/$lab/trusted/lab.cu labs/$lab/$student \
    labs/$lab/solution/$student labs/$lab/solution/ladder.cu labs/$lab/slides/deck.md; do
    [ -s "$f" ] || missing="$missing $f"
done
ls labs/$lab/tests/wrong/*__*.cu >/dev/null 2>&1 || missing="$missing labs/$lab/tests/wrong/*__STAGE.cu"
ls labs/$lab/tests/correct/*__*.cu >/dev/null 2>&1 || missing="$missing labs/$lab/tests/correct/*__STAGE.cu"
if [ "$code" != 0 ]; then
    fail generate "make new-lab NAME=$lab exited with $code: $(tail_of "$logs/new-lab.log")"
    exit 1 # nothing else can be checked
elif [ -n "$missing" ]; then
    fail generate "make new-lab NAME=$lab did not write$missing"
    exit 1
elif ! grep -q "wrote labs/$lab/trusted/spec.c" "$logs/new-lab.log" || ! grep -q "calibrate" "$logs/new-lab.log"; then
    fail generate "its output lacks the files written or the next steps: $(tail_of "$logs/new-lab.log")"
else
    pass generate
fi

# Every placeholder filled: a template typo would otherwise reach the lab.
left=$(grep -rnoE '@[A-Z][A-Z_]*@' labs/$lab 2>/dev/null | head -n 3 | tr '\n' ' ')
if [ -z "$left" ]; then pass placeholders_filled; else fail placeholders_filled "left as they were: $left"; fi

# ------------------------------------------------- it refuses, writing nothing
# refused CHECK NAME [DIR]: templates/new_lab.sh NAME (run in DIR, the root
# by default) exits with 2 and one line "make new-lab: ...", and the tree is
# as it was; from the root, `make new-lab NAME=...` too (make itself exits
# with 2 whenever a recipe fails, so the script's own code is checked
# directly).
refused() {
    local check=$1 arg=$2 dir=${3:-.} before log=$logs/$1 code lines why=""
    before=$(listing)
    (cd "$dir" && "$tmp/templates/new_lab.sh" "$arg") >"$log.log" 2>&1
    code=$?
    lines=$(wc -l <"$log.log")
    if [ "$code" != 2 ]; then
        why="templates/new_lab.sh '$arg' exited with $code, expected 2: $(tail_of "$log.log")"
    elif [ "$lines" != 1 ] || ! grep -q '^make new-lab: ' "$log.log"; then
        why="expected one line 'make new-lab: ...', got $lines: $(tail_of "$log.log" 4)"
    elif [ "$(listing)" != "$before" ]; then
        why="refused, but the tree changed: $(diff <(echo "$before") <(listing) | head -n 3 | tr '\n' ' ')"
    elif [ "$dir" = . ]; then
        make new-lab NAME="$arg" >"$log-make.log" 2>&1
        code=$?
        if [ "$code" != 2 ] || ! grep -qxF "$(cat "$log.log")" "$log-make.log"; then
            why="make new-lab NAME='$arg' exited with $code, expected 2 and the same line: $(tail_of "$log-make.log")"
        elif [ "$(listing)" != "$before" ]; then
            why="make new-lab NAME='$arg' refused, but the tree changed"
        fi
    fi
    if [ -z "$why" ]; then pass "$check"; else fail "$check" "$why"; fi
}
refused refuses_a_taken_number "$nn-other"
refused refuses_a_malformed_name Bad
refused refuses_no_name ""
refused refuses_a_name_that_is_a_keyword 97-double
# A lab's folder that exists already is never written into, even when it
# holds only part of a lab.
mkdir -p labs/97-kept/slides && echo keep >labs/97-kept/slides/deck.md
refused refuses_to_overwrite 97-kept
if [ "$(cat labs/97-kept/slides/deck.md)" != keep ]; then fail refuses_to_overwrite "labs/97-kept/slides/deck.md changed"; fi
rm -rf labs/97-kept
refused refuses_outside_the_root 97-elsewhere labs

# ------------------------------------------------ it builds and grades
if ! command -v "$NVCC" >/dev/null; then
    for check in build lab_info skeleton_fails_work reference_passes_right reference_builds_for_gpu \
        ladder_builds wrong correct; do
        skip "$check" "$NVCC not found: the grader and the lab's trusted objects need it"
    done
    [ "$failures" = 0 ]
    exit
fi
if make all -j2 >"$logs/build.log" 2>&1; then
    pass build
else
    why=$(grep -m 3 -E 'error:|Error [0-9]|No rule|Stop\.' "$logs/build.log" | tr '\n' ' ' | cut -c1-400)
    fail build "make all -j2: ${why:-$(tail_of "$logs/build.log" 5)}"
    exit 1
fi

info=$(build/grade --lab $nn --lab-info 2>&1 | sed -n 's/^student_file=//p')
if [ "$info" = "$student" ]; then
    pass lab_info
else
    fail lab_info "build/grade --lab $nn --lab-info names '$info' as the student's file, not $student"
fi

./grade LAB=$nn STAGE=work EMU=1 >"$logs/skeleton.log" 2>&1
code=$?
if [ "$code" = 1 ] && grep -q '^work  FAIL' "$logs/skeleton.log" &&
    grep -q 'nothing was written' "$logs/skeleton.log"; then
    pass skeleton_fails_work
else
    fail skeleton_fails_work "exit $code, wanted 1 with 'work  FAIL' and 'nothing was written': $(grep -E '^(work|verdict)' "$logs/skeleton.log" | tr '\n' ' ')"
fi

# The GPU toolchain and the grader's source, symbol and object rules, with
# nothing run (no GPU needed).
./grade LAB=$nn SUBMISSION=labs/$lab/solution/$student BUILD_ONLY=1 >"$logs/gpu-build.log" 2>&1
code=$?
if [ "$code" = 0 ] && grep -q '^build PASS' "$logs/gpu-build.log"; then
    pass reference_builds_for_gpu
else
    fail reference_builds_for_gpu "exit $code: $(tail_of "$logs/gpu-build.log")"
fi
./grade LAB=$nn LADDER=1 BUILD_ONLY=1 >"$logs/ladder.log" 2>&1
code=$?
if [ "$code" = 0 ] && grep -q '^build PASS' "$logs/ladder.log"; then
    pass ladder_builds
else
    fail ladder_builds "exit $code: $(tail_of "$logs/ladder.log")"
fi

# The rest is what make test checks for every lab, run by make test's own
# parts in the copy, on this lab: facts (the README's and the slides'
# thresholds against the spec, the README's opening line) and the emulated
# end-to-end cases (the reference passes work and right, the skeleton fails
# work, each file of its tests/wrong/ and tests/correct/ as its __stage says).
# Every case of the new lab, whatever TEST_CASES the outer make test picks.
TEST_CASES= TEST_PARTS="facts emu" TEST_LABS=$nn bash tests/run.sh >"$logs/suite.log" 2>&1
cases=$(grep -E "^(PASS|FAIL|SKIP) [a-z-]+/(labs/)?$lab[/.]" build/test/results.txt 2>/dev/null)
sed 's/^\(PASS\|FAIL\|SKIP\) /\1 new-lab\//' <<<"$cases"
failures=$((failures + $(grep -c '^FAIL ' <<<"$cases")))
for want in "facts/labs/$lab/README.md" "facts/labs/$lab/slides/deck.md" "facts/labs/$lab/INSTRUCTOR.md" \
    "facts/$lab/opening" "emu/$lab/solution" "emu/$lab/skeleton" "emu/$lab/wrong/" "emu/$lab/correct/"; do
    grep -qE "^(PASS|FAIL) ${want//./\\.}" <<<"$cases" ||
        fail "suite/$want" "make test's parts gave no verdict: $(tail_of "$logs/suite.log")"
done

[ "$failures" = 0 ]
