/* CORRECT: the skeleton's plan carried out (rung 4 of the ladder): first add
 * during the load, sequential addressing in shared memory, one launch per
 * level with the block sums in d_scratch. Right on every input, about a
 * third of copy bandwidth: it must pass every stage up to and including
 * right. */
#include <cuda_runtime.h>

#define THREADS 256

__global__ void block_sums(const float *in, int count, float *partial)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * 2 * THREADS + tid;
    float v = i < count ? in[i] : 0.0f;
    if (i + THREADS < count) v += in[i + THREADS];
    s[tid] = v;
    __syncthreads();
    for (int step = THREADS / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    const float *src = d_in;
    int count = n;
    for (;;) {
        int blocks = (count + 2 * THREADS - 1) / (2 * THREADS);
        float *dst = blocks == 1 ? d_out : d_scratch;
        block_sums<<<blocks, THREADS, 0, stream>>>(src, count, dst);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        d_scratch += blocks;
    }
}
