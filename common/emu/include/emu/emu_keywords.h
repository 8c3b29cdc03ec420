/* CUDA declaration specifiers as seen by the host compiler.
 * Every function becomes an ordinary C++ function; the emulator decides at
 * launch time which thread runs it. Kernels, device functions and device
 * variables get protected visibility: nothing changes for the program, but
 * the grader (grader/object_rules.c) can tell them from host code that
 * should have been static, as it can from nvcc's stubs on the GPU. */
#ifndef EMU_KEYWORDS_H
#define EMU_KEYWORDS_H

#define __global__ __attribute__((visibility("protected")))
#define __device__ __attribute__((visibility("protected")))
#define __host__
#define __constant__ __attribute__((visibility("protected")))
#define __managed__
#define __grid_constant__
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

/* The rewriter (emu_rewrite) turns every __shared__ declaration it sees into a
 * guarded per-block allocation.  This fallback only keeps declarations it
 * cannot see (inside macros, in headers that were not rewritten) compiling. */
#define __shared__ static

/* Exit status of a process whose kernel faulted (out-of-bounds or misaligned
 * access, division by zero, __trap).  Chosen to be distinct from the usual
 * 0/1/2/3 of tools and from 128+signal. */
#define CUDA_EMU_FAULT_EXIT_CODE 86

#endif
