/* WRONG ON PURPOSE: d_result is zeroed as a float2 {sum, compensation}, as
 * if a compensated sum kept its running error beside the result: the
 * memset clears 8 bytes where d_result has 4. The dot product is right;
 * work does not look beside the outputs, right finds the guard bytes
 * behind d_result overwritten.
 * REPORT-SAYS: only d_result[0] is yours to write
 * EMULATION: pass fail: the emulator refuses a memset that runs past an
 * allocation (cudaErrorInvalidValue), where on the GPU the buffer sits
 * between guard bytes of the same allocation, so the memset succeeds and
 * the guard shows the write, with the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

#define T 256

__global__ void dot_blocks(const float *x, const float *y, int n, float *result)
{
    __shared__ float s[T];
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) v += x[i] * y[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, 2 * sizeof(float), stream); /* the mistake */
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    dot_blocks<<<blocks, T, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
