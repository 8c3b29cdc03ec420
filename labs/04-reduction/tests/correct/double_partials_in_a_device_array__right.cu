/* CORRECT, in an unusual way: the arithmetic is done in double and the
 * partials live in a static __device__ array of the file's own, not in
 * d_scratch. Each thread of a fixed grid of 256 blocks converts its floats
 * to double as it adds them (a grid-stride loop), the block adds its
 * threads' doubles with a shared-memory tree, and block b stores its sum in
 * partials[b]; a second one-block launch adds the 256 partials, still in
 * double, and rounds once to float. The error is then a single rounding
 * plus n * 2^-53 relative, far inside the bound. The array is shared by
 * all calls; that is safe because the calls of one stream run in order.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS 256

static __device__ double partials[BLOCKS];

__device__ double block_total(double v)
{
    __shared__ double s[THREADS];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    return s[0];
}

__global__ void partial_sums(const float *in, int n)
{
    double v = 0.0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += BLOCKS * THREADS)
        v += (double)in[i];
    double total = block_total(v);
    if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void final_sum(float *out)
{
    double total = block_total(partials[threadIdx.x]); /* THREADS == BLOCKS */
    if (threadIdx.x == 0) *out = (float)total;
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    partial_sums<<<BLOCKS, THREADS, 0, stream>>>(d_in, n); /* n == 0: zeros */
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    final_sum<<<1, BLOCKS, 0, stream>>>(d_out);
    return cudaGetLastError();
}
