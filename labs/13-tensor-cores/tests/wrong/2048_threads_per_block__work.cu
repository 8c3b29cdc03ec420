/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more warps in a block meant more tensor-core work at once. A
 * block holds at most 1024 threads (and this kernel promised the compiler
 * 256 with __launch_bounds__), so the launch is refused and
 * cudaGetLastError says so; C keeps the NaN it held on entry.
 * Must first fail the work stage.
 * REPORT-SAYS: a launch was refused: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<grid, THREADS, 0, stream>>>/<<<grid, 8 * THREADS, 0, stream>>>/
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
