#!/usr/bin/env bash
# tests/emu/run.sh [BUILD_DIR]: builds the CPU emulation (common/emu) with
# gcc/g++ into BUILD_DIR (default /tmp/emu-test-build) and tests it.  Prints
# one line per case, "PASS name", "FAIL name: reason" or "SKIP name: reason",
# and exits 0 only if nothing failed.  No GPU and no nvcc needed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
emu=$root/common/emu
build=${1:-/tmp/emu-test-build}
failed=0

pass() { echo "PASS $1${2:+: $2}"; }
fail() { echo "FAIL $1: $2"; failed=1; }
skip() { echo "SKIP $1: $2"; }
# first_line FILE: the first line of a log, for a one-line reason
first_line() { grep -m1 -E 'error|Error|FAIL|emulator' "$1" 2>/dev/null || head -n1 "$1" 2>/dev/null; }

rm -rf "$build"
mkdir -p "$build"

# ---------------------------------------------------------------- build
if "$emu/build.sh" "$build" >"$build/build.log" 2>&1; then
    pass build_runtime_and_rewriter "g++ -std=c++17 -Wall -Wextra -Werror, gcc -std=c11 -Wall -Wextra -Werror"
else
    fail build_runtime_and_rewriter "$(first_line "$build/build.log")"
    exit 1
fi

# Test programs, compiled two at a time (this machine has two cores).
compile() {
    local name=$1
    shift
    "$emu/emucc" -B "$build" -Wall -Wextra -Werror "$@" -o "$build/$name" >"$build/$name.compile.log" 2>&1
}
compile semantics "$here/semantics.cu" &
compile faults "$here/faults.cu" &
wait
compile perf "$here/perf.cu" &
compile order "$here/order.cu" &
wait
"$emu/emucc" -B "$build" -Wall -Wextra "$here/rewrite_cases.cu" -o "$build/rewrite_cases" \
    >"$build/rewrite_cases.compile.log" 2>&1 &
# The portable ucontext fibers, built separately.
(EMU_FIBER_UCONTEXT=1 "$emu/build.sh" "$build/ucontext" >"$build/ucontext.build.log" 2>&1 &&
    "$emu/emucc" -B "$build/ucontext" "$here/semantics.cu" -o "$build/semantics_ucontext" \
        >>"$build/ucontext.build.log" 2>&1) &
wait

