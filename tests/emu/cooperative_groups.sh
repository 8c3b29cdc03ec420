# tests/emu/cooperative_groups.sh: cooperative groups in the CPU emulation.
# Sourced by run.sh once the runtime is built: it uses run.sh's build, here,
# root and emu folders and its pass, fail and runs_as.

# ---------------------------------------------------------------- what is emulated
bin=$build/cooperative_groups
if "$emu/emucc" -B "$build" -Wall -Wextra -Werror "$here/cooperative_groups.cu" -o "$bin" \
    >"$bin.compile.log" 2>&1; then
    "$bin" >"$bin.out" 2>&1
    status=$?
    grep -E '^(PASS|FAIL) ' "$bin.out" | sed 's/^\(PASS\|FAIL\) /\1 cg_/'
    grep -q '^FAIL ' "$bin.out" && failed=1
    if [ $status -ne 0 ] && ! grep -q '^FAIL ' "$bin.out"; then
        fail cg_program "exited with status $status: $(tail -n 1 "$bin.out")"
    fi
else
    fail cg_program "does not compile: $(grep -m 1 error "$bin.compile.log")"
fi

# misuse NAME STATUS PATTERN...: "cooperative_groups NAME" exits with STATUS
# and says every PATTERN.
misuse() { runs_as "cg_$1" "$bin" "$@"; }
misuse bad_dynamic_tile 86 "emulator: cudaErrorIllegalInstruction" "tiled_partition(group, n) with n not a power of two" \
    "in kernel bad_dynamic_tile"
deadlock_line=$(grep -n 'DEADLOCK-LINE' "$here/cooperative_groups.cu" | cut -d: -f1)
misuse tile_deadlock 0 "deadlock in block (0,0,0) of kernel tile_deadlock" \
    "cooperative_groups.cu:$deadlock_line)" "kernel finished: cudaErrorLaunchFailure"

# ---------------------------------------------------------------- what is not
# lacks NAME MACRO MARK: compiled with -DMACRO the file must fail, every
# error must carry MARK, and grader/build.c must list MARK, so the grader
# sends such a file to a GPU (exit 3) instead of failing it.
src=$here/cooperative_groups_unsupported.cu
lacks() {
    local name=$1 macro=$2 mark=$3 log=$build/cg_lacks_$1.log
    if "$emu/emucc" -B "$build" "-D$macro" "$src" -o "$build/cg_lacks_$name" >"$log" 2>&1; then
        fail "cg_lacks_$name" "compiled, but the emulation cannot run it"
    elif ! grep -q "error" "$log" || grep "error" "$log" | grep -qvF -- "$mark"; then
        fail "cg_lacks_$name" "an error without the mark $mark: $(grep "error" "$log" | grep -vF -- "$mark" | head -n 1)"
    elif ! sed -n '/EMULATION_LACKS\[\] = {/,/^};/p' "$root/grader/build.c" | grep -qF -- "\"$mark\""; then
        fail "cg_lacks_$name" "grader/build.c's EMULATION_LACKS has no row for $mark"
    else
        pass "cg_lacks_$name"
    fi
}
if "$emu/emucc" -B "$build" -Wall -Wextra -Werror "$src" -o "$build/cg_lacks_none" >"$build/cg_lacks_none.log" 2>&1; then
    pass cg_lacks_nothing_without_a_use
else
    fail cg_lacks_nothing_without_a_use "does not compile: $(grep -m 1 error "$build/cg_lacks_none.log")"
fi
lacks grid_sync USES_GRID_SYNC CUDA_EMU_LACKS_GRID_SYNC &
lacks cooperative_launch USES_COOPERATIVE_LAUNCH CUDA_EMU_LACKS_GRID_SYNC &
wait
lacks coalesced_threads USES_COALESCED_THREADS CUDA_EMU_LACKS_COALESCED_GROUPS &
lacks large_tile USES_LARGE_TILE CUDA_EMU_LACKS_LARGE_TILES &
wait
lacks split_barrier USES_SPLIT_BARRIER CUDA_EMU_LACKS_SPLIT_BARRIERS &
lacks cluster USES_CLUSTER CUDA_EMU_LACKS_CLUSTERS &
wait
lacks scan USES_SCAN CUDA_EMU_LACKS_CG_SCAN &
lacks memcpy_async USES_MEMCPY_ASYNC CUDA_EMU_LACKS_CG_MEMCPY_ASYNC &
wait
