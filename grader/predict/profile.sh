#!/usr/bin/env bash
# profile.sh LAB_ID SUBMISSION [SIZE ...]: make profile. Builds the lab's
# baseline and the student's file into grader/predict/profile.cu's program,
# runs it under Nsight Compute with the lab's counters (lab_spec.counters,
# from grade --lab-info) and prints them beside the reference's figures
# (labs/NN-name/slides/counters.txt), each with the sentence that ties it
# to the lesson (grader/predict/counters.awk). RECORD=1 writes the figures
# of SUBMISSION (the reference solution) into that file. Run by `make
# profile`, which sets BUILD, NVCC, SM and TRUSTED. Where the counters
# cannot be read (no ncu, no GPU, no permission) it says so in one line and
# exits 0. The file runs as a plain program, without the grader's sandbox:
# a student's tool for their own file, never for grading someone else's
# (grader/SECURITY.md).
set -uo pipefail
lab=$1 submission=$2
shift 2
tool="make profile"
dir=labs/$lab
reference=$dir/slides/counters.txt
if [ ! -f "$submission" ]; then
    echo "$tool: no file $submission (SUBMISSION= names your .cu file)" >&2
    exit 2
fi
info=$("$BUILD/grade" --lab "$lab" --lab-info) || exit 2
none=$(sed -n 's/^counters_none=//p' <<<"$info")
if [ -n "$none" ]; then
    echo "$tool: lab $lab shows no counters: $none"
    exit 0
fi
out=$BUILD/profile/$lab
mkdir -p "$out"
. grader/predict/take_turns.sh
take_turns "$out"
log=$out/build.log
: >"$log"
if ! command -v ncu >/dev/null 2>&1; then
    echo "$tool: Nsight Compute (ncu) is not on the PATH, so the GPU's counters cannot be read here (it comes with the CUDA Toolkit); make counts LAB=${lab%%-*} counts your memory accesses on the CPU"
    exit 0
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$tool: no NVIDIA GPU here, so there are no counters to read; make counts LAB=${lab%%-*} counts your memory accesses on the CPU"
    exit 0
fi

flags=(-O3 -lineinfo -std=c++17 -arch="sm_$SM" -Igrader -Icommon)
if ! "$NVCC" "${flags[@]}" -c "$submission" -o "$out/submission.o" >>"$log" 2>&1; then
    echo "$tool: $submission does not build:" >&2
    grep -m 5 error "$log" >&2
    exit 2
fi
"$NVCC" "${flags[@]}" -c grader/predict/profile.cu -o "$out/profile.o" >>"$log" 2>&1 &&
    "$NVCC" -arch="sm_$SM" "$out/profile.o" "$out/submission.o" "$TRUSTED/$lab"/{lab,runner_read_alone,spec,lab_spec}.o \
        -lcublas -o "$out/profile" >>"$log" 2>&1 || {
    echo "$tool: building the profiling program failed (see $log):" >&2
    grep -m 5 -E 'error|undefined' "$log" >&2
    exit 2
}

# The lab's counters this GPU has (a metric's base name is all before its
# first dot; launch__ metrics are the launch's own figures, which every GPU
# has and --query-metrics does not list); the others are named and left out.
ncu --query-metrics >"$out/metrics.txt" 2>>"$log"
# A list ncu could not give (an older ncu, a GPU it does not know) filters
# nothing: ncu itself then names a metric it lacks.
grep -q '^dram__' "$out/metrics.txt" || : >"$out/metrics.txt"
: >"$out/counters.txt"
metrics=gpu__time_duration.sum
while IFS=$'\t' read -r kind metric per label lesson; do
    missing=
    for m in $metric $per; do
        [ "$m" = - ] || [[ $m == launch__* ]] || [ ! -s "$out/metrics.txt" ] ||
            grep -q "^${m%%.*} " "$out/metrics.txt" || missing=$m
    done
    if [ -n "$missing" ]; then
        echo "  (not on this GPU: $label, metric ${missing%%.*})"
        continue
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$kind" "$metric" "$per" "$label" "$lesson" >>"$out/counters.txt"
    metrics+=",$metric"
    [ "$per" = - ] || metrics+=",$per"
done < <(sed -n 's/^counter=//p' <<<"$info")

hold=()
[ -z "${GPU_HOLD:-}" ] || hold=("$GPU_HOLD" exclusive "$GPU_LOCK_DIR")
"${hold[@]}" ncu --clock-control none --print-units base --csv --metrics "$metrics" \
    --log-file "$out/ncu.csv" "$out/profile" "$@" >"$out/calls.txt" 2>"$out/run.log"
if grep -qs ERR_NVGPUCTRPERM "$out/ncu.csv" "$out/run.log"; then
    echo "$tool: this user may not read the GPU's counters (ERR_NVGPUCTRPERM: an administrator can allow it, see developer.nvidia.com/ERR_NVGPUCTRPERM)"
    exit 0
fi
if grep -qs '==ERROR== Failed to find metric' "$out/ncu.csv" "$out/run.log"; then
    echo "$tool: this Nsight Compute lacks a counter the lab names: $(grep -hm 1 'Failed to find metric' "$out/ncu.csv" "$out/run.log")"
    exit 0
fi
if ! grep -qx yours "$out/calls.txt"; then
    echo "$tool: the profiled run did not finish your call:" >&2
    grep -v '^==' "$out/run.log" | head -n 5 >&2
    grep -m 3 '==ERROR==' "$out/ncu.csv" >&2
    exit 1
fi
at=$(head -n 1 "$out/calls.txt")
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "counters of one call $at (Nsight Compute on $gpu; yours and the baseline measured now):"
tail -n +2 "$out/calls.txt" >"$out/names.txt"
awk -v counters="$out/counters.txt" -v names="$out/names.txt" -v reference="$reference" \
    -v record="${RECORD:+$out/record.txt}" -f grader/predict/counters.awk "$out/ncu.csv"
if [ -n "${RECORD:-}" ]; then
    { echo "# $submission on $gpu, $(date -u +%F), $at"; cat "$out/record.txt"; } >"$reference"
    echo "recorded as the reference's figures: $reference"
fi