# ---------------------------------------------------------------- rewriter
rewriter=$build/emu_rewrite
cases=$here/rewrite_cases.cu
if "$rewriter" "$cases" "$build/rewrite_cases.out.cpp"; then
    out=$build/rewrite_cases.out.cpp
    if [ "$(head -n1 "$out")" = "#line 1 \"$cases\"" ] &&
        [ "$(wc -l <"$out")" -eq $(($(wc -l <"$cases") + 1)) ]; then
        pass rewrite_line_directive_and_line_count
    else
        fail rewrite_line_directive_and_line_count "missing #line 1 or the line count changed"
    fi
    # Lines without the marker "// R" must be identical; lines with it must change.
    mismatch=$(awk 'NR == FNR { input[FNR] = $0; next }
        FNR > 1 { line = FNR - 1; marked = index(input[line], "// R") > 0
          if (!marked && input[line] != $0) { print "line " line " changed: " $0; exit }
          if (marked && input[line] == $0) { print "line " line " was not rewritten: " $0; exit } }' "$cases" "$out")
    if [ -z "$mismatch" ]; then
        pass rewrite_leaves_comments_strings_and_templates_byte_for_byte
    else
        fail rewrite_leaves_comments_strings_and_templates_byte_for_byte "$mismatch"
    fi
    expected_forms=(
        'emu::launch("ns::scaled<int, 3>", [&](auto &&...emu_launch_args) { ns::scaled<int, 3>(emu_launch_args...); }, dim3(f(0, 1), 1), 4)(d, 10);'
        'emu::launch("sum_pair", [&](auto &&...emu_launch_args) { sum_pair(emu_launch_args...); }, 1, (2 * (1 + 1)), 0, 0)(d, std::pair<int, int>(1, 2), f(f(1, 2), 3));'
        'static int (&tile)[W][W + 1] = emu::shared_variable<int[W][W + 1]>("tile", [] {});'
        'static double *const &dynamic_part = emu::dynamic_shared<double>::get();'
        'static volatile int (&flags)[2] = emu::shared_variable<volatile int[2]>("flags", [] {});'
    )
    missing=""
    for form in "${expected_forms[@]}"; do
        grep -qF -- "$form" "$out" || missing="$form"
    done
    if [ -z "$missing" ]; then
        pass rewrite_launch_and_shared_forms
    else
        fail rewrite_launch_and_shared_forms "expected: $missing"
    fi
else
    fail rewrite_line_directive_and_line_count "emu_rewrite failed"
fi

if [ -x "$build/rewrite_cases" ]; then
    got=$("$build/rewrite_cases" 2>&1)
    expected='scaled 30 33
pair 9
multiline 3 4
tiles 18 33 cudaSuccess'
    if [ "$(echo "$got" | head -n4)" = "$expected" ] && echo "$got" | tail -n1 | grep -qF 'k<<<1, 1>>>(z) and __shared__ int s[3]; raw<<<1,1>>>(q) "__shared__"'; then
        pass rewrite_nested_parens_templates_multiline_run
    else
        fail rewrite_nested_parens_templates_multiline_run "unexpected output: $(echo "$got" | head -n1)"
    fi
else
    fail rewrite_nested_parens_templates_multiline_run "does not compile: $(first_line "$build/rewrite_cases.compile.log")"
fi

error_line=$(grep -n 'ERROR-LINE' "$here/rewrite_error.cu" | cut -d: -f1)
"$emu/emucc" -B "$build" "$here/rewrite_error.cu" -o "$build/rewrite_error" >"$build/rewrite_error.log" 2>&1
if grep -q "rewrite_error.cu:$error_line:[0-9]*: error: .this_name_does_not_exist" "$build/rewrite_error.log"; then
    pass rewrite_compile_errors_point_at_original_line "line $error_line"
else
    fail rewrite_compile_errors_point_at_original_line "expected rewrite_error.cu:$error_line, got: $(grep -m1 error "$build/rewrite_error.log")"
fi

"$rewriter" >/dev/null 2>&1
if [ $? -eq 2 ]; then pass rewrite_usage_error; else fail rewrite_usage_error "no arguments should exit 2"; fi

# run_self_test NAME: runs the test program NAME (built above), which prints
# its own PASS/FAIL lines; a crash without a FAIL line is a failure too.
run_self_test() {
    "$build/$1" >"$build/$1.out" 2>&1
    local status=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$build/$1.out"
    grep -q '^FAIL ' "$build/$1.out" && failed=1
    if [ $status -ne 0 ] && ! grep -q '^FAIL ' "$build/$1.out"; then
        fail "$1_program" "exited with status $status: $(tail -n1 "$build/$1.out")"
    fi
}

# ---------------------------------------------------------------- semantics
if [ -x "$build/semantics" ]; then
    run_self_test semantics
    if grep -q '^hello from the emulated thread (0,0,0)$' "$build/semantics.out"; then
        pass kernel_printf_output
    else
        fail kernel_printf_output "the kernel's printf line is missing"
    fi
else
    fail semantics_program "does not compile: $(first_line "$build/semantics.compile.log")"
fi

# ---------------------------------------------------------------- memory counters
# Compiled with GCC's -fsanitize=thread hooks, which the emulation defines
# (common/emu/src/emu_counters_hooks.cpp), and linked without TSan's runtime.
if "$build/emu_rewrite" "$here/counters.cu" "$build/counters.cu.cpp" >"$build/counters.compile.log" 2>&1 &&
    g++ -std=c++17 -O1 -fsanitize=thread -ffp-contract=off -fno-strict-aliasing -Wno-attributes \
        -iquote "$here" -I "$emu/include" -include "$emu/cuda_emu.h" -c "$build/counters.cu.cpp" \
        -o "$build/counters.o" >>"$build/counters.compile.log" 2>&1 &&
    g++ "$build/counters.o" "$build/libcudaemu.a" -lpthread -lm -o "$build/counters" \
        >>"$build/counters.compile.log" 2>&1; then
    run_self_test counters
else
    fail counters_program "does not compile: $(first_line "$build/counters.compile.log")"
fi

# ---------------------------------------------------------------- shuffled order
if [ -x "$build/order" ]; then
    default_a=$("$build/order")
    default_b=$("$build/order")
    seed_7=$(CUDA_EMU_SEED=7 "$build/order")
    in_order=$(seq -s ' ' 0 63)
    if [ "$default_a" = "$default_b" ] && [ "$default_a" != "$seed_7" ] && [ "${default_a% }" != "$in_order" ]; then
        pass thread_order_shuffled_and_reproducible_per_seed
    else
        fail thread_order_shuffled_and_reproducible_per_seed "default: $default_a / seed 7: $seed_7"
    fi
else
    fail thread_order_shuffled_and_reproducible_per_seed "does not compile: $(first_line "$build/order.compile.log")"
fi

# ---------------------------------------------------------------- faults (child processes)
# runs_as LABEL PROGRAM CASE EXPECTED_STATUS PATTERN...: runs "PROGRAM CASE"
# (a test program built above, PROGRAM.compile.log beside it); it must exit
# with EXPECTED_STATUS and print every pattern.
runs_as() {
    local label=$1 program=$2 name=$3 expected=$4
    shift 4
    if [ ! -x "$program" ]; then
        fail "$label" "does not compile: $(first_line "$program.compile.log")"
        return
    fi
    timeout 20 "$program" "$name" >"$build/$label.out" 2>&1
    local status=$?
    if [ $status -ne "$expected" ]; then
        fail "$label" "exit status $status, expected $expected: $(head -n1 "$build/$label.out")"
        return
    fi
    local pattern
    for pattern in "$@"; do
        if ! grep -qF -- "$pattern" "$build/$label.out"; then
            fail "$label" "missing '$pattern' in: $(head -n1 "$build/$label.out")"
            return
        fi
    done
    pass "$label"
}
# fault_case NAME EXPECTED_STATUS PATTERN...: runs faults NAME.
fault_case() { runs_as "fault_$1" "$build/faults" "$@"; }
fault_case global_write_past_end 86 "emulator: cudaErrorIllegalAddress" "out-of-bounds write" \
    "0 bytes past the end of a 256-byte device allocation" "by thread (32,0,0) of block (1,0,0) in kernel write_at"
fault_case global_read_far_past_end 86 "cudaErrorIllegalAddress" "out-of-bounds read" \
    "16000 bytes past the end of a 256-byte device allocation" "thread (0,0,0) of block (0,0,0)"
fault_case global_write_in_slack 86 "cudaErrorIllegalAddress" \
    "4 bytes past the end of a 400-byte device allocation was overwritten by kernel write_at"
fault_case global_write_before_start 86 "cudaErrorIllegalAddress" "4 bytes before the start of a 256-byte device allocation"
fault_case shared_write_past_end 86 "cudaErrorIllegalAddress" "past the end of the 256-byte __shared__ variable 'tile'" \
    "by thread (64,0,0) of block (0,0,0) in kernel shared_overflow"
fault_case dynamic_shared_past_end 86 "cudaErrorIllegalAddress" "dynamic shared memory" \
    "by thread (32,0,0) of block (0,0,0) in kernel dynamic_overflow"
fault_case misaligned_float4 86 "emulator: cudaErrorMisalignedAddress" "16-byte vector access" \
    "in kernel misaligned_vector"
fault_case misaligned_float4_assigned 86 "emulator: cudaErrorMisalignedAddress" "16-byte vector access" \
    "in kernel misaligned_vector_assigned"
fault_case use_after_free 86 "cudaErrorIllegalAddress" "already freed with cudaFree"
fault_case null_pointer 86 "cudaErrorIllegalAddress" "a null pointer" "in kernel write_at"
fault_case trap 86 "cudaErrorIllegalInstruction" "__trap() called at"
fault_case integer_division_by_zero 86 "integer division by zero" "in kernel divide"
fault_case divergent_barrier 0 "emulator: cudaErrorLaunchFailure" "wait at different __syncthreads" \
    "faults.cu:44" "faults.cu:46" "block (0,0,0)" \
    "sync=cudaErrorLaunchFailure first=cudaErrorLaunchFailure second=cudaErrorLaunchFailure malloc=cudaErrorLaunchFailure launch=cudaErrorLaunchFailure reset=cudaSuccess after_reset=cudaSuccess"
fault_case barrier_left_behind 0 "emulator: cudaErrorLaunchFailure" "faults.cu:61, which thread (16,0,0)" \
    "reached before and has now left behind" "sync=cudaErrorLaunchFailure first=cudaErrorLaunchFailure"
fault_case early_return_then_barriers 0 "sync=cudaSuccess first=cudaSuccess"
fault_case warp_deadlock 0 "emulator: cudaErrorLaunchFailure: deadlock in block (0,0,0)" "__shfl_down_sync" \
    "sync=cudaErrorLaunchFailure first=cudaErrorLaunchFailure second=cudaErrorLaunchFailure"
fault_case shuffle_from_a_missing_lane 0 "emulator: cudaErrorLaunchFailure" "__shfl_down_sync at" \
    "lane 0 of warp 0 reads lane 16, which does not exist" "sync=cudaErrorLaunchFailure"
# Seeds 1, 2, 3 and 6 end with an exit completing the shuffle (once, the
# report then came from the scheduler's own stack and crashed on a null
# thread), 4 and 5 with a reader's arrival.
for seed in 1 2 3 4 5 6; do
    CUDA_EMU_SEED=$seed runs_as "fault_shuffle_from_an_exited_lane_seed_$seed" "$build/faults" \
        shuffle_from_an_exited_lane 0 "emulator: cudaErrorLaunchFailure" \
        "lane 0 of warp 0 reads lane 16, which has already exited" "by thread (0,0,0) of block (0,0,0)" \
        "sync=cudaErrorLaunchFailure first=cudaErrorLaunchFailure"
done
# Host code is not a kernel: a plain crash (SIGSEGV), no emulator report.
# (the extra "exit" keeps bash from exec-ing, so its crash notice goes to /dev/null)
(timeout 20 "$build/faults" host_segfault >"$build/fault_host_segfault.out" 2>&1; exit $?) 2>/dev/null
status=$?
if [ $status -eq 139 ] && ! grep -q emulator "$build/fault_host_segfault.out"; then
    pass fault_host_segfault_is_a_plain_crash
else
    fail fault_host_segfault_is_a_plain_crash "exit status $status: $(head -n1 "$build/fault_host_segfault.out")"
fi

# ---------------------------------------------------------------- performance
if [ -x "$build/perf" ]; then
    perf_out=$("$build/perf")
    read -r _ add_ok add_seconds < <(echo "$perf_out" | grep '^vector_add_4M')
    read -r _ reduce_ok reduce_seconds < <(echo "$perf_out" | grep '^block_reduce_1M')
    if [ "$add_ok" = ok ] && awk "BEGIN { exit !($add_seconds < 1.0) }"; then
        pass perf_vector_add_4M_threads "$add_seconds s (limit 1 s)"
    else
        fail perf_vector_add_4M_threads "$add_ok in $add_seconds s (limit 1 s)"
    fi
    if [ "$reduce_ok" = ok ] && awk "BEGIN { exit !($reduce_seconds < 3.0) }"; then
        pass perf_block_reduce_1M_elements_1024_threads "$reduce_seconds s (limit 3 s)"
    else
        fail perf_block_reduce_1M_elements_1024_threads "$reduce_ok in $reduce_seconds s (limit 3 s)"
    fi
else
    fail perf_vector_add_4M_threads "does not compile: $(first_line "$build/perf.compile.log")"
fi

# ---------------------------------------------------------------- portable fibers
if [ -x "$build/semantics_ucontext" ]; then
    if "$build/semantics_ucontext" >"$build/semantics_ucontext.out" 2>&1; then
        pass ucontext_fibers_semantics "$(grep -c '^PASS' "$build/semantics_ucontext.out") cases"
    else
        fail ucontext_fibers_semantics "$(grep -m1 '^FAIL' "$build/semantics_ucontext.out")"
    fi
else
    fail ucontext_fibers_semantics "does not build: $(first_line "$build/ucontext.build.log")"
fi

# ---------------------------------------------------------------- directed rounding, sinpif
if "$emu/emucc" -B "$build" -frounding-math "$here/rounding.cu" -o "$build/rounding" \
    >"$build/rounding.log" 2>&1 && "$build/rounding" >>"$build/rounding.log" 2>&1; then
    pass directed_rounding_and_sinpi "$(tail -n 1 "$build/rounding.log")"
else
    fail directed_rounding_and_sinpi "$(grep -m 3 -E 'error|mode|sinpif|differ' "$build/rounding.log" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------- common/cuda_check.h
if [ -f "$root/common/cuda_check.h" ]; then
    cat >"$build/check_helper.cu" <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
#include "cuda_check.h"
__global__ void nothing() {}
int main() { nothing<<<1, 1>>>(); CUDA_CHECK(cudaGetLastError()); CUDA_CHECK(cudaDeviceSynchronize()); return 0; }
CU
    if "$emu/emucc" -B "$build" -I "$root/common" "$build/check_helper.cu" -o "$build/check_helper" \
        >"$build/check_helper.log" 2>&1 && "$build/check_helper" >>"$build/check_helper.log" 2>&1; then
        pass common_cuda_check_header
    else
        fail common_cuda_check_header "$(first_line "$build/check_helper.log")"
    fi
else
    skip common_cuda_check_header "common/cuda_check.h does not exist yet"
fi

# ---------------------------------------------------------------- cooperative groups
. "$here/cooperative_groups.sh"

# ---------------------------------------------------------------- half precision and WMMA
bin=$build/wmma
if "$emu/emucc" -B "$build" -Wall -Wextra -Werror -iquote "$here" "$here/wmma.cu" -o "$bin" \
    >"$bin.compile.log" 2>&1; then
    "$bin" >"$bin.out" 2>&1
    status=$?
    grep -E '^(PASS|FAIL) ' "$bin.out" | sed 's/^\(PASS\|FAIL\) /\1 wmma_/'
    grep -q '^FAIL ' "$bin.out" && failed=1
    if [ $status -ne 0 ] && ! grep -q '^FAIL ' "$bin.out"; then
        fail wmma_program "exited with status $status: $(tail -n 1 "$bin.out")"
    fi
else
    fail wmma_program "does not compile: $(grep -m 1 error "$bin.compile.log")"
fi
runs_as wmma_odd_ldm_traps "$bin" odd_ldm 86 "ldm is not a multiple of 16 bytes" "in kernel bad_load"
runs_as wmma_misaligned_pointer_traps "$bin" misaligned 86 "not 32-byte (256-bit) aligned"
log=$build/wmma_lacks_shape.log
if "$emu/emucc" -B "$build" -DUSES_WMMA_32X8 -iquote "$here" "$here/wmma.cu" -o "$build/wmma_lacks" >"$log" 2>&1; then
    fail wmma_lacks_other_shapes "a 32 x 8 x 16 fragment compiled"
elif ! grep "error" "$log" | grep -qF CUDA_EMU_LACKS_WMMA_SHAPE ||
    ! sed -n '/EMULATION_LACKS\[\] = {/,/^};/p' "$root/grader/build.c" | grep -qF '"CUDA_EMU_LACKS_WMMA_SHAPE"'; then
    fail wmma_lacks_other_shapes "no CUDA_EMU_LACKS_WMMA_SHAPE error, or grader/build.c does not list it"
else
    pass wmma_lacks_other_shapes
fi

exit $failed
