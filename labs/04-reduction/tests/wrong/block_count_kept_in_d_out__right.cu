/* WRONG ON PURPOSE: the sum is right, but the first pass also leaves the
 * number of blocks "for the second pass" in d_out[1]: d_out holds ONE
 * float, so that is a write past its end. Work does not look beside the
 * outputs; right finds the guard bytes behind d_out overwritten.
 * REPORT-SAYS: d_out holds ONE float
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

#define T 256

__global__ void block_sums(const float *in, int n, float *part, float *out)
{
    __shared__ float s[T];
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) part[blockIdx.x] = s[0];
    if (blockIdx.x == 0 && threadIdx.x == 0) out[1] = (float)gridDim.x; /* the mistake */
}

__global__ void final_sum(const float *part, const float *out_count, float *out)
{
    __shared__ float s[T];
    int count = (int)out_count[1];
    float v = 0.0f;
    for (int i = threadIdx.x; i < count; i += T) v += part[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    block_sums<<<blocks, T, 0, stream>>>(d_in, n, d_scratch, d_out);
    final_sum<<<1, T, 0, stream>>>(d_scratch, d_out, d_out);
    return cudaGetLastError();
}
