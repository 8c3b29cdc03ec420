/* CORRECT, in an unusual way: one block of 1024 threads does everything. A
 * grid-stride loop (the stride is just the block) sums into registers, a
 * shared-memory tree finishes, thread 0 writes d_out; n == 0 needs no
 * special case (the loop adds nothing and 0 is written). One SM out of 132
 * cannot keep enough loads in flight to approach copy bandwidth, so it is
 * right but slow: it must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define T 1024

__global__ void one_block(const float *in, int n, float *out)
{
    __shared__ float s[T];
    int tid = threadIdx.x;
    float v = 0.0f;
    for (int i = tid; i < n; i += T) v += in[i];
    s[tid] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) *out = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    one_block<<<1, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
