#!/usr/bin/env bash
# tests/ncu_rungs.sh LAB [SIZE ...] - what Nsight Compute counts for every
# rung of a lab's solution ladder, in the lines the CPU emulation's
# counting program prints with --raw (grader/predict/rungs.cu):
#
#   RUNG KIND REQUESTS UNITS
#
# KIND is global_load, global_store (UNITS: 32-byte sectors), shared_load
# or shared_store (UNITS: wavefronts, the passes a bank conflict adds).
# The same program runs natively: it launches an empty rung_boundary
# kernel before each rung, which cuts the profiler's list of kernels into
# rungs. Needs a GPU whose counters ncu may read. Uses NVCC, SM, BUILD and
# TRUSTED as tests/run.sh sets them. Exit 0 with the lines, 2 when a step
# failed (its log named on stderr).
set -uo pipefail
lab=$1
shift
out=$BUILD/test/ncu/$lab
mkdir -p "$out"
log=$out/log.txt
: >"$log"
flags=(-O3 -std=c++17 -arch="sm_$SM" -Igrader -Icommon)
step() { # what, command...
    local what=$1
    shift
    "$@" >>"$log" 2>&1 || { echo "ncu_rungs.sh: $what failed (see $log)" >&2; exit 2; }
}
step "building rungs.cu" "$NVCC" "${flags[@]}" -c grader/predict/rungs.cu -o "$out/rungs.o"
step "building the ladder" "$NVCC" "${flags[@]}" -c "labs/$lab/solution/ladder.cu" -o "$out/ladder.o"
step "linking" "$NVCC" -arch="sm_$SM" "$out/rungs.o" "$out/ladder.o" "$TRUSTED/$lab/lab.o" \
    "$TRUSTED/$lab/runner_read_alone.o" "$TRUSTED/$lab/spec.o" "$TRUSTED/$lab/lab_spec.o" -lcublas -o "$out/rungs"

# Per kind of access, the metric that counts its requests (a warp's load
# or store instruction; for shared memory, the instructions executed) and
# the one that counts its units (sectors; wavefronts).
kinds="global_load l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
global_store l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
shared_load smsp__sass_inst_executed_op_shared_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
shared_store smsp__sass_inst_executed_op_shared_st.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
metrics=$(echo "$kinds" | awk '{ printf "%s%s,%s", (NR > 1 ? "," : ""), $2, $3 }')
# The program prints the rungs' names in order; ncu's own lines start "==".
# Counts do not depend on the clocks, which ncu leaves as it finds them.
# Beside gradings (make test), GPU_HOLD names tests/gpu_hold.c's program
# and GPU_LOCK_DIR their lock folder: the GPU is then held alone while ncu
# runs, so no timing sees it and no other kernel mixes into its counters.
hold=()
[ -z "${GPU_HOLD:-}" ] || hold=("$GPU_HOLD" exclusive "$GPU_LOCK_DIR")
"${hold[@]}" ncu --clock-control none --metrics "$metrics" --export "$out/report" --force-overwrite \
    "$out/rungs" "$@" >"$out/run.txt" 2>&1 ||
    { echo "ncu_rungs.sh: profiling failed (see $out/run.txt)" >&2; exit 2; }
grep -vE '^==' "$out/run.txt" | grep -E '^[A-Za-z0-9_]+$' >"$out/names.txt"
ncu --import "$out/report.ncu-rep" --csv --page raw >"$out/raw.csv" 2>>"$log" ||
    { echo "ncu_rungs.sh: reading the report failed (see $log)" >&2; exit 2; }
awk -v names="$out/names.txt" -v kinds="$kinds" <"$out/raw.csv" \
    '
    BEGIN { while ((getline line < names) > 0) name[++n] = line
            k = split(kinds, w, /[ \n]+/) / 3
            for (i = 1; i <= k; i++) { kind[i] = w[3 * i - 2]; req[i] = w[3 * i - 1]; unit[i] = w[3 * i] } }
    # Every field is quoted: strip the outer quotes, split on ",".
    { line = $0; sub(/^"/, "", line); sub(/"$/, "", line); f = split(line, v, "\",\"") }
    !header { for (i = 1; i <= f; i++) col[v[i]] = i; header = 1; next }
    v[col["Kernel Name"]] == "" || v[col["ID"]] !~ /^[0-9]+$/ { next } # the units row
    { kernel = v[col["Kernel Name"]]
      if (kernel ~ /^rung_boundary/) { rung++; next }
      for (j = 1; j <= k; j++) {
          r = v[col[req[j]]]; u = v[col[unit[j]]]; gsub(/,/, "", r); gsub(/,/, "", u)
          sum_req[rung, j] += r; sum_unit[rung, j] += u } }
    END { for (i = 1; i <= rung; i++)
              for (j = 1; j <= k; j++)
                  printf "%s %s %.0f %.0f\n", name[i], kind[j], sum_req[i, j], sum_unit[i, j] }'
