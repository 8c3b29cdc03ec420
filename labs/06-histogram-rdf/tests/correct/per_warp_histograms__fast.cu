/* CORRECT, UNUSUAL: privatised one level further than the lesson: each
 * warp of the block counts into its own copy of the histogram in shared
 * memory (when 8 copies fit in 48 KiB, i.e. bins <= 1536; otherwise the
 * warps share one copy), and the flush adds the copies. Blocks of 256
 * threads on a 2-D grid of (particle blocks, chunks of 128 offsets), with
 * the modulo of j = (i + d) % n written out. Must pass every stage up to fast.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define WARPS 8
#define CHUNK 128

__device__ __forceinline__ int exact_bin(float4 a, float4 b, float dr)
{
    float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    float xx = __fmul_rn(dx, dx), yy = __fmul_rn(dy, dy), zz = __fmul_rn(dz, dz);
    float s = __fadd_rn(__fadd_rn(xx, yy), zz);
    return (int)__fdiv_rn(__fsqrt_rn(s), dr);
}

__global__ void __launch_bounds__(WARPS * 32)
rdf_warps(const float4 *__restrict__ pos, int n, int bins, int copies, float dr,
          unsigned int *hist)
{
    extern __shared__ unsigned int copy[]; /* copies x bins */
    for (int b = threadIdx.x; b < copies * bins; b += blockDim.x) copy[b] = 0;
    __syncthreads();

    unsigned int *mine = copy + (threadIdx.x / 32 % copies) * bins;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int first = 1 + blockIdx.y * CHUNK;
    int end = min(first + CHUNK, n / 2 + 1); /* one past the last offset */
    if (n % 2 == 0 && end == n / 2 + 1 && i >= n / 2) end--;
    if (i < n) {
        float4 a = pos[i];
        for (int d = first; d < end; d++) {
            int bin = exact_bin(a, pos[(i + d) % n], dr);
            if (bin < bins) atomicAdd(mine + bin, 1u);
        }
    }
    __syncthreads();

    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int total = 0;
        for (int c = 0; c < copies; c++) total += copy[c * bins + b];
        if (total) atomicAdd(hist + b, total);
    }
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    int copies = (size_t)WARPS * bins * sizeof(unsigned int) <= 48 * 1024 ? WARPS : 1;
    dim3 grid((n + WARPS * 32 - 1) / (WARPS * 32), (n / 2 + CHUNK - 1) / CHUNK);
    rdf_warps<<<grid, WARPS * 32, (size_t)copies * bins * sizeof(unsigned int), stream>>>(
        d_pos, n, bins, copies, dr, d_hist);
    return cudaGetLastError();
}
