/* WRONG ON PURPOSE: a histogram of one input instead of the pairs: each
 * particle's distance from the origin, sqrt(x^2 + y^2 + z^2) / dr, put in
 * its bin (the textbook histogram of the lecture slides' first slide, before the
 * pairs). Every step is correctly rounded and the histogram is zeroed on
 * the stream, so it is a clean kernel that counts the wrong thing: n
 * counts in all instead of n(n-1)/2. Must first fail the work stage.
 */
#include <cuda_runtime.h>

__global__ void particle_histogram(const float4 *pos, int n, int bins, float dr,
                                   unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i];
    float s = __fadd_rn(__fadd_rn(__fmul_rn(p.x, p.x), __fmul_rn(p.y, p.y)), __fmul_rn(p.z, p.z));
    int bin = (int)__fdiv_rn(__fsqrt_rn(s), dr);
    if (bin < bins) atomicAdd(hist + bin, 1u);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream);
    if (e != cudaSuccess || n == 0 || bins == 0) return e;
    particle_histogram<<<(n + 255) / 256, 256, 0, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
