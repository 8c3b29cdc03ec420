/* WRONG ON PURPOSE: the tree is built in global memory, in place in the
 * input, as on the lecture slides' first "recursive" slides: at every step
 * a[i] += a[i + step], so d_in ends up full of partial sums. The total is
 * right (work only notes the change), but d_in is read-only: the reduction
 * belongs in shared memory, registers or d_scratch. Must first fail the
 * right stage.
 * REPORT-SAYS: d_in is read-only: reduce in
 */
#include <cuda_runtime.h>

#define T 256

/* Block b reduces a[b * T .. b * T + T) in place and writes the sum to
 * out[b]. __syncthreads() orders global memory within a block. */
__global__ void in_place(float *a, int count, float *out)
{
    int tid = threadIdx.x, i = blockIdx.x * T + tid;
    for (int step = T / 2; step > 0; step /= 2) {
        if (tid < step && i + step < count) a[i] += a[i + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = a[i];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    float *src = const_cast<float *>(d_in);
    int count = n;
    for (;;) {
        int blocks = (count + T - 1) / T;
        float *dst = blocks == 1 ? d_out : d_scratch;
        in_place<<<blocks, T, 0, stream>>>(src, count, dst);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        d_scratch += blocks;
    }
}
