/* WRONG ON PURPOSE: a tree reduction in shared memory whose barrier sits
 * inside the "if (tid < step)": the threads above step skip it, so the
 * block's threads do not all reach the same __syncthreads(). That is
 * undefined behaviour (the CUDA Programming Guide allows __syncthreads() in
 * conditional code only when the condition is the same for the whole
 * block). On the H100 the barrier does not keep the threads that reached
 * it from reading partial sums the others have not written yet: the total
 * comes out thousands off at n = 65536.
 * The emulation stops at the first barrier not every thread reaches.
 * Must first fail the work stage.
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 64

__global__ void tile_sums(const float *in, int n, float *partial)
{
    __shared__ float s[T];
    int tid = threadIdx.x;
    float total = 0.0f;
    for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
        int i = base + tid;
        s[tid] = i < n ? in[i] : 0.0f;
        __syncthreads();
        for (int step = T / 2; step > 32; step /= 2) {
            if (tid < step) {
                s[tid] += s[tid + step];
                __syncthreads(); /* only the threads below step get here */
            }
        }
        if (tid < 32) {
            float v = s[tid] + s[tid + 32];
            for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
            if (tid == 0) total += v;
        }
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = total;
}

__global__ void add_partials(const float *partial, int count, float *out)
{
    if (threadIdx.x == 0) {
        float v = 0.0f;
        for (int b = 0; b < count; b++) v += partial[b];
        *out = v;
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    int blocks = (n + T - 1) / T;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    tile_sums<<<blocks, T, 0, stream>>>(d_in, n, d_scratch);
    add_partials<<<1, 32, 0, stream>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
