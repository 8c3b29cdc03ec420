/* WRONG ON PURPOSE: the grid-stride loop adds gridDim.x * threadIdx.x
 * instead of gridDim.x * blockDim.x. For thread 0 of every block that is
 * 0: its i never moves, i < n stays true, and the loop never ends. Every
 * block has a thread 0 with i < n, so the first work call (n = 1024)
 * hangs, on every GPU and whatever the order the blocks run in.
 * Everything else is right: d_result zeroed on the stream, a block's sum
 * by a tree in shared memory, one atomicAdd per block.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: a grid-stride loop adds gridDim.x * blockDim.x
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float partial[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * threadIdx.x)
        sum += x[i] * y[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
