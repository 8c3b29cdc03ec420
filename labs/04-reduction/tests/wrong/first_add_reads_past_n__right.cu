/* WRONG ON PURPOSE: the first add during the load guards only the first of
 * its two elements; in[i + 256] is read even past the end of the array.
 * Work sizes are multiples of 512, where that never happens. At odd sizes
 * the stray reads land in the bytes after the array: the grader's guard
 * bytes there read as -2.9e-16, which vanishes next to values around 1 but
 * not next to the sum of tiny values (n = 33, values near 2^-100). Must
 * first fail the right stage. The cure: if (i + 256 < n) before the second
 * load. */
#include <cuda_runtime.h>

#define T 256

__global__ void sum_into(const float *in, int n, float *out)
{
    __shared__ float s[T];
    int tid = threadIdx.x, i = blockIdx.x * 2 * T + tid;
    float v = i < n ? in[i] : 0.0f;
    v += in[i + T]; /* unguarded */
    s[tid] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, s[0]);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    sum_into<<<(n + 2 * T - 1) / (2 * T), T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
