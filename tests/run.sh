#!/usr/bin/env bash
# tests/run.sh - the project's own tests; `make test` runs it.
#
# Every test prints one line: PASS name, FAIL name: why, or SKIP name: why.
# The last line counts them: N passed, N failed, N skipped. Tests that need
# a GPU are skipped (never passed) when there is none. SKIP lines are
# summed up per group at the end (one line each); VERBOSE=1 prints them all.
set -u
cd "$(dirname "$0")/.."
if [ -z "${VERBOSE:-}" ]; then
    exec 3>&1 > >(grep --line-buffered -v '^SKIP ' >&3)
    skip_filter=$!
fi

BUILD=${BUILD:-build}
NVCC=${NVCC:-nvcc}
SM=${SM:-90}
CC=${CC:-gcc}
TRUSTED=${TRUSTED:-$BUILD/sm_$SM/trusted}
REGISTRY=${REGISTRY:-$BUILD/obj/lab_registry.c}
OUT=$BUILD/test
RESULTS=$OUT/results.txt
rm -rf "$OUT"
mkdir -p "$OUT"
: >"$RESULTS"
. tests/fixtures.sh
FIXTURES=$OUT/fixtures # the graded files of fixtures built on the reference

say() { echo "$*" | tee -a "$RESULTS"; }
pass() { say "PASS $1"; }
fail() { say "FAIL $1: $2"; }
skip() { say "SKIP $1: $2"; }
# A test function that is called but no longer defined (lost in an edit)
# would otherwise only print "command not found" and take its cases with
# it; it fails instead. Tools that may be absent are asked for with
# command -v first.
command_not_found_handle() {
    fail "run.sh/$1" "tests/run.sh called '$1', which is neither a command nor a function here"
    return 127
}

# The grader with this build's paths, as the Makefile writes it (make
# grader-command), on the GPU or emulated; extra arguments follow.
TEST_GRADER_CMD=$(make -s --no-print-directory grader-command BUILD="$BUILD" NVCC="$NVCC" SM="$SM") &&
    TEST_EMULATED_CMD=$(make -s --no-print-directory grader-command BUILD="$BUILD" NVCC="$NVCC" SM="$SM" EMU=1) ||
    { echo "make grader-command failed" >&2; exit 2; }
# shellcheck disable=SC2086 # the commands' words, split as make wrote them
grade() { $TEST_GRADER_CMD "$@"; }
# shellcheck disable=SC2086
grade_emulated() { $TEST_EMULATED_CMD "$@"; }
export -f grade grade_emulated
export BUILD NVCC SM TRUSTED TEST_GRADER_CMD TEST_EMULATED_CMD
GRADE=(grade)

