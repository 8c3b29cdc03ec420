/* WRONG ON PURPOSE: the bin helper returns -1 for a pair beyond the last
 * bin, "dropped", as the contract's own reference does, but the caller
 * still tests the other end, bin < bins, which -1 passes: every far pair
 * is added to d_hist[-1], just in front of the histogram. One thread per
 * (particle, offset), one global atomicAdd per pair. Every bin of d_hist
 * is right. Work's particles all lie within the histogram's reach (no far
 * pairs), so it passes; right's far-pair cases count into the guard bytes
 * in front of d_hist.
 * REPORT-SAYS: only d_hist[0 .. bins) is yours
 * EMULATION: pass fail: d_hist is 16-byte aligned in every call (the lab
 * does not misalign its pointers), so right's exact allocations in the
 * emulator have no bytes in front of it, and the emulator reports the
 * write as a fault, where the GPU run finds it in the guard bytes and
 * shows the lab's hint for writes in front
 */
#include <cuda_runtime.h>

/* The contract's bin of the pair (a, b), each operation rounded on its
 * own, never fused; -1 when the pair is beyond the last bin. */
__device__ int pair_bin(float4 a, float4 b, float dr, int bins)
{
    float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    float q = __fdiv_rn(__fsqrt_rn(s), dr);
    return q < (float)bins ? (int)q : -1;
}

/* Thread (i, d): the pair (i, (i + d) % n) for offset d = 1 + blockIdx.y;
 * the half offset of an even n only for i < n/2, so every unordered pair
 * once. */
__global__ void rdf_pairs(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int d = 1 + blockIdx.y;
    if (i >= n || (2 * d == n && i >= n / 2)) return;
    int j = i + d < n ? i + d : i + d - n;
    int bin = pair_bin(pos[i], pos[j], dr, bins);
    if (bin < bins) atomicAdd(&hist[bin], 1u); /* the mistake: -1 < bins */
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    cudaError_t status = cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream);
    if (status != cudaSuccess) return status;
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + 255) / 256, n / 2);
    rdf_pairs<<<grid, 256, 0, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
