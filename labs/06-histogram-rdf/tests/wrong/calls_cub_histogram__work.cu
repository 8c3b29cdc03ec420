/* WRONG ON PURPOSE: lets CUB do the counting. A kernel writes the bin of
 * every pair of one chunk of offsets to a temporary array (bins for the
 * pairs to drop), cub::DeviceHistogram::HistogramEven counts the chunk into
 * a temporary histogram, and a last kernel adds that to d_hist. The bins
 * are the contract's, so the counts are right; but shared sub-histograms
 * and atomics are this lab's lesson, and it forbids CUB. The grader finds
 * CUB's symbols in the compiled object and rejects it before it runs.
 * Must first fail the work stage.
 * EMULATION: fail skipped: the emulation has no CUB, so the file does not build there
 */
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cuda_check.h"

static const int THREADS = 256;

__device__ __forceinline__ int pair_bin(float4 a, float4 b, float dr)
{
    float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    return (int)__fdiv_rn(__fsqrt_rn(s), dr);
}

/* Sample (d - 1) * n + i: the bin of pair (i, (i + d) % n) for offset d,
 * or bins when the pair is out of range or not counted (the half offset of
 * an even n is taken for i < n/2 only). */
__global__ void bins_of_pairs(const float4 *pos, int n, int bins, float dr, int d_first,
                              int d_count, int *samples)
{
    long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= (long long)d_count * n) return;
    int i = (int)(s % n), d = d_first + (int)(s / n);
    int bin = bins;
    if (!(2 * d == n && i >= n / 2)) bin = min(pair_bin(pos[i], pos[(i + d) % n], dr), bins);
    samples[s] = bin;
}

__global__ void add_counts(const int *counts, int bins, unsigned int *hist)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < bins) hist[b] += (unsigned int)counts[b];
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, (size_t)bins * sizeof(unsigned int), stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    int per_chunk = (1 << 24) / n > 0 ? (1 << 24) / n : 1; /* offsets per chunk */
    int *samples, *counts;
    size_t temp_bytes = 0;
    CUDA_RETURN_IF_ERROR(cub::DeviceHistogram::HistogramEven(
        nullptr, temp_bytes, (int *)nullptr, (int *)nullptr, bins + 1, 0, bins,
        per_chunk * n, stream));
    void *temp;
    CUDA_RETURN_IF_ERROR(cudaMallocAsync(&samples, (size_t)per_chunk * n * sizeof(int), stream));
    CUDA_RETURN_IF_ERROR(cudaMallocAsync(&counts, (size_t)bins * sizeof(int), stream));
    CUDA_RETURN_IF_ERROR(cudaMallocAsync(&temp, temp_bytes, stream));
    for (int d = 1; d <= n / 2; d += per_chunk) {
        int count = min(per_chunk, n / 2 - d + 1);
        long long pairs = (long long)count * n;
        bins_of_pairs<<<(unsigned)((pairs + THREADS - 1) / THREADS), THREADS, 0, stream>>>(
            d_pos, n, bins, dr, d, count, samples);
        CUDA_RETURN_IF_ERROR(cub::DeviceHistogram::HistogramEven(
            temp, temp_bytes, samples, counts, bins + 1, 0, bins, (int)pairs, stream));
        add_counts<<<(bins + THREADS - 1) / THREADS, THREADS, 0, stream>>>(counts, bins, d_hist);
    }
    cudaFreeAsync(temp, stream);
    cudaFreeAsync(counts, stream);
    cudaFreeAsync(samples, stream);
    return cudaGetLastError();
}
