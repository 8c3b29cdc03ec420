/* WRONG ON PURPOSE: never zeroes d_result. It holds garbage on entry (the
 * grader's NaN), and the blocks' atomicAdds add to it: NaN + anything is NaN.
 * Must first fail the work stage.
 * REPORT-SAYS: NaN: d_result holds garbage
 */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float partial[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
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
    if (n == 0) return cudaSuccess; /* and d_result is not written at all */
    int blocks = (n + 255) / 256;
    if (blocks > 1024) blocks = 1024;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
