/* WRONG ON PURPOSE: every block counts into a sub-histogram in shared
 * memory with one spare counter, sub[bins], for the pairs beyond the last
 * bin: atomicAdd(&sub[min(bin, bins)], 1) needs no branch. The counting is
 * right, but the flush loop runs to b <= bins and adds the spare counter to
 * d_hist[bins], one past the end. Every bin of d_hist is right. Work's
 * particles all lie within the histogram's reach (no far pairs: the spare
 * counter stays 0 and is never added), so it passes; right's far-pair
 * cases add it into the guard bytes behind d_hist.
 * REPORT-SAYS: a pair beyond the last bin was counted past the end
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

#define THREADS 256 /* particles per block (x) */
#define OFFSETS 64  /* offsets per block (y) */

/* The contract's bin: each operation rounded on its own, never fused. */
__device__ int pair_bin(float4 a, float4 b, float dr)
{
    float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    return (int)__fdiv_rn(__fsqrt_rn(s), dr);
}

/* Block (bx, by): particles 256 bx .. 256 bx + 255, offsets
 * 1 + 64 by .. 64 by + 64; pair (i, (i + d) % n), the half offset of an
 * even n for i < n/2 only, so every unordered pair once. */
__global__ void rdf_kernel(const float4 *pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[]; /* bins + 1 counters */
    int t = threadIdx.x;
    for (int b = t; b <= bins; b += THREADS) sub[b] = 0;
    __syncthreads();

    int i = blockIdx.x * THREADS + t;
    if (i < n) {
        float4 a = pos[i];
        int half = n / 2, d0 = 1 + blockIdx.y * OFFSETS;
        int last = min(d0 + OFFSETS - 1, half);
        if (2 * last == n && i >= half) last--;
        for (int d = d0; d <= last; d++) {
            int j = i + d < n ? i + d : i + d - n;
            int bin = pair_bin(a, pos[j], dr);
            atomicAdd(&sub[min(bin, bins)], 1u); /* far pairs: the spare counter */
        }
    }
    __syncthreads();

    /* The mistake: <= flushes the spare counter too, to hist[bins]. */
    for (int b = t; b <= bins; b += THREADS) {
        unsigned int c = sub[b];
        if (c) atomicAdd(&hist[b], c);
    }
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    cudaError_t status = cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream);
    if (status != cudaSuccess) return status;
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + THREADS - 1) / THREADS, (n / 2 + OFFSETS - 1) / OFFSETS);
    size_t shared = (size_t)(bins + 1) * sizeof(unsigned int);
    rdf_kernel<<<grid, THREADS, shared, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
