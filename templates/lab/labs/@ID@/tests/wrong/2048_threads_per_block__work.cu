/* WRONG ON PURPOSE: launched with 2048 threads per block, as if more threads
 * in a block meant more parallelism. A block holds at most 1024 threads, so
 * the launch is refused and cudaGetLastError says so; y is never written.
 * The parallelism comes from the number of blocks.
 * Must first fail the work stage.
 * REPORT-SAYS: a launch was refused: at most 1024 threads per block
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author): keep
 * a refused launch among the lab's own mistakes (the facts part asks for
 * one file that shows the lab's launch_error hint). */
#include <cuda_runtime.h>

__global__ void @ENTRY@_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    @ENTRY@_kernel<<<(n + 2047) / 2048, 2048, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
