#!/usr/bin/env bash
# predict.sh LAB_ID SUBMISSION ANSWERS|--counts|--rungs: builds make predict's
# program for a lab (grader/predict/main.cu, the lab's trusted/predict.cu and
# lab.cu, its spec, and the student's file, all for the CPU emulation, the
# CUDA files with GCC's -fsanitize=thread hooks, which the emulation counts
# with) and runs it on the answers file. --rungs builds grader/predict/rungs.cu
# with the lab's solution ladder instead (SUBMISSION is ignored) and passes
# it RUNGS_ARGS. Run by `make predict` and `make counts`, which set BUILD,
# EMU_BUILD, CXX, CC and EMU_CXXFLAGS. The file runs as a plain program,
# without the grader's sandbox: a student's tool for their own file, never
# for grading someone else's (grader/SECURITY.md).
set -uo pipefail
lab=$1 submission=$2 answers=$3
dir=labs/$lab
# make counts: every lab, with no questions of its own if it has none.
questions=$dir/trusted/predict.cu
tool="make predict"
if [ "$answers" = --rungs ]; then
    tool="make counts LADDER=1"
    submission=$dir/solution/ladder.cu
    questions=grader/predict/no_questions.cu # not built: the ladder asks nothing
    if [ ! -f "$submission" ]; then
        echo "$tool: lab $lab has no solution ladder" >&2
        exit 2
    fi
elif [ "$answers" = --counts ]; then
    tool="make counts"
    [ -f "$questions" ] || questions=grader/predict/no_questions.cu
fi
if [ ! -f "$questions" ]; then
    echo "make predict: lab $lab has no predictions to check yet (its README's questions say how to measure them)" >&2
    exit 2
fi
if [ ! -f "$submission" ]; then
    echo "$tool: no file $submission (SUBMISSION= names your .cu file)" >&2
    exit 2
fi
out=$BUILD/predict/$lab
mkdir -p "$out"
. grader/predict/take_turns.sh
take_turns "$out"
log=$out/build.log
: >"$log"
count_flags=(-O1 -fsanitize=thread)
compile_cu() { # source object
    "$EMU_BUILD/emu_rewrite" "$1" "$2.cpp" >>"$log" 2>&1 &&
        $CXX $EMU_CXXFLAGS "${count_flags[@]}" -Igrader/predict -iquote "$(dirname "$1")" \
            -MMD -MF "$2.d" -c "$2.cpp" -o "$2" >>"$log" 2>&1
}
compile_c() { # source object
    $CC -std=c11 -O2 -Igrader -MMD -MF "$2.d" -c "$1" -o "$2" >>"$log" 2>&1
}
# The trusted parts are the same in every run for a lab: each is compiled
# again only when it, a file its last compile read (OBJECT.d), the rewriter,
# the flags or this script (which holds the rest of them) have changed since
# (the hash of them all in OBJECT.key). A student's file is always compiled
# afresh.
key_of() { # source object
    {
        echo "$CXX $CC $EMU_CXXFLAGS ${count_flags[*]}"
        cat "$1" "$EMU_BUILD/emu_rewrite" "${BASH_SOURCE[0]}"
        [ ! -f "$2.d" ] || sed 's/^[^:]*://; s/\\$//' "$2.d" | tr ' ' '\n' | grep -v -e '^$' -e '\.o\.cpp$' |
            xargs -r cat
    } 2>/dev/null | md5sum
}
cached() { # compile_cu|compile_c source object
    [ -f "$3" ] && [ "$(key_of "$2" "$3")" = "$(cat "$3.key" 2>/dev/null)" ] && return 0
    rm -f "$3.key" && "$@" && key_of "$2" "$3" >"$3.key"
}
# link_with_lab PROGRAM OBJECT...: the lab's trusted side (its lab.cu and
# spec, and the runner's read_alone(), which a lab's parts may call) built
# here and linked with the given objects and the submission into
# $out/PROGRAM.
link_with_lab() {
    local program=$1
    shift
    cached compile_cu "$dir/trusted/lab.cu" "$out/lab.o" &&
        cached compile_cu grader/runner/read_alone.cu "$out/read_alone.o" &&
        cached compile_c "$dir/trusted/spec.c" "$out/spec.o" &&
        cached compile_c grader/lab_spec.c "$out/lab_spec.o" &&
        $CXX "$@" "$out"/{lab,read_alone,submission,spec,lab_spec}.o "$EMU_BUILD/libcudaemu.a" \
            -lm -lpthread -o "$out/$program" >>"$log" 2>&1
}
# A ladder includes the reference (#include "reduce.cu"): those files are
# rewritten into $out too, where the rewritten ladder finds them first.
if [ "$answers" = --rungs ]; then
    for included in $(sed -n 's/^#include "\([^"/]*\.cu\)".*/\1/p' "$submission"); do
        "$EMU_BUILD/emu_rewrite" "$(dirname "$submission")/$included" "$out/$included" >>"$log" 2>&1 || {
            echo "$tool: $included does not build for the CPU emulation (see $log)" >&2
            exit 2
        }
    done
fi
if ! compile_cu "$submission" "$out/submission.o"; then
    echo "$tool: $submission does not build for the CPU emulation:" >&2
    grep -m 5 -E 'error' "$log" >&2
    exit 2
fi
if [ "$answers" = --rungs ]; then
    cached compile_cu grader/predict/rungs.cu "$out/rungs.o" && link_with_lab rungs "$out/rungs.o" || {
        echo "$tool: building the ladder's counting program failed (see $log):" >&2
        grep -m 5 -E 'error|undefined' "$log" >&2
        exit 2
    }
    # shellcheck disable=SC2086 # the sizes, one word each
    exec "$out/rungs" ${RUNGS_ARGS:-}
fi
cached compile_cu grader/predict/main.cu "$out/main.o" &&
    cached compile_cu "$questions" "$out/questions.o" &&
    link_with_lab predict "$out/main.o" "$out/questions.o" || {
    echo "$tool: building the measuring program failed (see $log):" >&2
    grep -m 5 -E 'error|undefined' "$log" >&2
    exit 2
}
exec "$out/predict" "$answers"
