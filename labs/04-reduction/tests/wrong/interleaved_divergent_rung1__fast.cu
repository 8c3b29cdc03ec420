/* WRONG ON PURPOSE (slow): rung 1 of the ladder, Harris's kernel 1,
 * interleaved addressing with a divergent branch and %, finished
 * recursively. Right on every input, and exactly as fast as the baseline.
 * Must first fail the fast stage. */
#include <cuda_runtime.h>

#define T 256

__global__ void block_sums(const float *in, unsigned n, float *out)
{
    __shared__ float s[T];
    unsigned tid = threadIdx.x, i = blockIdx.x * T + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = 1; step < T; step *= 2) {
        if (tid % (2 * step) == 0) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    const float *src = d_in;
    unsigned count = (unsigned)n;
    for (;;) {
        unsigned blocks = (count + T - 1) / T;
        float *dst = blocks == 1 ? d_out : d_scratch;
        block_sums<<<blocks, T, 0, stream>>>(src, count, dst);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        d_scratch += blocks;
    }
}
