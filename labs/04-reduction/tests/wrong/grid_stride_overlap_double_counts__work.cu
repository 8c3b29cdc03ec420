/* WRONG ON PURPOSE: the grid-stride loop steps by blockDim.x instead of
 * gridDim.x * blockDim.x, so every block walks from its own start to the
 * end of the array: element i is added by every block that starts at or
 * before it. Must first fail the work stage.
 * SMALLEST: the overlap needs a second block, more than 256 elements
 */
#include <cuda_runtime.h>

#define T 256

__global__ void sum_into(const float *in, int n, float *out)
{
    __shared__ float warp_sums[T / 32];
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += T) v += in[i]; /* stride too short */
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int w = 0; w < T / 32; w++) total += warp_sums[w];
        atomicAdd(out, total);
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    sum_into<<<blocks, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
