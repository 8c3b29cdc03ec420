/* WRONG ON PURPOSE: a grid-stride loop whose stride is typed
 * blockDim.x * threadIdx.x instead of blockDim.x * gridDim.x: thread 0 of
 * every block steps by 0 and stores y[i] for ever, so the first work call
 * never returns, on any GPU. The tests grade it with short time limits, so
 * the hang costs 3 s.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every loop's index move towards its end?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author):
 * replace with a hang of the lab's own that its timeout hint names.
 */
#include <cuda_runtime.h>

__global__ void @ENTRY@_kernel(const float *x, float *y, int n)
{
    int stride = blockDim.x * threadIdx.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    @ENTRY@_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
