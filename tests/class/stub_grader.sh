#!/usr/bin/env bash
# stub_grader.sh - a stand-in for ./grade, for testing `class batch` without
# a GPU or a compiler. Called as the grader is:
#   stub_grader.sh --submission FILE --results FILE [--mem-limit-mb N]
# The submission's first line says what to do:
#   // STUB pass|fail|build|nogpu|garbage|liar [SECONDS]   canned JSON, the grader's exit code
#   // STUB hang | crash                                    never ends | dies of SIGSEGV
# STUB_NO_HANG=1 turns hang into pass (to resume a batch that hung).
# STUB_LOG: a line per start and end, with the student and CUDA_VISIBLE_DEVICES.
# STUB_LOCKS: a folder; each GPU id is held (mkdir) while grading, and a
# second holder logs CONFLICT: two gradings on one GPU at once.
set -u
here=$(cd "$(dirname "$0")" && pwd)
submission= results= mem=
while [ $# -gt 0 ]; do
    case $1 in
    --submission) submission=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --mem-limit-mb) mem=$2; shift 2 ;;
    *) echo "stub: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -r "$submission" ] || { echo "stub: cannot read $submission" >&2; exit 2; }
read -r _ _ what seconds < "$submission"
name=$(basename "$(dirname "$results")")/$(basename "$results" .json)
gpu=${CUDA_VISIBLE_DEVICES-unset}
log() { [ -n "${STUB_LOG:-}" ] && echo "$1 ${name##*/} gpu=$gpu mem=${mem:-none} $(date +%s.%N)" >>"$STUB_LOG"; }
lock=
if [ -n "${STUB_LOCKS:-}" ]; then
    lock=$STUB_LOCKS/gpu-$gpu
    mkdir "$lock" 2>/dev/null || { echo "CONFLICT ${name##*/} gpu=$gpu" >>"${STUB_LOG:-/dev/null}"; lock=; }
fi
log start
echo "stub grading $submission ($what)"
[ "$what" = hang ] && [ -n "${STUB_NO_HANG:-}" ] && what=pass
[ -n "${seconds:-}" ] && sleep "$seconds"
finish() { log end; [ -n "$lock" ] && rmdir "$lock"; }
canned() { cp "$here/fixtures/graded/$1.json" "$results"; }
case $what in
pass) canned pass_gpu; finish; echo "verdict: PASS"; exit 0 ;;
fail) canned fail_right; finish; echo "verdict: FAIL"; exit 1 ;;
build) canned build_error; finish; exit 2 ;;
nogpu) canned emulated; finish; exit 3 ;;
garbage) printf '{"lab": "01-vector-add", "stages": [' >"$results"; finish; exit 1 ;;
liar) canned pass_gpu; finish; exit 1 ;;
hang)
    sleep 600 &
    [ -n "${STUB_LOCKS:-}" ] && echo $! >"$STUB_LOCKS/hang-${name##*/}.pid"
    wait ;;
crash) finish; kill -SEGV $$ ;;
*) echo "stub: no STUB line in $submission" >&2; exit 2 ;;
esac