# gpu_hold shared|exclusive COMMAND...: COMMAND holding the gradings' GPU
# lock (tests/gpu_hold.c), for a test's own GPU work beside gradings.
# (absolute paths: a test may run it from another folder)
GPU_HOLD=$OUT/gpu_hold
GPU_LOCK_DIR=$TRUSTED
[[ $GPU_HOLD == /* ]] || GPU_HOLD=$PWD/$GPU_HOLD
[[ $GPU_LOCK_DIR == /* ]] || GPU_LOCK_DIR=$PWD/$GPU_LOCK_DIR
if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -Igrader -Icommon tests/gpu_hold.c grader/gpu_lock.c \
    grader/isolate.c -o "$GPU_HOLD" >"$OUT/gpu_hold-build.log" 2>&1; then
    echo "tests/gpu_hold.c does not build: $(head -n 3 "$OUT/gpu_hold-build.log")" >&2
    exit 2
fi
gpu_hold() { "$GPU_HOLD" "$1" "$GPU_LOCK_DIR" "${@:2}"; }
export GPU_HOLD GPU_LOCK_DIR
export -f gpu_hold

# The file a student edits in lab $1, as the lab's spec names it.
student_file_of() {
    "$BUILD/grade" --lab "$1" --lab-info | sed -n 's/^student_file=//p'
}

# ---------------------------------------------------------------- unit tests
unit_tests() {
    local bin=$OUT/unit
    if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -Wno-format-truncation -Igrader -Icommon \
        -Itests/unit tests/unit/*.c grader/compare.c grader/stats.c grader/isolate.c grader/gpu_lock.c grader/device.c \
        grader/text.c grader/judge.c grader/lab_spec.c grader/stages.c grader/counts.c grader/requests.c grader/response.c grader/resources.c grader/symbols.c grader/gpu_clock.c grader/report.c grader/placement.c grader/fast.c grader/ladder.c \
        "$REGISTRY" labs/*/trusted/spec.c \
        -lm -pthread -o "$bin" 2>"$OUT/unit-build.log"; then
        fail unit/build "$(head -n 5 "$OUT/unit-build.log")"
        return
    fi
    # A crash must not pass for a short list: every test that did not run
    # would go unseen.
    "$bin" >"$OUT/unit.txt" 2>&1
    local code=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$OUT/unit.txt" | tee -a "$RESULTS"
    if [ "$code" != 0 ] && ! grep -q '^FAIL ' "$OUT/unit.txt"; then
        fail unit/run "the unit tests stopped with exit code $code after $(grep -c '^PASS ' "$OUT/unit.txt") passes: $(tail -n 1 "$OUT/unit.txt")"
    fi
}

# ------------------------------------- the runner's sandbox, call by call
# tests/sandbox/probe_sandbox.cpp closes the seccomp filter of
# grader/runner/lockdown.cu in a child and makes one system call at a time.
sandbox_tests() {
    local bin=$OUT/probe_sandbox
    if ! g++ -std=c++17 -O1 -Wno-attributes -Icommon/emu/include -include common/emu/cuda_emu.h \
        -Igrader -Icommon -x c++ grader/runner/lockdown.cu grader/runner/fence.cu -x c++ tests/sandbox/probe_sandbox.cpp \
        -lpthread -o "$bin" >"$OUT/sandbox-build.log" 2>&1; then
        fail sandbox/build "$(head -n 5 "$OUT/sandbox-build.log")"
        return
    fi
    "$bin" >"$OUT/sandbox.txt" 2>&1
    local code=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$OUT/sandbox.txt" | tee -a "$RESULTS"
    if [ "$code" != 0 ] && ! grep -q '^FAIL ' "$OUT/sandbox.txt"; then
        fail sandbox/run "the probes stopped with exit code $code: $(tail -n 1 "$OUT/sandbox.txt")"
    fi
    # The inputs rearranged before every timed round (grader/runner/shuffle.cu),
    # in the CPU emulation.
    bin=$OUT/shuffle_test
    if ! common/emu/emucc -B "$BUILD/emu" -Igrader -Icommon tests/sandbox/shuffle_test.cu \
        grader/runner/shuffle.cu -o "$bin" >"$OUT/shuffle-build.log" 2>&1; then
        fail shuffle/build "$(grep -m 1 error "$OUT/shuffle-build.log")"
        return
    fi
    "$bin" >"$OUT/shuffle.txt" 2>&1
    code=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$OUT/shuffle.txt" | tee -a "$RESULTS"
    if [ "$code" != 0 ] && ! grep -q '^FAIL ' "$OUT/shuffle.txt"; then
        fail shuffle/run "stopped with exit code $code: $(tail -n 1 "$OUT/shuffle.txt")"
    fi
}

# ------------------------------------------- every .cu compiles with nvcc
# To a cubin: nvcc's front end still reads the whole file, host code too,
# and ptxas still builds every kernel, but the host compiler does not run
# (the emu part compiles every file's host code with g++). On this 2-core
# machine that takes a third of the time of a full compile.
#
# A solution's kernels must not spill registers to local memory: a spill
# is a slow reference that no test without a GPU would notice (lab 11's
# 4 x 2 kernel with both bounds tests in one condition spilled 640 bytes at
# radius 7 and ran 3.3 times slower). ptxas says so with -v.
compile_one() {
    local src=$1 obj log verbose=
    obj=$OUT/compile/$(echo "$src" | tr '/' '_').cubin
    log=${obj%.cubin}.log
    [[ $src == */solution/* ]] && verbose=-Xptxas=-v
    if ! $NVCC --cubin -O3 -std=c++17 -arch="sm_$SM" -Icommon -Igrader $verbose -o "$obj" "$src" >"$log" 2>&1; then
        echo "FAIL compile/$src: $(grep -m 3 -i error "$log" | tr '\n' ' ')"
    elif [ -n "$verbose" ] && spills "$log"; then
        echo "FAIL compile/$src: a kernel spills registers to local memory: $(spills "$log")"
    else
        echo "PASS compile/$src"
    fi
}
# spills LOG: the kernels ptxas -v reported with spill stores, if any.
spills() {
    awk '/Function properties for / { k = $NF }
         match($0, /[0-9]+ bytes spill stores/) { n = substr($0, RSTART, RLENGTH) + 0
             if (n > 0) { printf "%s%s (%d bytes)", sep, k, n; sep = ", "; hit = 1 } }
         END { exit !hit }' "$1"
}
export -f compile_one spills
compile_all() {
    mkdir -p "$OUT/compile"
    local files f
    files=$(ls labs/*/*.cu labs/*/solution/*.cu labs/*/tests/wrong/*.cu labs/*/tests/correct/*.cu 2>/dev/null |
            while read -r f; do
                f_lab=${f#labs/}
                selected "${f_lab%%/*}" && fixture_graded "$f" "$FIXTURES"
            done)
    echo "$files" | OUT=$OUT NVCC=$NVCC SM=$SM xargs -P "$(nproc)" -I{} bash -c 'compile_one "$@"' _ {} |
        sort | tee -a "$RESULTS"
    # The spill check can fail: a kernel held to 24 registers with 64
    # values live (all loaded before the first store) spills.
    local src=$OUT/compile/spills.cu log=$OUT/compile/spills.log
    printf '%s\n' '__global__ void live64(float *p) {' '    float v[64];' \
        '    for (int i = 0; i < 64; i++) v[i] = p[i * threadIdx.x];' \
        '    for (int i = 0; i < 64; i++) p[i] = v[i] * v[63 - i];' '}' >"$src"
    $NVCC --cubin -O3 -arch="sm_$SM" -maxrregcount=24 -Xptxas=-v -o "${src%.cu}.cubin" "$src" >"$log" 2>&1
    if spills "$log" >/dev/null; then
        pass compile/spill_check_sees_a_spill
    else
        fail compile/spill_check_sees_a_spill "no spill found in $log: $(grep -m 2 spill "$log" | tr '\n' ' ')"
    fi
}

# ------------------------------------------------ the command line, no GPU
# run NAME EXPECTED_EXIT PATTERN -- grade args...: the exit code and a phrase
# of the output must both match.
cli_case() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local log=$OUT/cli-$name.log code
    "$@" >"$log" 2>&1
    code=$?
    if [ "$code" != "$want" ]; then
        fail "cli/$name" "exit code $code, expected $want: $(tail -n 3 "$log" | tr '\n' ' ')"
    elif ! grep -q -- "$pattern" "$log"; then
        fail "cli/$name" "output lacks '$pattern': $(tail -n 3 "$log" | tr '\n' ' ')"
    else
        pass "cli/$name"
    fi
}

# A grading waits while another has the GPU to itself (a timing in
# progress, played by flock(1) holding the lock), then goes on.
gpu_lock_test() {
    if ! command -v flock >/dev/null; then
        skip cli/grading_waits_for_a_timing "flock(1) not found"
        return
    fi
    local log=$OUT/cli-gpu-lock.log before holder
    flock -x "$TRUSTED/gpu-lock-test.lock" sleep 2 &
    holder=$!
    sleep 0.3
    # The probe waits for the lock (beside the build where a driver is
    # installed, so probe and build together are what cannot be shorter).
    CUDA_VISIBLE_DEVICES=lock-test ./grade LAB=01 STAGE=work \
        SUBMISSION=labs/01-vector-add/solution/vector_add.cu >"$log" 2>&1
    wait "$holder"
    before=$(sed -n 's/^time: probe \([0-9.]*\) s, build \([0-9.]*\) s.*/\1 \2/p' "$log")
    if grep -q '^work  PASS' "$log" && echo "$before" | awk '{ exit !($1 + $2 >= 1.2) }'; then
        pass cli/grading_waits_for_a_timing
    else
        fail cli/grading_waits_for_a_timing "probe and build took ${before:-?} s while the GPU was held for 1.7 s more: $(tail -n 2 "$log" | tr '\n' ' ')"
    fi
}

# tests/gpu_hold.c holds the lock while its command runs, lets go after,
# and passes the command's exit code on.
gpu_hold_test() {
    if ! command -v flock >/dev/null; then
        skip cli/gpu_hold_holds_the_lock "flock(1) not found"
        return
    fi
    local dir=$OUT/gpu-hold-test during after code passed
    mkdir -p "$dir"
    env -u CUDA_VISIBLE_DEVICES "$GPU_HOLD" exclusive "$dir" sleep 1 &
    local holder=$!
    sleep 0.3
    if flock -n -s "$dir/gpu-0.lock" true; then during=free; else during=held; fi
    wait "$holder"
    code=$?
    if flock -n -s "$dir/gpu-0.lock" true; then after=free; else after=held; fi
    env -u CUDA_VISIBLE_DEVICES "$GPU_HOLD" shared "$dir" sh -c 'exit 5'
    passed=$?
    if [ "$during/$after/$code/$passed" = held/free/0/5 ]; then
        pass cli/gpu_hold_holds_the_lock
    else
        fail cli/gpu_hold_holds_the_lock "while it ran the lock was $during, after it $after; exit codes $code and $passed (want held/free/0/5)"
    fi
}

# The Makefile (LAB_ID) and the grader (lab_find) name labs by the same
# rule: every way to write each lab's name resolves to that lab in both.
lab_names_agree() {
    local dir id n bad=""
    for dir in labs/[0-9][0-9]-*/; do
        id=$(basename "$dir")
        n=${id%%-*}
        for name in "$id" "$n" "${n#0}" "${id#*-}"; do
            local by_make by_grade
            by_make=$(make -s --no-print-directory grade-command LAB="$name" 2>/dev/null |
                      sed -n 's/.*--lab \([^ ]*\).*/\1/p')
            by_grade=$("$BUILD/grade" --lab "$name" --lab-info 2>/dev/null | sed -n 's/^id=//p')
            [ "$by_make" = "$id" ] && [ "$by_grade" = "$id" ] ||
                bad="$bad $name(make:${by_make:-none},grade:${by_grade:-none})"
        done
    done
    if [ -z "$bad" ]; then pass cli/lab_names_agree; else fail cli/lab_names_agree "$bad"; fi
}

# The student release holds no answers, yet builds and grades on its own:
# lab 01's reference (from this copy) passes work and right there, and the
# skeleton fails work.
student_release_test() {
    local dest=$OUT/student-release sol untracked
    sol=$(pwd)/labs/01-vector-add/solution/$(student_file_of 01)
    # The release is what git tracks: a new file not yet added would be
    # missing from it (and the grader there would not build).
    untracked=$(git ls-files --others --exclude-standard -- grader common labs Makefile grade 2>/dev/null |
                head -n 3 | tr '\n' ' ')
    if [ -n "$untracked" ]; then
        skip cli/student_release "the release copies what git tracks, and these are not tracked yet: $untracked"
        return
    fi
    rm -rf "$dest"
    if ! make -s --no-print-directory student-release DEST="$dest" >"$OUT/release.log" 2>&1; then
        fail cli/student_release "make student-release failed: $(tail -n 2 "$OUT/release.log" | tr '\n' ' ')"
        return
    fi
    local leaked
    leaked=$(cd "$dest" && ls -d labs/*/solution labs/*/tests tests templates .ci 2>/dev/null
             grep -rl "LAB_LADDER = " . 2>/dev/null | head -n 3
             grep -l '{\.answer}' labs/*/slides/deck.md 2>/dev/null)
    # The release is another checkout, whose gradings take turns on the GPU
    # among themselves: here they hold this checkout's lock as checks do,
    # so no timing beside them sees them (tests/gpu_hold.c). Built first,
    # not while holding it.
    (cd "$dest" && make -s --no-print-directory grade-command LAB=01) >"$OUT/release-build.log" 2>&1
    (cd "$dest" && gpu_hold shared ./grade LAB=01 STAGE=right SUBMISSION="$sol") >"$OUT/release-solution.log" 2>&1
    local sol_code=$?
    (cd "$dest" && gpu_hold shared ./grade LAB=01 STAGE=work) >"$OUT/release-skeleton.log" 2>&1
    local skel_code=$?
    (cd "$dest" && gpu_hold shared ./grade LAB=01 LADDER=1) >"$OUT/release-ladder.log" 2>&1
    local ladder_code=$?
    if [ -n "$leaked" ]; then
        fail cli/student_release "the release holds $leaked"
    elif [ "$sol_code" != 0 ] || ! grep -q '^right PASS' "$OUT/release-solution.log"; then
        fail cli/student_release "the reference did not pass right in the release (exit $sol_code): $(grep -E '^(work|right) ' "$OUT/release-solution.log" | tr '\n' ' ')"
    elif [ "$skel_code" != 1 ] || ! grep -q '^work  FAIL' "$OUT/release-skeleton.log"; then
        fail cli/student_release "the skeleton did not fail work in the release (exit $skel_code)"
    elif [ "$ladder_code" != 2 ] || ! grep -q 'a student release leaves the solutions out' "$OUT/release-ladder.log"; then
        fail cli/student_release "make ladder in the release did not say why it cannot run (exit $ladder_code): $(head -c 200 "$OUT/release-ladder.log")"
    else
        pass cli/student_release
    fi
    rm -rf "$dest"
}

cli_tests() {
    local bad=$OUT/cli-src
    mkdir -p "$bad"
    printf '__global__ void k( { }\n' >"$bad/syntax_error.cu"
    cat >"$bad/defines_main.cu" <<'EOF'
#include <cuda_runtime.h>
extern "C" cudaError_t vector_add(const float *, const float *, float *, int, cudaStream_t)
{ return cudaSuccess; }
int main() { return 0; }
EOF
    cli_case unknown_lab 2 "no lab called 'nope'" -- "${GRADE[@]}" --lab nope
    cli_case quick_only_for_a_ladder 2 "--quick is for a ladder" -- "${GRADE[@]}" --lab 01 --quick
    lab_names_agree
    student_release_test
    cli_case grade_script_help 0 "SUBMISSION and RESULTS may be relative" -- ./grade --help
    cli_case grade_script_bad_argument 2 "arguments are VARIABLE=value" -- ./grade vector_add.cu
    cli_case make_help 0 "make grade LAB=01" -- make -s --no-print-directory help
    cli_case emulation_lacks_a_feature 3 "the CPU emulation does not support grid-wide synchronisation" -- \
        ./grade LAB=04 EMU=1 STAGE=right SUBMISSION=labs/04-reduction/tests/correct/cooperative_grid_sync__fast.cu
    # Six ./grade side by side right after a change to the grader: one make
    # at a time rebuilds it, and every grading passes.
    touch grader/report.c
    local i codes="" pids=() code first_bad=""
    for i in 1 2 3 4 5 6; do
        ./grade LAB=01 EMU=1 STAGE=work SUBMISSION=labs/01-vector-add/solution/vector_add.cu \
            >"$OUT/cli-parallel-$i.log" 2>&1 &
        pids+=($!)
    done
    for i in 1 2 3 4 5 6; do
        wait "${pids[i - 1]}"
        code=$?
        codes="$codes$code "
        [ "$code" = 0 ] || [ -n "$first_bad" ] || first_bad=$OUT/cli-parallel-$i.log
    done
    if [ -z "$first_bad" ]; then
        pass cli/parallel_gradings_share_one_build
    else
        fail cli/parallel_gradings_share_one_build "exit codes $codes; $first_bad ends: $(grep -v '^\(lab\|emulated\|built\|calls\|time\)' "$first_bad" | tail -n 3 | tr '\n' ' ')"
    fi
    # Makes side by side without ./grade's lock (make test's own parts, an
    # instructor's two batches) after the same change: each writes its files
    # under a name of its own and renames them into place (Makefile), so all
    # succeed and the grader they leave runs.
    touch grader/report.c
    local makes=() bad_makes=""
    for i in 1 2 3 4 5 6; do
        make -s --no-print-directory all >"$OUT/cli-make-$i.log" 2>&1 &
        makes+=($!)
    done
    for i in 1 2 3 4 5 6; do
        wait "${makes[i - 1]}" || bad_makes="$bad_makes $i"
    done
    if [ -z "$bad_makes" ] && "$BUILD/grade" --lab 01 --lab-info >/dev/null 2>&1; then
        pass cli/parallel_makes_after_a_change
    else
        fail cli/parallel_makes_after_a_change "make${bad_makes:- (all passed)} failed, or build/grade does not run: $(cat "$OUT"/cli-make-*.log | grep -v '^ *$' | head -n 2 | tr '\n' ' ')"
    fi
    # Where the time went: a line for people, seconds per stage and part in the JSON.
    # (work's and right's calls are one run, under work; an emulated right
    # stage that passed also counts memory accesses)
    cli_case stage_times_reported 0 "^time: probe [0-9.]* s, build [0-9.]* s, work [0-9.]* s (run [0-9.]*), right [0-9.]* s (counts [0-9.]*); total" -- \
        ./grade LAB=01 EMU=1 STAGE=right SUBMISSION=labs/01-vector-add/solution/vector_add.cu RESULTS="$OUT/cli-times.json"
    if grep -q '"name": "right".*"seconds": [0-9.]*[1-9][0-9.]*, "seconds_by_part": {"counts": [0-9.]' "$OUT/cli-times.json" &&
       grep -q '"seconds": {"probe": [0-9.e-]*, "build": [0-9.]*[1-9]' "$OUT/cli-times.json"; then
        pass cli/stage_times_in_json
    else
        fail cli/stage_times_in_json "no seconds per stage and part in $OUT/cli-times.json"
    fi
    # make status reads the last result make grade kept (the grading just
    # above: lab 01's solution, work and right on the CPU).
    cli_case status_shows_the_last_result 0 "^01-vector-add *pass *pass *skipped .*fast not graded yet" -- \
        make -s --no-print-directory status
    cli_case status_as_a_page 0 "^wrote .*status.md" -- make -s --no-print-directory status FORMAT=md
    if grep -q "slides/ladder.png" "$BUILD/status.md" 2>/dev/null; then
        pass cli/status_page_has_the_ladder_charts
    else
        fail cli/status_page_has_the_ladder_charts "no ladder chart in $BUILD/status.md"
    fi
    # A drawing by make plot newer than the lab's last report takes the
    # ladder's place; an older one (a grading came since) does not.
    mkdir -p "$BUILD/last"
    local had_report=0
    [ -e "$BUILD/last/10-scan.json" ] && had_report=1
    cp labs/10-scan/slides/ladder.png "$BUILD/last/10-scan.png"
    touch -d '2 minutes ago' "$BUILD/last/10-scan.json"
    touch "$BUILD/last/10-scan.png"
    make -s --no-print-directory status FORMAT=md >/dev/null 2>&1
    local newer older
    newer=$(grep -c "your kernel on the ladder of 10-scan" "$BUILD/status.md")
    touch -d '2 minutes ago' "$BUILD/last/10-scan.png"
    touch "$BUILD/last/10-scan.json"
    make -s --no-print-directory status FORMAT=md >/dev/null 2>&1
    older=$(grep -c "your kernel on the ladder of 10-scan" "$BUILD/status.md")
    rm -f "$BUILD/last/10-scan.png"
    [ "$had_report" = 1 ] || rm -f "$BUILD/last/10-scan.json"
    if [ "$newer" = 1 ] && [ "$older" = 0 ]; then
        pass cli/status_page_shows_your_plot
    else
        fail cli/status_page_shows_your_plot "with a newer plot $newer, with an older one $older (want 1 and 0)"
    fi
    cli_case status_bad_format 2 "FORMAT is text or md" -- make -s --no-print-directory status FORMAT=pdf
    gpu_lock_test
    gpu_hold_test
    # An unlimited stack limit makes the kernel map memory below the
    # program, which the runner's fence relies on not happening: the
    # grader gives its children a finite one (grader/isolate.c).
    if bash -c 'ulimit -s unlimited' 2>/dev/null; then
        cli_case unlimited_stack_limit_still_grades 0 "^work  PASS" -- bash -c \
            'ulimit -s unlimited && exec ./grade LAB=01 EMU=1 STAGE=work SUBMISSION=labs/01-vector-add/solution/vector_add.cu'
    else
        skip cli/unlimited_stack_limit_still_grades "the hard stack limit is finite here"
    fi
    cli_case submission_is_a_folder 2 "is a folder, not a .cu file" -- \
        "${GRADE[@]}" --lab 01 --submission "$bad"
    cli_case entry_point_missing 1 "does not define the entry point vector_add" -- \
        ./grade LAB=01 EMU=1 STAGE=work SUBMISSION=labs/01-vector-add/tests/wrong/nothing_but_a_comment__work.cu
    cli_case entry_point_without_extern_c 1 'entry point without extern "C"' -- \
        ./grade LAB=01 EMU=1 STAGE=work SUBMISSION=labs/01-vector-add/tests/wrong/entry_point_without_extern_c__work.cu
    # A relative SUBMISSION is read from the folder ./grade was run in.
    cli_case grade_script_relative_path 2 "cannot read the submission $(cd "$bad" && pwd)/absent.cu" -- \
        bash -c 'cd "$1" && "$2/grade" LAB=01 SUBMISSION=absent.cu' _ "$bad" "$PWD"
    cli_case bad_stage 2 "STAGE must be work, right or fast" -- "${GRADE[@]}" --lab 01 --stage quick
    cli_case missing_submission 2 "cannot read the submission" -- \
        "${GRADE[@]}" --lab 01 --submission "$bad/absent.cu"
    cli_case does_not_compile 1 "does not build: syntax_error.cu[:(]1[:)].*error.*; the compiler says" -- \
        "${GRADE[@]}" --lab 01 --submission "$bad/syntax_error.cu" --results "$OUT/cli-build.json"
    if grep -q '"status": "error"' "$OUT/cli-build.json" 2>/dev/null &&
       grep -q '"passed": false' "$OUT/cli-build.json"; then
        pass cli/build_error_json
    else
        fail cli/build_error_json "no error stage or passed:false in $OUT/cli-build.json"
    fi
    cli_case compiler_message_shown 1 "syntax_error.cu(1)" -- \
        "${GRADE[@]}" --lab 01 --submission "$bad/syntax_error.cu"
    cli_case defines_main 1 "defines main: the grader owns main" -- \
        "${GRADE[@]}" --lab 01 --submission "$bad/defines_main.cu"
    # The allowlist reads the object nvcc built, GPU or not.
    cli_case forbidden_library_named 1 "from CUB: this lab forbids it" -- \
        "${GRADE[@]}" --lab 04 --submission labs/04-reduction/tests/wrong/calls_cub__work.cu
    cli_case file_call_rejected 1 "calls fclose, which is not on the allowlist" -- \
        "${GRADE[@]}" --lab 01 --submission labs/01-vector-add/tests/wrong/reads_answers_from_a_file__work.cu
    # A hidden instructor seed changes the inputs, never what is printed.
    cli_case hidden_seed_reported_not_shown 0 "seed 24301$" -- \
        env CUDALAB_INSTRUCTOR_SEED=s3cret ./grade LAB=01 STAGE=work EMU=1 \
        SUBMISSION=labs/01-vector-add/solution/vector_add.cu
    cli_case hidden_seed_said_to_be_used 0 "inputs also drawn from the instructor's hidden seed" -- \
        env CUDALAB_INSTRUCTOR_SEED=s3cret ./grade LAB=01 STAGE=work EMU=1 \
        SUBMISSION=labs/01-vector-add/solution/vector_add.cu
    cli_case hidden_seed_file_must_exist 2 "cannot read the instructor seed file" -- \
        "${GRADE[@]}" --lab 01 --instructor-seed-file "$bad/absent.seed"
    cli_case mem_limit_must_be_a_number 2 "mem-limit-mb takes a positive number" -- \
        "${GRADE[@]}" --lab 01 --mem-limit-mb lots
    cli_case seed_must_be_a_number 2 "seed takes a number, not abc" -- \
        "${GRADE[@]}" --lab 01 --seed abc
    cli_case time_limits_must_be_two_positive_numbers 2 "time-limits takes WORK,RIGHT, two positive numbers of seconds, not 0,5" -- \
        "${GRADE[@]}" --lab 01 --time-limits 0,5
    cli_case time_limits_take_two 2 "time-limits takes WORK,RIGHT, two positive numbers of seconds, not 5" -- \
        "${GRADE[@]}" --lab 01 --time-limits 5
    chmod 000 "$bad/syntax_error.cu" 2>/dev/null
    if [ -r "$bad/syntax_error.cu" ]; then
        skip cli/unreadable_submission "files stay readable for this user (root?)"
    else
        cli_case unreadable_submission 2 "cannot read the submission" -- \
            "${GRADE[@]}" --lab 01 --submission "$bad/syntax_error.cu"
    fi
    chmod 644 "$bad/syntax_error.cu" 2>/dev/null
    cli_case make_unknown_lab 2 "no lab called 'nope'" -- make --no-print-directory grade LAB=nope
    # A failing file: the verdict is the last line, with no make error after it.
    local failing=$OUT/cli-failing.cu
    printf 'extern "C" int vector_add(const float *, const float *, float *, int, void *) { return 0; }\n' >"$failing"
    make --no-print-directory grade LAB=01 STAGE=work EMU=1 SUBMISSION="$failing" >"$OUT/cli-make-fail.log" 2>&1
    local code=$?
    if [ "$code" = 0 ] && tail -n 1 "$OUT/cli-make-fail.log" | grep -q '^time:' &&
        grep -q '^verdict: FAIL' "$OUT/cli-make-fail.log" && ! grep -q 'make: \*\*\*' "$OUT/cli-make-fail.log"; then
        pass cli/make_grade_ends_with_the_verdict
    else
        fail cli/make_grade_ends_with_the_verdict "exit $code: $(tail -n 2 "$OUT/cli-make-fail.log" | tr '\n' ' ')"
    fi
    # Work's time limit counts from its first call: the runner's setup
    # before it (a context, the submission's loading, here a static
    # constructor that spins for a second or two) is no call's time, but
    # a setup that never ends still stops, after 10 s.
    local slow_setup=$OUT/cli-slow-setup.cu stuck_setup=$OUT/cli-stuck-setup.cu
    { cat labs/01-vector-add/solution/vector_add.cu
      printf 'static struct slow_setup {\n    slow_setup() { for (volatile unsigned long i = 0; i < %s; i = i + 1) {} }\n} slow_setup_now;\n' 1500000000ul
    } >"$slow_setup"
    sed 's/i < 1500000000ul/i != 0 || 1/' "$slow_setup" >"$stuck_setup"
    cli_case setup_time_is_not_a_calls_time 0 "^work  PASS" -- \
        grade_emulated --lab 01 --stage work --submission "$slow_setup" --time-limits 1,1
    cli_case a_stuck_setup_still_stops 1 "the runner stopped before call 1 (timed out after 1[0-9] s)" -- \
        grade_emulated --lab 01 --stage work --submission "$stuck_setup" --time-limits 1,1
    # --no-smallest: the failing call as it was, said in the header and the
    # JSON, where the same grading without it shows a smaller case.
    grade_emulated --lab 01 --stage work --submission "$failing" --no-smallest \
        --results "$OUT/cli-no-smallest.json" >"$OUT/cli-no-smallest.log" 2>&1
    grade_emulated --lab 01 --stage work --submission "$failing" \
        >"$OUT/cli-smallest.log" 2>&1
    if grep -q '^smallest failing case not searched (--no-smallest)' "$OUT/cli-no-smallest.log" &&
        grep -q '"smallest_searched": false' "$OUT/cli-no-smallest.json" &&
        ! grep -q 'found by halving' "$OUT/cli-no-smallest.log" &&
        grep -q 'found by halving the sizes: .* at n=1 ' "$OUT/cli-smallest.log"; then
        pass cli/no_smallest_shows_the_failing_call_as_it_was
    else
        fail cli/no_smallest_shows_the_failing_call_as_it_was "$(grep -iE 'smallest|^work' "$OUT/cli-no-smallest.log" "$OUT/cli-smallest.log" | tr '\n' ' ')"
    fi
    cli_case wrapper_keeps_exit_code 2 "STAGE must be" -- ./grade LAB=01 STAGE=quick
    cli_case emu_forced_stage_right 0 "right PASS .*\[emulated on the CPU\]" -- \
        ./grade LAB=01 SUBMISSION=labs/01-vector-add/solution/vector_add.cu STAGE=right EMU=1
    cli_case emu_ladder_needs_gpu 3 "a ladder is timed, so it needs a GPU" -- \
        ./grade LAB=01 LADDER=1 EMU=1
    cli_case fast_only_is_for_the_fast_stage 2 "--fast-only times a submission's fast stage" -- \
        "${GRADE[@]}" --lab 01 --fast-only --stage right
    cli_case emu_fast_only_needs_gpu 3 "work  skipped not run (--fast-only)" -- \
        ./grade LAB=01 SUBMISSION=labs/01-vector-add/solution/vector_add.cu FAST_ONLY=1 EMU=1
    # A reader that stops at the first line must not cost the results file.
    rm -f "$OUT/closed-stdout.json"
    cli_case results_kept_when_stdout_closes_early 0 '"name": "right", "status": "pass"' -- \
        bash -c 'grade_emulated --lab 01 --submission labs/01-vector-add/solution/vector_add.cu \
            --stage right --results "$0" | head -n 1 >/dev/null; cat "$0"' "$OUT/closed-stdout.json"
    if [ "$HAVE_GPU" = 0 ]; then
        cli_case emulates_without_gpu_then_exit_3 3 "fast  skipped: needs a GPU" -- \
            ./grade LAB=01 SUBMISSION=labs/01-vector-add/solution/vector_add.cu
        cli_case no_gpu_no_emulation_exit_3 3 "no usable GPU" -- \
            "${GRADE[@]}" --lab 01 --results "$OUT/cli-nogpu.json"
        if grep -q '"status": "skipped", "message": "skipped: needs a GPU"' "$OUT/cli-nogpu.json" 2>/dev/null; then
            pass cli/no_gpu_json_says_skipped
        else
            fail cli/no_gpu_json_says_skipped "stages not reported as skipped in $OUT/cli-nogpu.json"
        fi
    else
        skip cli/emulates_without_gpu_then_exit_3 "this machine has a GPU"
        skip cli/no_gpu_no_emulation_exit_3 "this machine has a GPU"
        skip cli/no_gpu_json_says_skipped "this machine has a GPU"
    fi
    fast_only_tests
    build_cache_tests
}

# The build cache (grader/build_cache.h): a file built before, unchanged,
# with nothing it read changed, reuses its runner; any change builds afresh.
# Emulated, in a cache of the test's own; each grading's JSON says whether
# its build was reused.
build_cache_tests() {
    local dir=$OUT/cache-test cache=$OUT/cache-test/cache got= want
    rm -rf "$dir" && mkdir -p "$dir/elsewhere" "$dir/common" && echo 0 >"$dir/count"
    cp labs/01-vector-add/solution/vector_add.cu "$dir/vector_add.cu"
    cp labs/01-vector-add/solution/vector_add.cu "$dir/elsewhere/vector_add.cu"
    cp -R common/. "$dir/common"
    # cached FILE [ARGS]: grade work (the Nth grading, counted in a file:
    # each runs in a subshell), then print "reused|built" and the stage's status.
    cached() {
        local file=$1 json n
        shift
        n=$(($(cat "$dir/count") + 1)) && echo "$n" >"$dir/count"
        json=$dir/grading-$n.json
        grade_emulated --lab 01 --stage work --submission "$file" --build-cache "$cache" \
            --results "$json" "$@" >"${json%.json}.log" 2>&1
        if grep -q '"build_reused": true' "$json"; then printf 'reused'; else printf 'built'; fi
        grep -o '"name": "work", "status": "[a-z]*"' "$json" | sed 's/.*: "/ /; s/"$//'
    }
    got+="$(cached "$dir/vector_add.cu"),"                          # the first build
    got+="$(cached "$dir/vector_add.cu"),"                          # the same file again
    got+="$(cached "$dir/elsewhere/vector_add.cu"),"                # the same bytes at another path
    echo '// one more line' >>"$dir/vector_add.cu"
    got+="$(cached "$dir/vector_add.cu"),"                          # a changed byte
    got+="$(cached "$dir/vector_add.cu" --include "$dir/common"),"   # other headers (a copy)
    touch -d '+1 hour' "$dir/common/cuda_check.h"
    got+="$(cached "$dir/vector_add.cu" --include "$dir/common"),"   # a header it reads changed
    got+="$(cached "$dir/vector_add.cu" --build-limits 60,4096,64,1024)," # other build limits
    got+="$(cached "$dir/vector_add.cu")"                           # as the fourth: kept
    want="built pass,reused pass,built pass,built pass,built pass,built pass,built pass,reused pass"
    if [ "$got" = "$want" ] && grep -q '^time: .*build [0-9.]* s (reused: built the same way before)' "$dir/grading-2.log"; then
        pass cli/build_cache_reuses_only_an_identical_build
    else
        fail cli/build_cache_reuses_only_an_identical_build "got '$got', wanted '$want' (logs in $dir)"
    fi
    # A rejected file is never kept: each grading finds the rule broken again.
    printf '#include "/etc/hostname"\n' >"$dir/rejected.cu"
    got="$(cached "$dir/rejected.cu"),$(cached "$dir/rejected.cu")"
    if [ "$got" = "built error,built error" ] && grep -q 'rejected before running' "$dir/grading-$(cat "$dir/count").log" &&
        [ "$(find "$cache" -mindepth 1 -maxdepth 1 | wc -l)" = 5 ]; then
        pass cli/build_cache_keeps_no_rejected_file
    else
        fail cli/build_cache_keeps_no_rejected_file "got '$got' and $(find "$cache" -mindepth 1 -maxdepth 1 | wc -l) entries (5 wanted: the touched header replaced its entry): $(grep '^work' "$dir/grading-$(cat "$dir/count").log")"
    fi
}

# grade --fast-only on a GPU: the fast stage alone, said in the report and
# the JSON, and as strict as ever about speed.
fast_only_tests() {
    if [ "$HAVE_GPU" = 0 ]; then
        skip cli/fast_only_times_alone "needs a GPU ($GPU_REASON)"
        skip cli/fast_only_json_says_so "needs a GPU ($GPU_REASON)"
        skip cli/fast_only_fails_a_slow_file "needs a GPU ($GPU_REASON)"
        return
    fi
    rm -f "$OUT/cli-fast-only.json"
    cli_case fast_only_times_alone 0 "verdict: fast PASS (work and right not run" -- \
        ./grade LAB=01 SUBMISSION=labs/01-vector-add/solution/vector_add.cu FAST_ONLY=1 \
        RESULTS="$PWD/$OUT/cli-fast-only.json" NO_LAST=1
    if grep -q '"fast_only": true' "$OUT/cli-fast-only.json" 2>/dev/null &&
        grep -q '"name": "work", "status": "skipped"' "$OUT/cli-fast-only.json" &&
        grep -q '"name": "fast", "status": "pass"' "$OUT/cli-fast-only.json"; then
        pass cli/fast_only_json_says_so
    else
        fail cli/fast_only_json_says_so "$OUT/cli-fast-only.json lacks fast_only, a skipped work or a passed fast"
    fi
    cli_case fast_only_fails_a_slow_file 1 "fast  FAIL" -- \
        ./grade LAB=01 SUBMISSION=labs/01-vector-add/tests/wrong/small_blocks__fast.cu FAST_ONLY=1 NO_LAST=1
}

# The CLI cases that load every CPU or keep the GPU busy on purpose: before
# the other GPU parts, never beside their gradings (whose timings they would
# disturb).
cli_stress_tests() {
    fast_under_cpu_load
    race_caught_on_a_shared_gpu
}

# A class graded in parallel keeps every CPU busy, and a thread of the
# runner may then wait a scheduler tick or more for its turn
# (grader/runner/call.cu). The straggle rule must not take that wait for
# work left on another stream: labs 05 and 06 (calls of 0.2 and 1.3 ms,
# each timed beside a naive baseline of a hundred ms or more) failed it one
# run in two on an H100 until the straggle clock started after the
# default-stream hold returned. And the hold must outlast that wait: a
# memset on the default stream must still come after the call's kernel
# (lab 05's blocking_memset_races_kernel passed work beside sixteen
# compilers while the hold counted the wall clock); three runs, each must
# fail.
fast_under_cpu_load() {
    local lab busy=() i
    local race=labs/05-dot-product/tests/wrong/blocking_memset_races_kernel__work.cu
    if [ "$HAVE_GPU" = 0 ]; then
        for lab in 05 06; do skip "cli/fast_passes_on_a_busy_cpu_$lab" "needs a GPU ($GPU_REASON)"; done
        for i in 1 2 3; do skip "cli/default_stream_race_caught_on_a_busy_cpu_$i" "needs a GPU ($GPU_REASON)"; done
        return
    fi
    for i in $(seq $((2 * $(nproc)))); do
        (while :; do :; done) &
        busy+=($!)
    done
    # The five gradings side by side (they take turns on the GPU as a
    # class batch's do), which only adds to the load they must stand.
    local gradings=()
    for lab in 05 06; do
        cli_case "fast_passes_on_a_busy_cpu_$lab" 0 "^fast  PASS" -- \
            ./grade LAB=$lab STAGE=fast SUBMISSION="$(ls -d labs/$lab-*)/solution/$(student_file_of $lab)" &
        gradings+=($!)
    done
    for i in 1 2 3; do
        cli_case "default_stream_race_caught_on_a_busy_cpu_$i" 1 "^work  FAIL" -- \
            ./grade LAB=05 STAGE=work SUBMISSION="$race" &
        gradings+=($!)
    done
    wait "${gradings[@]}"
    kill "${busy[@]}" 2>/dev/null
    wait "${busy[@]}" 2>/dev/null
}

# Gradings side by side share the GPU in time slices: a runner's wait for
# the call's own stream then spins for milliseconds while other processes'
# kernels run. The default-stream hold must not give up for that, only for
# graded code that waits inside the call (lab 06's memset_on_default_stream
# passed work in the e2e part on an H100 while the hold counted the
# runner's own wait, and failed in 22 gradings alone); three runs of each
# lab's race, each must fail, while four processes keep the GPU busy.
race_caught_on_a_shared_gpu() {
    local busy=() i lab race
    if [ "$HAVE_GPU" = 0 ]; then
        for i in 1 2 3; do
            for lab in 05 06; do skip "cli/default_stream_race_caught_on_a_shared_gpu_${lab}_$i" "needs a GPU ($GPU_REASON)"; done
        done
        return
    fi
    if ! "$NVCC" -arch=sm_"$SM" -o "$OUT/gpu_busy" tests/gpu_busy.cu >"$OUT/gpu_busy.log" 2>&1; then
        fail cli/default_stream_race_caught_on_a_shared_gpu "tests/gpu_busy.cu does not build: $(tail -n 2 "$OUT/gpu_busy.log" | tr '\n' ' ')"
        return
    fi
    for i in 1 2 3 4; do
        "$OUT/gpu_busy" 120 >/dev/null 2>&1 &
        busy+=($!)
    done
    # The six gradings side by side, sharing the GPU with each other too.
    local gradings=()
    for i in 1 2 3; do
        for race in labs/05-dot-product/tests/wrong/blocking_memset_races_kernel__work.cu \
            labs/06-histogram-rdf/tests/wrong/memset_on_default_stream__work.cu; do
            lab=$(basename "$(dirname "$(dirname "$(dirname "$race")")")")
            cli_case "default_stream_race_caught_on_a_shared_gpu_${lab%%-*}_$i" 1 "^work  FAIL" -- \
                ./grade LAB="${lab%%-*}" STAGE=work SUBMISSION="$race" &
            gradings+=($!)
        done
    done
    wait "${gradings[@]}"
    kill "${busy[@]}" 2>/dev/null
    wait "${busy[@]}" 2>/dev/null
}

# ------------------------------------------- end to end: the case list
# One line per submission to grade: NAME LAB FILE EXPECTED STAGE, where
# EXPECTED is the statuses of work, right and fast on a GPU when graded up
# to STAGE. A wrong submission labs/LAB/tests/wrong/NAME__STAGE.cu must pass
# every stage before STAGE and fail STAGE; a correct one labs/LAB/tests/
# correct/NAME__STAGE.cu must pass every stage up to STAGE.
expected_failure() {
    case $1 in
    work) echo "fail skipped skipped" ;;
    right) echo "pass fail skipped" ;;
    fast) echo "pass pass fail" ;;
    esac
}
expected_pass() {
    case $1 in
    work) echo "pass skipped skipped" ;;
    right) echo "pass pass skipped" ;;
    fast) echo "pass pass pass" ;;
    esac
}

# TEST_LABS="02 03" limits the end-to-end cases and the compiled files to
# those labs.
selected() {
    [ -z "${TEST_LABS:-}" ] && return 0
    local l
    for l in $TEST_LABS; do
        case $1 in "$l"*) return 0 ;; esac
    done
    return 1
}

# TEST_CASES="regex" limits the end-to-end cases to names that match it.
list_cases() {
    all_cases | { if [ -n "${TEST_CASES:-}" ]; then grep -E "^[^ ]*($TEST_CASES)" || true; else cat; fi; }
}

all_cases() {
    local dir lab student f base stage
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        selected "$lab" || continue
        student=$(student_file_of "$lab")
        echo "$lab/solution $lab labs/$lab/solution/$student pass_pass_pass fast"
        echo "$lab/skeleton $lab labs/$lab/$student fail_skipped_skipped fast"
        for f in labs/"$lab"/tests/wrong/*.cu; do
            [ -e "$f" ] || continue
            base=$(basename "$f" .cu)
            stage=${base##*__}
            echo "$lab/wrong/$base $lab $(fixture_graded "$f" "$FIXTURES") $(expected_failure "$stage" | tr ' ' _) fast"
        done
        for f in labs/"$lab"/tests/correct/*.cu; do
            [ -e "$f" ] || continue
            base=$(basename "$f" .cu)
            stage=${base##*__}
            echo "$lab/correct/$base $lab $(fixture_graded "$f" "$FIXTURES") $(expected_pass "$stage" | tr ' ' _) $stage"
        done
    done
}

# The statuses of the three stages in a result file, e.g. "pass fail
# skipped" (error counts as fail: both reject the submission).
stages_of() {
    grep -o '"name": "[a-z]*", "status": "[a-z]*"' "$1" 2>/dev/null | sed 's/.*"status": "//; s/"//' |
        sed 's/error/fail/' | tr '\n' ' ' | sed 's/ $//'
}
export -f stages_of

# A file whose answers are right only for the public seed says so on a line
# "INSTRUCTOR-SEED: <text>"; it is graded with that hidden seed, as an
# instructor would, and must then fail. Prints the seed text, or nothing.
instructor_seed_of() {
    grep -m 1 -o 'INSTRUCTOR-SEED: [A-Za-z0-9_-]*' "$1" | cut -d' ' -f2
}
# A file that hangs on purpose says on a line "TIME-LIMITS: WORK,RIGHT"
# with which limits the tests grade it (grade --time-limits), so that its
# hang costs seconds, not the lab's minute.
time_limits_of() {
    local limits
    limits=$(grep -m 1 -o 'TIME-LIMITS: [0-9.]*,[0-9.]*' "$1" | cut -d' ' -f2)
    [ -z "$limits" ] || echo "--time-limits $limits"
}
export -f instructor_seed_of time_limits_of

# A file that must be caught by one check in particular says so on a line
# "REPORT-SAYS: <text>", which its report must contain.
report_says() {
    grep -m 1 -o 'REPORT-SAYS: .*' "$1" | cut -d' ' -f2- | sed 's| *\*/ *$||'
}
# said LOG TEXT: the report holds TEXT (nothing asked: yes).
said() { [ -z "$2" ] || grep -qF -- "$2" "$1"; }
# hints_said LOG: what the report said instead: its summaries and hints,
# on one line, for a failure that must name the check that caught it.
hints_said() {
    echo "it says: $(grep -E '^(work|right|fast) |^ *hint: ' "$1" | sed 's/^ *//' | tr '\n' ' ')"
}
export -f report_says said hints_said

# ------------------------------------------------------ end to end, on a GPU
# The smallest-case search (grader/stages.c) is information: it never
# changes a verdict, the emu part checks what it finds for every wrong
# file, and on a GPU it was over a third of the checks' time. So the GPU
# grades with --no-smallest, except the files marked on a line
# "SMALLEST-ON-GPU: <what it shows>" (a crash that ends the run, a case
# that fails only after the calls before it, two sizes halved...), whose
# search is checked here as the emu part checks it.
smallest_option() {
    grep -q 'SMALLEST-ON-GPU: ' "$1" || echo --no-smallest
}
export -f smallest_option

# One case on the GPU; prints its PASS/FAIL line.
e2e_one() {
    local name=$1 lab=$2 file=$3 want=$4 stage=$5
    want=${want//_/ }
    local json=$OUT/e2e-${name//\//_}.json no_smallest
    no_smallest=$(smallest_option "$file")
    # shellcheck disable=SC2046,SC2086 # the options and their values, or nothing
    CUDALAB_INSTRUCTOR_SEED=$(instructor_seed_of "$file") \
        grade --lab "$lab" --submission "$file" --stage "$stage" --results "$json" \
        $(time_limits_of "$file") $no_smallest >"${json%.json}.log" 2>&1
    local got says
    got=$(stages_of "$json")
    says=$(report_says "$file")
    if [ "$got" = "$want" ] && said "${json%.json}.log" "$says"; then
        echo "PASS e2e/$name"
    elif [ "$got" = "$want" ]; then
        echo "FAIL e2e/$name: the report does not say '$says'${no_smallest:+ (graded with --no-smallest: if the smallest failing case says it, mark the file SMALLEST-ON-GPU)}; $(hints_said "${json%.json}.log")"
    else
        echo "FAIL e2e/$name: stages '$got', expected '$want'${says:+ and '$says'}: $(grep -E '^(work|right|fast) ' "${json%.json}.log" | tr '\n' ' ')"
    fi
    [ -z "$no_smallest" ] && smallest_one e2e-smallest "$name" "$file" "$json"
    return 0
}
export -f e2e_one

# One lab's ladder on the GPU: every rung right, and the top rung faster
# than the first. Sampled with --quick: the test proves the rungs, make
# ladder measures the figures.
ladder_one() {
    local l=$1 top
    if grade --lab "$l" --ladder --quick --results "$OUT/ladder-$l.json" >"$OUT/ladder-$l.log" 2>&1 &&
        grep -q '"right": true' "$OUT/ladder-$l.json" && ! grep -q '"right": false' "$OUT/ladder-$l.json"; then
        top=$(grep -o '"total_speedup": [0-9.e+-]*' "$OUT/ladder-$l.json" | tail -n 1 | awk '{print $2}')
        if awk -v t="$top" 'BEGIN { exit !(t > 1) }'; then
            echo "PASS e2e/$l/ladder"
        else
            echo "FAIL e2e/$l/ladder: the top rung is not faster than the first (total ${top:-unknown}x)"
        fi
    else
        echo "FAIL e2e/$l/ladder: $(grep -E 'NO:|stopped' "$OUT/ladder-$l.log" | head -n 3 | tr '\n' ' ')"
    fi
}
export -f ladder_one

# One line of the GPU's work list: "GPU ladder LAB" or "GPU case...", where
# GPU is the CUDA_VISIBLE_DEVICES for it ("-": leave it as it is).
e2e_job() {
    local gpu=$1
    shift
    [ "$gpu" = - ] || export CUDA_VISIBLE_DEVICES=$gpu
    if [ "$1" = ladder ]; then ladder_one "$2"; else e2e_one "$@"; fi
}
export -f e2e_job

# Every case and every ladder side by side (E2E_JOBS at once): the
# grader takes turns on the GPU by itself (grader/gpu_lock.h), checks
# sharing it and each timing alone, so the timings stay fair while the
# builds and checks of the others go on. Lines come in the order the cases
# end.
e2e_tests() {
    local ladders=() dir l
    for dir in labs/[0-9][0-9]-*/; do
        l=$(basename "$dir")
        selected "$l" || continue
        [ -e "labs/$l/solution/ladder.cu" ] || continue
        [ -z "${TEST_CASES:-}" ] || echo "$l/ladder" | grep -qE "$TEST_CASES" || continue
        ladders+=("$l")
    done
    if [ "$HAVE_GPU" = 0 ]; then
        list_cases | while read -r name _; do skip "e2e/$name" "needs a GPU ($GPU_REASON)"; done
        for l in "${ladders[@]}"; do skip "e2e/$l/ladder" "needs a GPU ($GPU_REASON)"; done
        return
    fi
    # Several GPUs (those in CUDA_VISIBLE_DEVICES, else all nvidia-smi
    # lists, or E2E_GPUS="0 1"): the cases are dealt out among them, each
    # GPU with its own lock.
    local gpus=${E2E_GPUS:-$(echo "${CUDA_VISIBLE_DEVICES:-}" | tr ',' ' ')}
    [ -n "$gpus" ] || gpus=$(nvidia-smi -L 2>/dev/null | awk '/^GPU /{ printf "%d ", n++ }')
    [ "$(echo $gpus | wc -w)" -gt 1 ] || gpus=-
    local jobs=${E2E_JOBS:-$(($(nproc) / 2 > 2 ? $(nproc) / 2 : 2))}
    # A case stops at the stage its verdict is decided in. Those that stop
    # at work or right go first: they only check, side by side. A timing
    # (the fast stage, a ladder) has the GPU alone, and every check running
    # when it asks must end first while none starts (grader/gpu_lock.h), so
    # the timings come last, the ladders spread among them.
    list_cases | awk -v ladders="${ladders[*]}" -v gpus="$gpus" '
        { if ($4 == "fail_skipped_skipped") $5 = "work"; else if ($4 ~ /_skipped$/ && $5 == "fast") $5 = "right"
          if ($5 == "fast") timed[++t] = $0; else checked[++c] = $0 }
        END { n = split(ladders, l, " "); g = split(gpus, gpu, " "); every = n ? int(t / n) + 1 : t + 1
              k = 0; j = 0
              for (i = 1; i <= c; i++) print gpu[j++ % g + 1], checked[i]
              for (i = 1; i <= t; i++) {
                  if ((i - 1) % every == 0 && k < n) print gpu[j++ % g + 1], "ladder", l[++k]
                  print gpu[j++ % g + 1], timed[i] }
              while (k < n) print gpu[j++ % g + 1], "ladder", l[++k] }' |
        OUT=$OUT xargs -r -P "$jobs" -L 1 bash -c 'e2e_job "$@"' _ | tee -a "$RESULTS"
}

# ---------------------------------------- end to end, emulated on the CPU
# emu_grade JSON LAB FILE STAGE: grade in the CPU emulation, the report
# beside JSON (.log), with the file's TIME-LIMITS. The caller sets
# CUDALAB_INSTRUCTOR_SEED.
emu_grade() {
    # shellcheck disable=SC2046 # the option and its value, or nothing
    grade_emulated --lab "$2" --submission "$3" --stage "$4" --results "$1" \
        $(time_limits_of "$3") >"${1%.json}.log" 2>&1
}
export -f emu_grade

# Every case runs through work and right in the CPU emulation, on any
# machine. What a GPU would reject only at fast must pass work and right
# here. A file whose verdict in emulation differs from the GPU's says so on
# a line "EMULATION: <work> <right>: why" (e.g. the CPU does not contract
# a*b+c into an FMA); the agreement check then accepts that difference.
emu_one() {
    local name=$1 lab=$2 file=$3 want=$4 stage=$5
    want=${want//_/ }
    local emu_stage=right
    [ "$stage" = work ] && emu_stage=work
    local expect
    expect=$(echo "$want" | awk -v s="$emu_stage" '{ print $1, (s == "work" ? "skipped" : $2), "skipped" }')
    local marker
    marker=$(grep -m 1 -o 'EMULATION: [a-z]* [a-z]*' "$file" | cut -d' ' -f2-)
    [ -n "$marker" ] && expect="$marker skipped"
    local json=$OUT/emu-${name//\//_}.json
    CUDALAB_INSTRUCTOR_SEED=$(instructor_seed_of "$file") emu_grade "$json" "$lab" "$file" "$emu_stage"
    local got says=
    got=$(stages_of "$json")
    # What the report must say is checked here too wherever the emulation
    # fails the file at the same stage as the GPU (a hint, say).
    [ -z "$marker" ] && [[ "$expect" == *fail* ]] && says=$(report_says "$file")
    if [ "$got" = "$expect" ] && said "${json%.json}.log" "$says"; then
        echo "PASS emu/$name${marker:+ (as marked: $marker)}"
    elif [ "$got" = "$expect" ]; then
        echo "FAIL emu/$name: the report does not say '$says'; $(hints_said "${json%.json}.log")"
    else
        echo "FAIL emu/$name: stages '$got', expected '$expect': $(grep -E '^(work|right) ' "${json%.json}.log" | tr '\n' ' ')"
    fi
    [[ $name == */wrong/* && $got == *fail* ]] && smallest_one smallest "$name" "$file" "$json"
    return 0
}
export -f emu_one

# A wrong file that fails work or right in emulation must be shown failing
# on a case of at most SMALLEST_MOST elements (its largest input or
# output: the grader halves the sizes of a failing call until a case is
# that small, grader/stages.c's SMALL_CASE),
# unless none exists: then the file says why on a line "SMALLEST: <why>"
# (a bug that needs two tiles, answers stored for one size, a hang), and
# the grader must indeed show none that small. A rejection before running
# (no case at all) is neither.
SMALLEST_MOST=$(grep -o 'SMALL_CASE = [0-9]*' grader/stages.c | awk '{ print $3 }')
# smallest_one KIND NAME FILE JSON prints KIND/NAME's PASS/FAIL line.
smallest_one() {
    local kind=$1 name=$2 file=$3 json=$4 elements why
    grep -q '"name": "work", "status": "error"' "$json" && return
    elements=$(grep -m 1 -o '"failing_case_elements": [0-9]*' "$json" | awk '{ print $2 }')
    why=$(grep -m 1 -o 'SMALLEST: .*' "$file" | cut -c11-)
    if [ -z "$why" ] && [ -n "$elements" ] && [ "$elements" -le $SMALLEST_MOST ]; then
        echo "PASS $kind/$name ($elements elements)"
    elif [ -z "$why" ]; then
        echo "FAIL $kind/$name: the report shows no failing case of at most $SMALLEST_MOST elements (${elements:-none}); make the grader find one, or say why none exists on a line 'SMALLEST: <why>'"
    elif [ -n "$elements" ] && [ "$elements" -le $SMALLEST_MOST ]; then
        echo "FAIL $kind/$name: the file says no small case fails ($why), but the report shows one of $elements elements: drop its SMALLEST line"
    else
        echo "PASS $kind/$name (none at most $SMALLEST_MOST: $why)"
    fi
}
export -f smallest_one
export SMALLEST_MOST

# A file marked INSTRUCTOR-SEED must fail with the hidden seed (above) but
# pass its stage with the public seed alone: then it is the seed, and only
# the seed, that catches its stored answers.
hidden_seed_one() {
    local name=$1 lab=$2 file=$3 stage
    [ -n "$(instructor_seed_of "$file")" ] || return 0
    stage=$(basename "$file" .cu)
    stage=${stage##*__}
    local json=$OUT/public-${name//\//_}.json
    CUDALAB_INSTRUCTOR_SEED= emu_grade "$json" "$lab" "$file" "$stage"
    if [ "$(stages_of "$json" | cut -d' ' -f1)" = pass ]; then
        echo "PASS public-seed/$name"
    else
        echo "FAIL public-seed/$name: stored answers for the public seed should pass $stage without the hidden seed: $(grep -E '^work ' "${json%.json}.log")"
    fi
}
export -f hidden_seed_one

# ------------------------------------------------- the attack corpus
# tests/attacks/LAB/NAME__OUTCOME.cu, each written against the grader as a
# student who has read it would (grader/SECURITY.md). OUTCOME is
#   rejected  the build refuses it (exit 2) with the sentence on its line
#             "EXPECT: ..."; tried with the GPU toolchain (--build-only, no
#             GPU needed) and in the CPU emulation;
#   work      it fails work with the EXPECT sentence (the sandbox stops it);
#   passes    the attack gains nothing: the file passes work and right (it is
#             written to fail if the attack had worked).
# Small build limits keep the resource attacks fast.
ATTACK_LIMITS=30,1024,16,1024
attack_one() {
    local file=$1 lab name outcome expect seed log code got
    lab=$(basename "$(dirname "$file")")
    name=$(basename "$file" .cu)
    outcome=${name##*__}
    expect=$(grep -m 1 -o 'EXPECT: .*' "$file" | cut -c9-)
    seed=$(instructor_seed_of "$file")
    log=$OUT/attack-$lab-$name
    case $outcome in
    rejected)
        grade --lab "$lab" --submission "$file" --build-only --build-limits "$ATTACK_LIMITS" \
            >"$log-gpu.log" 2>&1
        code=$?
        if [ "$code" = 1 ] && grep -qF -- "$expect" "$log-gpu.log"; then
            echo "PASS attack/$lab/$name/gpu-build"
        else
            echo "FAIL attack/$lab/$name/gpu-build: exit $code, wanted 1 and '$expect': $(grep -E '^(work|build) ' "$log-gpu.log" | head -c 300)"
        fi
        grade_emulated --lab "$lab" \
            --submission "$file" --stage work --build-limits "$ATTACK_LIMITS" >"$log-emu.log" 2>&1
        code=$?
        if [ "$code" = 1 ] && grep -qE '^work  ERROR' "$log-emu.log"; then
            echo "PASS attack/$lab/$name/emulation"
        else
            echo "FAIL attack/$lab/$name/emulation: exit $code, wanted a rejection: $(grep -E '^work ' "$log-emu.log" | head -c 300)"
        fi
        ;;
    work | passes)
        local want="fail skipped skipped" stage=work
        [ "$outcome" = passes ] && want="pass pass skipped" && stage=right
        CUDALAB_INSTRUCTOR_SEED=$seed emu_grade "$log.json" "$lab" "$file" "$stage"
        got=$(stages_of "$log.json")
        if [ "$got" = "$want" ] && { [ -z "$expect" ] || grep -qF -- "$expect" "$log.log"; }; then
            echo "PASS attack/$lab/$name/emulation"
        else
            echo "FAIL attack/$lab/$name/emulation: stages '$got', wanted '$want' and '$expect': $(grep -E '^(work|right) ' "$log.log" | head -c 300)"
        fi
        if [ "$HAVE_GPU" = 0 ]; then
            echo "SKIP attack/$lab/$name/gpu: needs a GPU ($GPU_REASON)"
            return
        fi
        CUDALAB_INSTRUCTOR_SEED=$seed grade --lab "$lab" --submission "$file" --stage "$stage" \
            --results "$log-gpu.json" >"$log-gpu.log" 2>&1
        got=$(stages_of "$log-gpu.json")
        if [ "$got" = "$want" ] && { [ -z "$expect" ] || grep -qF -- "$expect" "$log-gpu.log"; }; then
            echo "PASS attack/$lab/$name/gpu"
        else
            echo "FAIL attack/$lab/$name/gpu: stages '$got', wanted '$want' and '$expect': $(grep -E '^(work|right) ' "$log-gpu.log" | head -c 300)"
        fi
        ;;
    *) echo "FAIL attack/$lab/$name: the name must end in __rejected, __work or __passes" ;;
    esac
}
export -f attack_one
export ATTACK_LIMITS HAVE_GPU GPU_REASON

attack_tests() {
    ls tests/attacks/*/*.cu | OUT=$OUT xargs -r -P "$(nproc)" -I{} bash -c 'attack_one "$@"' _ {} |
        sort | tee -a "$RESULTS"
}

emu_tests() {
    # One grading more than there are cores: each waits between its steps
    # (a compiler's start, the runner's replies), and the one more keeps
    # every core busy (labs 02 and 08 alone: 24 s, from 27-31 s).
    local jobs=$(($(nproc) + 1))
    list_cases | OUT=$OUT xargs -r -P "$jobs" -L 1 bash -c 'hidden_seed_one "$@"' _ | sort | tee -a "$RESULTS"
    list_cases | OUT=$OUT xargs -r -P "$jobs" -L 1 bash -c 'emu_one "$@"' _ | sort | tee -a "$RESULTS"
    emulated_faults_hint
}

# A kernel that faults in the emulation gets the lab's hint for a fault,
# as a GPU's report gives it: every emulated report of a fault says it.
emulated_faults_hint() {
    local log lab hint faults=0 bare=""
    for log in "$OUT"/emu-*.log; do
        grep -qE '^(work|right) +FAIL +the kernel faulted at' "$log" 2>/dev/null || continue
        lab=$(basename "$log" .log | sed 's/^emu-//' | cut -d_ -f1)
        hint=$("$BUILD/grade" --lab "$lab" --lab-info | sed -n 's/^hint_crash=//p')
        faults=$((faults + 1))
        grep -qF -- "hint: ${hint:-a fault inside a kernel}" "$log" || bare="$bare $(basename "$log")"
    done
    if [ "$faults" = 0 ]; then
        skip emu/kernel_faults_give_the_labs_hint "no emulated report of a kernel fault in this run"
    elif [ -z "$bare" ]; then
        pass "emu/kernel_faults_give_the_labs_hint ($faults reports)"
    else
        fail emu/kernel_faults_give_the_labs_hint "reports of a fault without the lab's hint:$bare"
    fi
}

# With a GPU: every case must get the same work and right verdicts in
# emulation as on the GPU, unless its file explains the difference.
agreement_tests() {
    local name lab file want stage gpu emu marker gpu_json emu_json
    while read -r name lab file want stage; do
        if [ "$HAVE_GPU" = 0 ]; then
            skip "agree/$name" "needs a GPU to compare with"
            continue
        fi
        # A part left out by TEST_PARTS leaves nothing to compare (a case
        # whose grading died is failed by its own part).
        gpu_json=$OUT/e2e-${name//\//_}.json
        emu_json=$OUT/emu-${name//\//_}.json
        if [ ! -e "$gpu_json" ] || [ ! -e "$emu_json" ]; then
            skip "agree/$name" "the e2e or the emu part did not run"
            continue
        fi
        gpu=$(stages_of "$gpu_json" | cut -d' ' -f1-2)
        emu=$(stages_of "$emu_json" | cut -d' ' -f1-2)
        marker=$(grep -m 1 'EMULATION: ' "$file" | sed 's/.*EMULATION: //')
        [ "$stage" = work ] && gpu=$(echo "$gpu" | cut -d' ' -f1) && emu=$(echo "$emu" | cut -d' ' -f1)
        if [ "$gpu" = "$emu" ]; then
            pass "agree/$name"
        elif [ -n "$marker" ]; then
            pass "agree/$name (differs, explained: $marker)"
        else
            fail "agree/$name" "GPU '$gpu' but emulation '$emu'"
        fi
    done < <(list_cases)
}

# ------------------------------------------------ slides and charts
# Every lab has a deck and measured ladder data that say where they were
# taken; the decks build and the charts draw when the optional tools are
# here, and are skipped (never passed) when they are not.
# Thresholds live in the specs only: every README and slide deck that
# states one must state the spec's (tests/facts/check_facts.c).
facts_tests() {
    local bin=$OUT/check_facts
    if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -Wno-format-truncation -Igrader -Icommon \
        tests/facts/check_facts.c grader/labs.c grader/lab_spec.c "$REGISTRY" labs/*/trusted/spec.c \
        -lm -o "$bin" 2>"$OUT/facts-build.log"; then
        fail facts/build "$(head -n 5 "$OUT/facts-build.log")"
        return
    fi
    "$bin" labs/[0-9][0-9]-*/README.md labs/[0-9][0-9]-*/INSTRUCTOR.md labs/[0-9][0-9]-*/slides/deck.md |
        tee -a "$RESULTS"
    # Every lab README opens with its slides and the next lab, and the links
    # lead to files that exist.
    local dir lab link missing
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        missing=""
        grep -q "\*\*You will learn\*\*" "$dir/README.md" || missing="$missing the 'You will learn' line"
        grep -q "(slides/deck.md)" "$dir/README.md" || missing="$missing a link to its deck, slides/deck.md"
        for link in $(grep -m1 '\*\*You will learn\*\*' "$dir/README.md" | grep -o '](\.\./[^)]*)' | sed 's/^](//; s/)$//'); do
            [ -e "$dir/$link" ] || missing="$missing a broken link $link"
        done
        if [ -z "$missing" ]; then pass "facts/$lab/opening"; else fail "facts/$lab/opening" "README lacks$missing"; fi
    done
    answers_tests
    predictions_tests
    hints_tests
    fast_says_tests
}

# What a file that must fail fast says its report contains can only be
# seen on a GPU; here it must at least be a sentence the grader or the
# lab can write: a part of the lab's text (hints, names) or of a message
# in the grader's source (string literals joined as the compiler joins
# them), so a reworded hint cannot leave the GPU part to find it.
fast_says_tests() {
    local sources dir lab info f says
    sources=$(cat grader/*.c grader/runner/*.cu | tr '\n' ' ' | sed 's/"[[:space:]]*"//g')
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        info=$("$BUILD/grade" --lab "$lab" --lab-info)
        for f in labs/"$lab"/tests/wrong/*__fast.cu; do
            [ -e "$f" ] || continue
            says=$(report_says "$f")
            [ -n "$says" ] || continue
            if [[ $info == *"$says"* || $sources == *"$says"* ]]; then
                pass "facts/$lab/says/$(basename "$f" .cu)"
            else
                fail "facts/$lab/says/$(basename "$f" .cu)" "its REPORT-SAYS text is in no hint of the lab nor any message of the grader: '$says'"
            fi
        done
    done
}

# A lab's hints are tested: for the seven every lab has (an output never
# written, a wrong value, a changed input, a refused launch, a write past
# the end of a buffer, a fault in a kernel, a kernel that never finishes),
# and for a write in front of one and NaN or Inf in the wrong place where
# the lab has those, some file of labs/LAB/tests/wrong says on a
# REPORT-SAYS line a part of that hint, which its report must then contain
# (the e2e part checks it, and the emu part where the emulation fails the
# file the same way: a write past the end of an exact allocation is a
# fault there). A fault must come for certain on a GPU: the files use a
# vector access through a pointer the right stage leaves only 4-byte
# aligned, which the hardware always refuses. So must a hang: a loop whose
# index never moves, for every thread or for a case the stage surely asks
# for, whose body stores, waits at a barrier or depends on the data (no
# spin the compiler may drop, no barrier in a branch, no wait on the order
# the blocks run in). A hang costs the stage's whole time limit, so each
# lab's hang file sets short limits with TIME-LIMITS (3 s for work's
# calls, 6 s for right's; 30 s for work's where it must pass work first).
hints_tests() {
    local dir lab info kind hint said_by f says
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        info=$("$BUILD/grade" --lab "$lab" --lab-info)
        for kind in never_written wrong_value input_changed launch_error write_before write_after \
            special_values crash timeout; do
            hint=$(sed -n "s/^hint_$kind=//p" <<<"$info")
            # NaN and Inf have their own hint only where the lab's values
            # make them a lesson (labs 01 and 06 use the engine's), and so
            # does a write in front of a buffer (labs 01, 02, 08 and 10,
            # whose outputs are written one per index from 0, use the
            # engine's "wrote in front of").
            case $kind in special_values | write_before) [ -z "$hint" ] && continue ;; esac
            said_by=""
            for f in labs/"$lab"/tests/wrong/*.cu; do
                says=$(report_says "$f")
                [ -n "$says" ] && [[ $hint == *"$says"* ]] && said_by=$f && break
            done
            if [ -z "$hint" ]; then
                fail "facts/$lab/hint_${kind}_tested" "the spec has no $kind hint: give one tied to the lesson"
            elif [ -n "$said_by" ]; then
                pass "facts/$lab/hint_${kind}_tested"
            else
                fail "facts/$lab/hint_${kind}_tested" "no file of labs/$lab/tests/wrong says 'REPORT-SAYS: <part of the hint>' for: ${hint:0:60}..."
            fi
        done
    done
}

# Every lab asks 3 to 5 questions to answer before coding (the README's
# "Predict, then measure"), and its solution folder, which students do not
# get, answers each of them (labs/NN-name/solution/predictions.md).
predictions_tests() {
    local dir lab asked answered
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        asked=$(awk '/^## /{ on = ($0 == "## Predict, then measure") } on && /^[0-9]+\. /' "$dir/README.md" | wc -l)
        answered=$(grep -c '^[0-9][0-9]*\. ' "$dir/solution/predictions.md" 2>/dev/null)
        if [ "$asked" -lt 3 ] || [ "$asked" -gt 5 ]; then
            fail "facts/$lab/predictions" "the README's 'Predict, then measure' asks $asked questions, not 3 to 5"
        elif [ "${answered:-0}" != "$asked" ]; then
            fail "facts/$lab/predictions" "labs/$lab/solution/predictions.md answers ${answered:-0} of the README's $asked questions"
        else
            pass "facts/$lab/predictions"
        fi
    done
}

# No student text hands out a stage's answer: the README and the student's
# deck (slides/version.awk) hold no code block with half of a kernel of the
# lab's solutions (tests/facts/check_answers.c). The instructor's deck of
# lab 03 keeps its tiled kernel, and the check finds it there.
answers_tests() {
    local bin=$OUT/check_answers dir lab decks=$OUT/student-decks
    if ! $CC -std=c11 -O1 -Wall -Wextra -Werror -Wno-format-truncation tests/facts/check_answers.c \
        -o "$bin" 2>"$OUT/answers-build.log"; then
        fail facts/answers/build "$(head -n 5 "$OUT/answers-build.log")"
        return
    fi
    mkdir -p "$decks"
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        [ -d "$dir/solution" ] || continue
        local texts=("${dir%/}/README.md")
        if [ -e "$dir/slides/deck.md" ]; then
            mkdir -p "$decks/labs/$lab/slides"
            awk -v deck=student -f slides/version.awk "$dir/slides/deck.md" >"$decks/labs/$lab/slides/deck.md"
            texts+=("$decks/labs/$lab/slides/deck.md")
        fi
        "$bin" "${dir%/}/solution" "${dir%/}:${dir%/}/trusted" "${texts[@]}" | sed "s|$decks/||" | tee -a "$RESULTS"
    done
    awk -v deck=instructor -f slides/version.awk labs/03-transpose/slides/deck.md >"$decks/03-instructor.md"
    if "$bin" labs/03-transpose/solution labs/03-transpose:labs/03-transpose/trusted "$decks/03-instructor.md" |
        grep -q "^FAIL .*lines of transpose_tiled (labs/03-transpose/solution/ladder.cu)"; then
        pass facts/answers/the_instructors_deck_keeps_the_answer
    else
        fail facts/answers/the_instructors_deck_keeps_the_answer "the check did not find lab 03's tiled kernel in $decks/03-instructor.md"
    fi
}

slides_tests() {
    local dir lab json key
    for dir in labs/[0-9][0-9]-*/; do
        lab=$(basename "$dir")
        if [ -e "$dir/slides/deck.md" ]; then pass "slides/$lab/deck"; else fail "slides/$lab/deck" "no labs/$lab/slides/deck.md"; fi
        json=$dir/slides/ladder.json
        local missing=""
        for key in device cuda_runtime date rungs; do
            grep -q "\"$key\": " "$json" 2>/dev/null || missing="$missing $key"
        done
        if [ -z "$missing" ] && grep -q "\"right\": true" "$json"; then
            pass "slides/$lab/data"
        else
            fail "slides/$lab/data" "$json lacks:${missing:- a right rung}"
        fi
        # A ladder timed on another GPU model, for placements there
        # (grader/placement.h): every rung right. (That it is named after
        # the device it records, the unit test of placement.c checks.)
        local model
        for model in "$dir"/slides/ladder-*.json; do
            [ -e "$model" ] || continue
            if grep -q '"right": true' "$model" && ! grep -q '"right": false' "$model"; then
                pass "slides/$lab/$(basename "$model" .json)"
            else
                fail "slides/$lab/$(basename "$model" .json)" "$model must hold every rung right"
            fi
        done
    done
    # Without the tools, both scripts say what to install and exit 2.
    local empty=$OUT/empty-path script
    mkdir -p "$empty"
    for script in build.sh:apt-get.install.pandoc charts.sh:apt-get.install.gnuplot; do
        PATH=$empty /bin/bash "slides/${script%%:*}" "$OUT/none" >"$OUT/no-tools.log" 2>&1
        local code=$?
        if [ "$code" = 2 ] && grep -q "${script#*:}" "$OUT/no-tools.log"; then
            pass "slides/${script%%:*}_without_tools_says_what_to_install"
        else
            fail "slides/${script%%:*}_without_tools_says_what_to_install" "exit $code: $(head -c 200 "$OUT/no-tools.log")"
        fi
    done
    if command -v gnuplot >/dev/null; then
        local tmp=$OUT/charts
        # On copies of the data, so the tree's charts stay as they are.
        rm -rf "$tmp" && mkdir -p "$tmp"
        for dir in labs/[0-9][0-9]-*/; do
            mkdir -p "$tmp/$dir/slides" && cp "$dir/slides/ladder.json" "$tmp/$dir/slides/"
        done
        if bash slides/charts.sh "$tmp"/labs/*/slides/ladder.json >"$OUT/charts.log" 2>&1 &&
            [ "$(ls "$tmp"/labs/*/slides/ladder.png 2>/dev/null | wc -l)" = "$(ls labs/*/slides/ladder.json | wc -l)" ]; then
            pass slides/charts_draw
        else
            fail slides/charts_draw "$(tail -n 3 "$OUT/charts.log" | tr '\n' ' ')"
        fi
        plot_tests
    else
        skip slides/charts_draw "gnuplot not found"
        skip slides/plot_places_your_kernel "gnuplot not found"
        skip slides/plot_places_your_kernel_under_the_roofline "gnuplot not found"
    fi
    if command -v pandoc >/dev/null && command -v pdflatex >/dev/null; then
        for dir in labs/[0-9][0-9]-*/; do
            lab=$(basename "$dir")
            [ -e "$dir/slides/deck.md" ] || continue
            if bash slides/build.sh "$OUT/slides" "$lab" >/dev/null 2>"$OUT/slides-$lab.err" &&
                [ -s "$OUT/slides/$lab.pdf" ] && [ -s "$OUT/slides/$lab-instructor.pdf" ]; then
                pass "slides/$lab/builds"
            else
                fail "slides/$lab/builds" "$(head -c 300 "$OUT/slides-$lab.err")"
            fi
        done
    else
        skip slides/decks_build "pandoc or pdflatex not found (see slides/README.md)"
    fi
}

# make plot: a graded kernel drawn beside the lab's ladder, as the same
# measure as the rungs: lab 10's % of copy from its report, lab 08's % of
# the instruction roof from its report, lab 09's speedup over the ladder's
# first rung (a report four times faster than that rung says 4x); a report
# without fast figures is refused in one line.
plot_tests() {
    local first ms got
    printf '{"stages": [{"name": "fast", "fast": {"submission_ms": 0.25, "roofline_fraction": 0.5}}]}\n' \
        >"$OUT/plot-10.json"
    printf '{"stages": [{"name": "fast", "fast": {"submission_ms": 0.25, "roofline_fraction": null, "issue_roof_ms": 0.1, "issue_fraction": 0.4}}]}\n' \
        >"$OUT/plot-08.json"
    first=$(grep -o '"ms": [0-9.e+-]*' labs/09-occupancy/slides/ladder.json | head -n 1 | sed 's/.*: //')
    ms=$(awk -v f="$first" 'BEGIN { printf "%.9g", f / 4 }')
    printf '{"stages": [{"name": "fast", "fast": {"submission_ms": %s, "roofline_fraction": null}}]}\n' \
        "$ms" >"$OUT/plot-09.json"
    printf '{"stages": [{"name": "fast", "status": "skipped"}]}\n' >"$OUT/plot-none.json"
    got=$(for lab in 10 08 09; do make -s plot BUILD="$BUILD" LAB=$lab RESULTS="$OUT/plot-$lab.json" 2>&1; done)
    if [[ $got == *"10-scan.png (your kernel: 50%)"* && $got == *"08-divergence.png (your kernel: 40%)"* &&
        $got == *"09-occupancy.png (your kernel: 4x)"* ]] &&
        [ -s "$BUILD/last/10-scan.png" ] && [ -s "$BUILD/last/08-divergence.png" ] &&
        [ -s "$BUILD/last/09-occupancy.png" ]; then
        pass slides/plot_places_your_kernel
    else
        fail slides/plot_places_your_kernel "$(echo "$got" | tr '\n' ' ')"
    fi
    # With an arithmetic peak, the roofline too: 40 TFLOP/s at 683 FLOP per
    # byte under a 67 TFLOP/s peak (the copy's 2900 GB/s reaches it at 23).
    printf '{"stages": [{"name": "fast", "fast": {"submission_ms": 3.4, "gbps": 60, "copy_gbps": 2900, "gflops": 40980, "peak_gflops": 66900, "roofline_fraction": 0.8}}]}\n' \
        >"$OUT/plot-07.json"
    got=$(make -s plot BUILD="$BUILD" LAB=07 RESULTS="$OUT/plot-07.json" 2>&1)
    if [[ $got == *"07-matmul-roofline.png (your kernel: 40980 GFLOP/s = 61% of the roof at 683 FLOP per byte)"* ]] &&
        [ -s "$BUILD/last/07-matmul-roofline.png" ]; then
        pass slides/plot_places_your_kernel_under_the_roofline
    else
        fail slides/plot_places_your_kernel_under_the_roofline "$(echo "$got" | tr '\n' ' ')"
    fi
    got=$(make -s plot BUILD="$BUILD" LAB=10 RESULTS="$OUT/plot-none.json" 2>&1)
    if [[ $got == *"has no fast-stage figures"* ]]; then
        pass slides/plot_without_fast_figures_says_so
    else
        fail slides/plot_without_fast_figures_says_so "$(echo "$got" | tr '\n' ' ')"
    fi
}

# ------------------------------------------- the emulation's own tests
emulation_tests() {
    bash tests/emu/run.sh "$OUT/emu-self" 2>&1 | sed 's/^\(PASS\|FAIL\|SKIP\) /\1 emu-self\//' |
        grep -E '^(PASS|FAIL|SKIP) ' | tee -a "$RESULTS"
}

# ------------------------------------------------------- make predict
# Lab 03's questions (labs/03-transpose/trusted/predict.cu), answered for
# the reference with the figures of the hardware's rules, once wrong, and
# not at all: counts are only ever shown for answered questions. Then labs
# 01, 04 and 08.
predict_tests() {
    local dir=$OUT/predict out
    mkdir -p "$dir"
    printf '1a = 4\n1b = 32\n2a = 65536\n2b = 4\n3a = 2\n3b = 16\n' >"$dir/right.txt"
    out=$(make -s --no-print-directory predict LAB=03 BUILD="$BUILD" ANSWERS="$dir/right.txt" \
        SUBMISSION=labs/03-transpose/tests/correct/diagonal_block_order__fast.cu </dev/null 2>&1)
    if [[ $out == *"6 of 6 answered, 6 right"* ]]; then pass predict/a_32x32_tile_kernel_counts_as_the_hardware_rules_say
    else fail predict/a_32x32_tile_kernel_counts_as_the_hardware_rules_say "$(echo "$out" | grep -E 'missed|not|right$' | head -c 400)"; fi
    # The reference moves 64 x 64 tiles: question 2 describes 32 x 32 ones.
    out=$(make -s --no-print-directory predict LAB=03 BUILD="$BUILD" ANSWERS="$dir/right.txt" \
        SUBMISSION=labs/03-transpose/solution/transpose.cu </dev/null 2>&1)
    if [[ $out == *"2a  not measured"*"not the one the question describes"* ]] &&
        [[ $out == *"2b  not measured"* ]] && [[ $out == *"1a  right"* ]]; then
        pass predict/a_64x64_tile_kernel_is_not_judged_on_question_2
    else fail predict/a_64x64_tile_kernel_is_not_judged_on_question_2 "$(echo "$out" | head -c 400)"; fi
    printf '1a = 32\n' >"$dir/miss.txt"
    out=$(make -s --no-print-directory predict LAB=03 BUILD="$BUILD" ANSWERS="$dir/miss.txt" </dev/null 2>&1)
    if echo "$out" | grep -q '^1a  missed' && [[ $out == *"why: "* ]] && [[ $out == *"1 of 6 answered, 0 right"* ]]
    then pass predict/a_miss_says_why
    else fail predict/a_miss_says_why "$(echo "$out" | head -c 400)"; fi
    : >"$dir/none.txt"
    out=$(make -s --no-print-directory predict LAB=03 BUILD="$BUILD" ANSWERS="$dir/none.txt" </dev/null 2>&1)
    if ! echo "$out" | grep -qE 'counts [0-9]' && [ "$(grep -c '^[123][ab] = $' "$dir/none.txt")" = 6 ]
    then pass predict/no_count_before_an_answer
    else fail predict/no_count_before_an_answer "$(echo "$out" | head -c 300) / $(head -c 200 "$dir/none.txt")"; fi
    printf '2a = 65536\n' >"$dir/skeleton.txt"
    out=$(make -s --no-print-directory predict LAB=03 BUILD="$BUILD" ANSWERS="$dir/skeleton.txt" </dev/null 2>&1)
    if [[ $out == *"2a  not measured"*"write it first"* ]]; then pass predict/the_skeleton_is_not_measured
    else fail predict/the_skeleton_is_not_measured "$(echo "$out" | head -c 300)"; fi
    # Labs 01 and 04: questions about the student's own launch are judged
    # on a file built as the question describes, and not on another.
    printf '1a = 4\n1b = 24\n2a = 4\n2b = 16\n3a = 1536\n3b = 0.75\n' >"$dir/01.txt"
    out=$(make -s --no-print-directory predict LAB=01 BUILD="$BUILD" ANSWERS="$dir/01.txt" \
        SUBMISSION=labs/01-vector-add/tests/correct/one_thread_per_element__fast.cu </dev/null 2>&1)
    if [[ $out == *"6 of 6 answered, 6 right"* ]]; then pass predict/lab_01_counts_as_the_hardware_rules_say
    else fail predict/lab_01_counts_as_the_hardware_rules_say "$(echo "$out" | grep -A1 -E 'missed|not m' | head -c 400)"; fi
    out=$(make -s --no-print-directory predict LAB=01 BUILD="$BUILD" ANSWERS="$dir/01.txt" \
        SUBMISSION=labs/01-vector-add/solution/vector_add.cu </dev/null 2>&1)
    if [[ $out == *"1a  not measured"*"not the one the question describes"* ]]; then pass predict/another_design_is_not_judged
    else fail predict/another_design_is_not_judged "$(echo "$out" | head -c 300)"; fi
    printf '1a = 131072\n1b = 3\n2 = 9\n' >"$dir/04.txt"
    out=$(make -s --no-print-directory predict LAB=04 BUILD="$BUILD" ANSWERS="$dir/04.txt" \
        SUBMISSION=labs/04-reduction/tests/correct/recursive_levels__right.cu </dev/null 2>&1)
    if [[ $out == *"3 of 3 answered, 3 right"* ]]; then pass predict/lab_04_counts_launches_and_barriers
    else fail predict/lab_04_counts_launches_and_barriers "$(echo "$out" | grep -A1 -E 'missed|not m' | head -c 400)"; fi
    printf '3 = 65536\n4a = 16\n4b = 0.25\n' >"$dir/08.txt"
    out=$(make -s --no-print-directory predict LAB=08 BUILD="$BUILD" ANSWERS="$dir/08.txt" </dev/null 2>&1)
    if [[ $out == *"3 of 3 answered, 3 right"* ]]; then pass predict/lab_08_counts_grid_and_strided_sectors
    else fail predict/lab_08_counts_grid_and_strided_sectors "$(echo "$out" | grep -A1 -E 'missed|not m' | head -c 400)"; fi
    # Two runs for one lab take turns on its build folder: while the lab's
    # lock is held, make counts waits (its log is left as it was), then runs.
    if command -v flock >/dev/null; then
        local lock=$BUILD/predict/01-vector-add pid waited=no code
        mkdir -p "$lock" && echo "held by the test" >"$lock/build.log"
        exec 8>"$lock.lock" && flock 8
        make -s --no-print-directory counts LAB=01 BUILD="$BUILD" SUBMISSION=labs/01-vector-add/solution/vector_add.cu \
            </dev/null >"$dir/waited.txt" 2>&1 8>&- &
        pid=$!
        sleep 2
        grep -q "held by the test" "$lock/build.log" && kill -0 "$pid" 2>/dev/null && waited=yes
        exec 8>&-
        wait "$pid"
        code=$?
        if [ "$waited" = yes ] && [ "$code" = 0 ] && grep -q 'sectors per request' "$dir/waited.txt" &&
            grep -q "waiting for another run for lab 01-vector-add to end" "$dir/waited.txt"
        then pass predict/two_runs_for_one_lab_take_turns
        else fail predict/two_runs_for_one_lab_take_turns "waited: $waited, exit $code: $(head -c 300 "$dir/waited.txt")"; fi
    else
        skip predict/two_runs_for_one_lab_take_turns "no flock here (util-linux)"
    fi
    # make counts: the naive transpose's strided stores against the
    # reference's, as the lesson says they differ.
    out=$(make -s --no-print-directory counts LAB=03 BUILD="$BUILD" \
        SUBMISSION=labs/03-transpose/tests/wrong/naive__fast.cu </dev/null 2>&1)
    if echo "$out" | grep -qE 'global stores +32.0 sectors per request, +12.5% of their bytes used'
    then pass predict/counts_show_the_naive_transposes_strided_stores
    else fail predict/counts_show_the_naive_transposes_strided_stores "$(echo "$out" | head -c 400)"; fi
    out=$(make -s --no-print-directory counts LAB=03 BUILD="$BUILD" \
        SUBMISSION=labs/03-transpose/solution/transpose.cu </dev/null 2>&1)
    if echo "$out" | grep -qE 'global stores +4.0 sectors per request, 100.0% of their bytes used' &&
        echo "$out" | grep -qE 'shared loads +1.0 passes per request \(no bank conflict\)'
    then pass predict/counts_show_the_references_coalesced_stores
    else fail predict/counts_show_the_references_coalesced_stores "$(echo "$out" | head -c 400)"; fi
    out=$(make -s --no-print-directory predict LAB=02 BUILD="$BUILD" ANSWERS="$dir/x.txt" </dev/null 2>&1)
    if [ $? = 2 ] && [[ $out == *"has no predictions to check yet"* ]]; then pass predict/a_lab_without_questions_says_so
    else fail predict/a_lab_without_questions_says_so "$(echo "$out" | head -c 300)"; fi
    # A ladder's counts for a lab without questions (lab 02), at SIZES.
    out=$(make -s --no-print-directory counts LAB=02 BUILD="$BUILD" LADDER=1 SIZES=4096 </dev/null 2>&1)
    if [[ $out == *"the ladder's rungs at n = 4096"* ]] && echo "$out" | grep -qE '^v1_[a-z_0-9]+: 1 launch'
    then pass predict/ladder_counts_for_a_lab_without_questions
    else fail predict/ladder_counts_for_a_lab_without_questions "$(echo "$out" | head -c 300)"; fi
    # The emulated right stage tells the same counts once the work is right
    # (grader/counts.c), and nothing when it is not.
    out=$(grade_emulated --lab 03 --submission labs/03-transpose/tests/wrong/naive__fast.cu --stage right 2>&1)
    if echo "$out" | grep -qE '^right +PASS' &&
        echo "$out" | grep -qE 'transpose_kernel: global loads 4.0 sectors per request.*global stores 32.0 sectors per request \(12% of their bytes used\)'
    then pass counts/right_stage_shows_the_naive_transposes_strided_stores
    else fail counts/right_stage_shows_the_naive_transposes_strided_stores "$(echo "$out" | grep -A3 '^right' | head -c 400)"; fi
    out=$(grade_emulated --lab 03 --submission labs/03-transpose/solution/transpose.cu --stage right 2>&1)
    if echo "$out" | grep -qE 'global stores 4.0 sectors per request \(100% of their bytes used\); shared loads 1.0 passes per request;'
    then pass counts/right_stage_shows_the_references_coalesced_stores
    else fail counts/right_stage_shows_the_references_coalesced_stores "$(echo "$out" | grep -A3 '^right' | head -c 400)"; fi
    out=$(grade_emulated --lab 03 --submission labs/03-transpose/tests/wrong/no_bounds_check__right.cu --stage right 2>&1)
    if echo "$out" | grep -qE '^right +FAIL' && ! echo "$out" | grep -q "as a GPU's counters would see"
    then pass counts/a_failed_right_stage_shows_no_counts
    else fail counts/a_failed_right_stage_shows_no_counts "$(echo "$out" | grep -A3 '^right' | head -c 400)"; fi
    # The counted call is a run of its own: when it fails (here a kernel
    # that traps unless every block of the one before it ran), right still
    # passes and says no counts came.
    out=$(grade_emulated --lab 01 --submission tests/emu/counted_call_fails.cu --stage right 2>&1)
    if echo "$out" | grep -qE '^right +PASS' &&
        echo "$out" | grep -q 'memory counts: none, the counted call of your entry point failed'
    then pass counts/a_failing_counted_call_changes_no_verdict
    else fail counts/a_failing_counted_call_changes_no_verdict "$(echo "$out" | grep -A3 '^right' | head -c 400)"; fi
}

# The emulation's counts (common/emu: sectors per warp request, shared
# passes per request) against what the hardware's own counters say, rung
# by rung on the ladders whose lesson is memory access (labs 01, 03, 04):
# within 5% on a GPU where Nsight Compute can read them
# (tests/ncu_rungs.sh). Without one, the emulated counts must still show
# each lesson (the naive transpose's scattered stores, the conflicted
# tile's 32 passes, the padded tile's one).
COUNTED_LADDERS="01-vector-add 03-transpose 04-reduction"
rung_counts_emulated() { # lab -> "RUNG KIND REQUESTS UNITS" lines
    make -s --no-print-directory counts LAB="$1" BUILD="$BUILD" LADDER=1 RAW=1 </dev/null
}
counters_tests() {
    local lab=03-transpose dir=$OUT/counters
    mkdir -p "$dir"
    # On the CPU, lab 03's ladder (the GPU part counts all three again).
    selected "$lab" || return 0
    if ! rung_counts_emulated "$lab" >"$dir/$lab-emu.txt" 2>"$dir/$lab-emu.err"; then
        fail "counters/$lab/emulated" "$(head -c 300 "$dir/$lab-emu.err")"
        return
    fi
    pass "counters/$lab/emulated"
    # units per request of one rung and kind, from the emulated lines
    per() { awk -v r="$1" -v k="$2" '$1 == r && $2 == k && $3 > 0 { printf "%.2f", $4 / $3 }' "$dir/$lab-emu.txt"; }
    if [ "$(per v1_naive global_store)" = 32.00 ] && [ "$(per v1_naive global_load)" = 4.00 ] &&
        [ "$(per v2_tiles_32x32_bank_conflicts shared_load)" = 32.00 ] &&
        [ "$(per v3_tiles_padded_33 shared_load)" = 1.00 ]; then
        pass "counters/$lab/emulated_counts_show_the_lesson"
    else
        fail "counters/$lab/emulated_counts_show_the_lesson" "$(tr '\n' ';' <"$dir/$lab-emu.txt")"
    fi
}
# make profile's table (grader/predict/counters.awk) from a saved Nsight
# Compute CSV: two calls cut by profile_boundary kernels, one counter of
# each kind, the reference's figure and RECORD's file.
profile_table_tests() {
    local dir=$OUT/profile-table
    mkdir -p "$dir"
    printf 'ratio\tm_sectors.sum\tm_requests.sum\tsectors per request\tfewer is better\n' >"$dir/counters.txt"
    printf 'average\tm_dram.pct\t-\tDRAM, %% of peak\tbusy is good\n' >>"$dir/counters.txt"
    printf 'millions\tm_inst.sum\t-\twarp instructions, millions\tfewer\n' >>"$dir/counters.txt"
    printf 'baseline\nyours\n' >"$dir/names.txt"
    printf '# the solution on a GPU\nsectors per request\t4.00\n' >"$dir/reference.txt"
    {
        echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
        row() { printf '"%s","%s","%s","","%s"\n' "$@"; }
        row 0 'profile_boundary(int)' m_sectors.sum 0
        # the baseline: two kernels, 10 ns at 20% and 30 ns at 60%
        for m in "m_sectors.sum 3,200" "m_requests.sum 100" "m_dram.pct 20" "m_inst.sum 1,000,000" "gpu__time_duration.sum 10"; do
            row 1 'naive(const float *, float *, int)' $m
        done
        for m in "m_sectors.sum 800" "m_requests.sum 100" "m_dram.pct 60" "m_inst.sum 500,000" "gpu__time_duration.sum 30"; do
            row 2 'naive_tail(const float *, float *, int)' $m
        done
        row 3 'profile_boundary(int)' m_sectors.sum 0
        for m in "m_sectors.sum 400" "m_requests.sum 100" "m_dram.pct 90" "m_inst.sum 250,000" "gpu__time_duration.sum 5"; do
            row 4 'mine(const float *, float *, int)' $m
        done
    } >"$dir/ncu.csv"
    awk -v counters="$dir/counters.txt" -v names="$dir/names.txt" -v reference="$dir/reference.txt" \
        -v record="$dir/record.txt" -f grader/predict/counters.awk "$dir/ncu.csv" >"$dir/table.txt" 2>&1
    # yours 400/100; the baseline (3200 + 800) / 200; time-weighted
    # (20*10 + 60*30) / 40 = 50; 1.5 million instructions
    if grep -qE '^  sectors per request +4\.00 +20\.0 +4\.00$' "$dir/table.txt" &&
        grep -qE '^  DRAM, % of peak +90\.0 +50\.0 +-$' "$dir/table.txt" &&
        grep -qE '^  warp instructions, millions +0\.25 +1\.50 +-$' "$dir/table.txt" &&
        grep -qx '      fewer is better' "$dir/table.txt" &&
        grep -qx '  reference: the solution on a GPU' "$dir/table.txt" &&
        [ "$(tr '\t' '|' <"$dir/record.txt" | tr '\n' ';')" = "sectors per request|4.00;DRAM, % of peak|90.0;warp instructions, millions|0.25;" ]; then
        pass profile/the_table_sums_each_call_and_sets_the_reference_beside
    else
        fail profile/the_table_sums_each_call_and_sets_the_reference_beside "$(tr '\n' ';' <"$dir/table.txt" | head -c 600)"
    fi
    # Every lab names its counters (or says why it has none); a lab whose
    # reference figures are recorded records exactly those.
    local spec lab labels bad=
    for spec in labs/*/trusted/spec.c; do
        lab=$(basename "$(dirname "$(dirname "$spec")")")
        selected "$lab" || continue
        info=$("$BUILD/grade" --lab "$lab" --lab-info)
        labels=$(sed -n 's/^counter=//p' <<<"$info" | awk -F '\t' 'NF == 5 && $5 != "" { print $4 }')
        if [ -z "$labels" ] && ! grep -q '^counters_none=.' <<<"$info"; then
            bad+=" $lab names no counters and says not why;"
        elif [ -f "labs/$lab/slides/counters.txt" ] &&
            [ "$(grep -v '^#' "labs/$lab/slides/counters.txt" | cut -f1)" != "$labels" ]; then
            bad+=" labs/$lab/slides/counters.txt does not hold the spec's counters (make profile LAB=${lab%%-*} RECORD=1);"
        fi
    done
    if [ -z "$bad" ]; then pass profile/every_lab_names_its_counters
    else fail profile/every_lab_names_its_counters "$bad"; fi
    # Without Nsight Compute: one line, exit 0, nothing built.
    if PATH=/usr/bin:/bin command -v ncu >/dev/null; then
        skip profile/without_ncu_says_so "ncu is in /usr/bin"
    else
        local out
        out=$(PATH=/usr/bin:/bin BUILD=$BUILD bash grader/predict/profile.sh 01-vector-add labs/01-vector-add/vector_add.cu 2>&1)
        if [ $? = 0 ] && [[ $out == *"Nsight Compute (ncu) is not on the PATH"* ]] && [ "$(wc -l <<<"$out")" = 1 ]; then
            pass profile/without_ncu_says_so
        else
            fail profile/without_ncu_says_so "$(head -c 300 <<<"$out")"
        fi
    fi
}

# Why the GPU's counters cannot be read here; nothing when they can.
ncu_unusable() {
    if [ "$HAVE_GPU" != 1 ]; then
        echo "needs a GPU ($GPU_REASON)"
    elif ! command -v ncu >/dev/null; then
        echo "needs Nsight Compute (ncu is not on the PATH)"
    fi
}

# The hardware's side, alone on the GPU (after the CLI tests): the rungs
# under Nsight Compute, one case per rung, every kind of access within 5%
# of the emulation's requests and units.
counters_gpu_tests() {
    local lab why= dir=$OUT/counters-gpu
    mkdir -p "$dir"
    why=$(ncu_unusable)
    for lab in $COUNTED_LADDERS; do
        selected "$lab" || continue
        if [ -n "$why" ]; then
            skip "counters/$lab/hardware" "$why"
            continue
        fi
        # Emulated with the GPU's SM count: rungs that size their grid by
        # it (lab 04's v7 to v9) then launch the same blocks.
        if ! CUDA_EMU_SM_COUNT=$(sed -n 's/^sm_count=//p' "$OUT/probe.txt") \
            rung_counts_emulated "$lab" >"$dir/$lab-emu.txt" 2>"$dir/$lab-emu.err"; then
            fail "counters/$lab/hardware" "the emulation: $(head -c 300 "$dir/$lab-emu.err")"
            continue
        fi
        if ! bash tests/ncu_rungs.sh "$lab" >"$dir/$lab-ncu.txt" 2>"$dir/$lab-ncu.err"; then
            fail "counters/$lab/hardware" "$(head -c 300 "$dir/$lab-ncu.err")"
            continue
        fi
        # One case per rung: every kind's requests and units within 5%.
        awk 'NR == FNR { emu[$1, $2] = $3 " " $4; rungs[$1]; next }
             { hw[$1, $2] = $3 " " $4; seen[$1] }
             function off(a, b) { return (a > b ? a - b : b - a) > 0.05 * (a > b ? a : b) }
             END { for (r in rungs) {
                       if (!(r in seen)) { printf "FAIL counters/%s/%s: ncu saw no such rung\n", lab, r; continue }
                       bad = ""
                       for (key in emu) {
                           split(key, p, SUBSEP); if (p[1] != r) continue
                           split(emu[key], e, " "); split(hw[key], h, " ")
                           if (off(e[1], h[1]) || off(e[2], h[2]))
                               bad = bad sprintf(" %s: emulated %.0f requests, %.0f units; ncu %.0f, %.0f;",
                                                 p[2], e[1], e[2], h[1], h[2])
                       }
                       if (bad == "") printf "PASS counters/%s/%s\n", lab, r
                       else printf "FAIL counters/%s/%s:%s\n", lab, r, bad } }' \
            lab="$lab" "$dir/$lab-emu.txt" "$dir/$lab-ncu.txt" | sort | tee -a "$RESULTS"
    done
    profile_gpu_case 03-transpose "global stores: % of each sector's bytes used"
    profile_gpu_case 08-divergence "threads active per warp instruction (32 = no divergence)"
}

# make profile on the GPU (grader/predict/profile.sh): a reference beside
# its lab's baseline, the counter of the lesson in the lesson's direction:
# the reference's figure at least 1.5 times the baseline's.
profile_gpu_case() { # lab label
    local lab=$1 label=$2 dir=$OUT/profile-gpu why=
    mkdir -p "$dir"
    selected "$lab" || return 0
    why=$(ncu_unusable)
    if [ -n "$why" ]; then
        skip "profile/$lab/reference_beside_the_baseline" "$why"
        return
    fi
    local file=labs/$lab/solution/$("$BUILD/grade" --lab "$lab" --lab-info | sed -n 's/^student_file=//p')
    GPU_HOLD=$GPU_HOLD GPU_LOCK_DIR=$GPU_LOCK_DIR make -s --no-print-directory profile LAB="$lab" \
        BUILD="$BUILD" SUBMISSION="$file" >"$dir/$lab.txt" 2>&1 </dev/null
    local row
    row=$(grep -F "  $label " "$dir/$lab.txt" | head -n 1)
    if awk -v label="$label" '{ split(substr($0, length(label) + 3), f, " ") }
                              f[1] != "-" && f[2] != "-" && f[1] >= 1.5 * f[2] { ok = 1 }
                              END { exit !ok }' <<<"$row"; then
        pass "profile/$lab/reference_beside_the_baseline"
    else
        fail "profile/$lab/reference_beside_the_baseline" "'$label': ${row:-no such row}; $(grep -m 2 -v '^ ' "$dir/$lab.txt" | tr '\n' ' ' | head -c 300)"
    fi
}

# Is there a GPU? The trusted probe says.
if "$BUILD/probe" >"$OUT/probe.txt" 2>&1; then
    HAVE_GPU=1
    GPU_REASON=
else
    HAVE_GPU=0
    GPU_REASON="no usable GPU: $(grep '^error=' "$OUT/probe.txt" | cut -d= -f2-)"
fi

# Every fixture built on the reference (tests/fixtures.sh) is written out
# once, before the parts that compile or grade it.
make_fixtures() {
    local f why
    for f in labs/*/tests/wrong/*.cu labs/*/tests/correct/*.cu; do
        fixture_builds_on_reference "$f" || continue
        if why=$(fixture_make "$f" "$FIXTURES"); then
            pass "fixtures/$f"
        else
            fail "fixtures/$f" "$why"
        fi
    done
    # An edit that no longer changes the reference is an error, not the
    # reference graded under the fixture's name.
    local stale=$OUT/fixture-test/labs/01-vector-add/tests/wrong/stale_edit__work.cu
    mkdir -p "$(dirname "$stale")"
    printf '/* BUILDS-ON: the reference\n * EDIT: s/no such line in the reference/x/\n */\n' >"$stale"
    why=$(fixture_make "$stale" "$OUT/fixture-test/out")
    if [ $? = 1 ] && [[ $why == *"EDIT 's/no such line in the reference/x/' no longer changes"* ]]; then
        pass fixtures/a_stale_edit_is_reported
    else
        fail fixtures/a_stale_edit_is_reported "fixture_make said '$why'"
    fi
}

# TEST_PARTS="e2e" runs only the GPU's end-to-end cases (a short session on
# a lent GPU, after the CPU parts passed elsewhere); the default is all.
# Each part that runs notes its wall seconds (printed at the end, for
# keeping make test within its budget).
wanted() { [ -z "${TEST_PARTS:-}" ] || [[ " $TEST_PARTS " == *" $1 "* ]]; }
# Each part's start goes to PART_STARTS: this file, or for the parts run
# beside the others, their own (beside, below).
PART_STARTS=$OUT/part-starts.txt
part() { wanted "$1" && echo "$1 $(date +%s.%N)" >>"$PART_STARTS"; }
# The parts that never touch a GPU, and those that may.
cpu_parts() {
    part unit && unit_tests
    # The emulator's own tests keep about one core busy: without a GPU they
    # run beside the compile and emu parts, which keep both busy.
    if [ "$HAVE_GPU" = 1 ]; then emulation_parts; else beside emulation emulation_parts; fi
    part compile && compile_all
    part emu && emu_tests
    # (the wait is no part's time)
    [ "$HAVE_GPU" = 1 ] || { echo "end $(date +%s.%N)" >>"$PART_STARTS" && collect emulation; }
    part slides && slides_tests
    part facts && facts_tests
    part counters && counters_tests
    part counters && profile_table_tests
    # Without a GPU, newlab runs beside the CLI, class and attack parts
    # (below), which leave a core idle much of the time.
    if [ "$HAVE_GPU" = 1 ]; then newlab_part; fi
}
# With a GPU the CPU parts run beside the end-to-end checks, and the timings
# can only begin once the checks are done (grader/gpu_lock.h): so the CPU
# parts yield the cores to the checks (nice 10) and take them back while the
# GPU times, when the checks leave them idle. Their results are the same.
cpu_parts_yielding() {
    renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true
    cpu_parts
}
emulation_parts() {
    part emulation && emulation_tests
    part emulation && predict_tests
}
# make new-lab, in a copy of the tree with a build of its own (tests/new_lab_test.sh)
newlab_part() {
    part newlab && bash tests/new_lab_test.sh 2>&1 | grep -E '^(PASS|FAIL|SKIP) ' | tee -a "$RESULTS"
}
class_and_attacks() {
    part class && { HAVE_GPU=$HAVE_GPU BUILD=$BUILD CC=$CC bash tests/class/run.sh "$OUT/class" 2>&1 |
        grep -E '^(PASS|FAIL|SKIP) ' | tee -a "$RESULTS"; } # grader/class
    part attacks && attack_tests
}
# beside NAME FUNCTION: run it in the background with a results file, an
# output and a list of part starts of its own; collect NAME waits for it,
# then prints and counts them.
beside() {
    (RESULTS=$OUT/$1-results.txt && PART_STARTS=$OUT/$1-part-starts.txt && : >"$RESULTS" &&
        "$2" >"$OUT/$1-output.txt" 2>&1
        [ ! -s "$PART_STARTS" ] || echo "end $(date +%s.%N)" >>"$PART_STARTS") &
    eval "beside_$1=$!"
}
collect() {
    eval "wait \$beside_$1"
    cat "$OUT/$1-output.txt"
    cat "$OUT/$1-results.txt" >>"$RESULTS"
}
{ wanted compile || wanted emu || wanted e2e || wanted agree; } &&
    echo "fixtures $(date +%s.%N)" >>"$PART_STARTS" && make_fixtures
cli_and_counters() {
    part cli && cli_tests
    part counters && counters_gpu_tests
}
if [ "$HAVE_GPU" = 1 ]; then
    # With a GPU, the parts that need none run beside those that do, and
    # the CLI, counter, class and attack tests beside the end-to-end cases:
    # the grader's GPU lock keeps every timing fair, and what the tests run
    # on the GPU themselves holds it too (gpu_hold). The CLI tests rebuild
    # the grader, which replaces build/grade in one step (Makefile), so a
    # grading beside them runs the old one or the new. The GPU suite is the
    # long one. Only the CLI cases that load every CPU or the GPU on purpose
    # go first, alone.
    beside cpu cpu_parts_yielding
    part sandbox && sandbox_tests
    wanted cli && echo "cli-stress $(date +%s.%N)" >>"$PART_STARTS" && cli_stress_tests
    beside tools cli_and_counters
    beside class class_and_attacks
    part e2e && e2e_tests
    collect tools
    collect class
    collect cpu
else
    cpu_parts
    part sandbox && sandbox_tests
    wanted cli && cli_stress_tests
    beside newlab newlab_part
    cli_and_counters
    class_and_attacks
    collect newlab
    part e2e && e2e_tests
fi
part agree && agreement_tests # compares the emulated and the GPU verdicts

passed=$(grep -c '^PASS ' "$RESULTS")
failed=$(grep -c '^FAIL ' "$RESULTS")
skipped=$(grep -c '^SKIP ' "$RESULTS")
if [ -z "${VERBOSE:-}" ] && [ "$skipped" -gt 0 ]; then
    # One line per group (the name up to its first '/'), with the reason
    # most of its cases gave.
    echo
    grep '^SKIP ' "$RESULTS" | sed 's/^SKIP //' | awk -F': ' '
        { split($1, part, "/"); g = part[1]; n[g]++
          r = substr($0, length($1) + 3); c[g, r]++
          if (c[g, r] > best[g]) { best[g] = c[g, r]; why[g] = r } }
        END { for (g in n) printf "skipped %s: %d case%s, e.g. %s (VERBOSE=1 lists them)\n",
                                  g, n[g], n[g] == 1 ? "" : "s", why[g] }' | sort
fi
# Wall seconds from each part's start to the next one's in its list (the
# lists of parts run side by side overlap; the last part of a list runs to
# its end).
echo "end $(date +%s.%N)" >>"$PART_STARTS"
if [ -n "$(grep -lv '^end ' "$OUT"/*part-starts.txt 2>/dev/null)" ]; then
    echo
    echo "seconds per part (from its start to the next part's):"
    for f in "$OUT"/*part-starts.txt; do cat "$f"; echo "next 0"; done |
        awk 'prev != "" && prev != "end" && prev != "next" { t[prev] += $2 - start }
             { prev = $1; start = $2 }
             END { for (p in t) printf "  %6.1f  %s\n", t[p], p }' | sort -rn
fi
# The ten slowest gradings, from the seconds each result file records.
slowest=$(for f in "$OUT"/*.json; do
    t=$(grep -o '"seconds": {"probe": [^}]*"total": [0-9.]*' "$f" 2>/dev/null | sed 's/.*"total": //')
    [ -n "$t" ] && echo "$t $(basename "$f" .json)"
done | sort -rn | head -n 10)
if [ -n "$slowest" ]; then
    echo
    echo "slowest gradings (seconds, result file):"
    echo "$slowest" | awk '{ printf "  %6.1f  %s\n", $1, $2 }'
fi
# Where the gradings' time went, each part summed over them all (they run
# side by side, so the sums pass the wall time): on a GPU, "waited" is the
# wait for a turn on it (grader/gpu_lock.h).
parts=$(cat "$OUT"/*.json 2>/dev/null | grep -o '"seconds_by_part": {[^}]*}' | sed 's/.*{//; s/}//' |
    tr ',' '\n' | tr -d '" ' | awk -F: 'NF == 2 && $2 > 0 { t[$1] += $2 }
        END { for (p in t) printf "%.1f %s\n", t[p], p }' | sort -rn | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')
if [ -n "$parts" ]; then
    echo
    echo "seconds by part, summed over the gradings: $parts"
fi
if [ "$failed" -gt 0 ]; then
    echo
    echo "failures:"
    grep '^FAIL ' "$RESULTS"
fi
echo "$passed passed, $failed failed, $skipped skipped"
if [ -n "${skip_filter:-}" ]; then
    exec 1>&3 3>&-
    wait "$skip_filter" 2>/dev/null
fi
[ "$failed" -eq 0 ]
