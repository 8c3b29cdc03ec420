/* Lab 06's ladder: the radial distribution function from the lecture slides' naive
 * kernel to the reference. `make ladder LAB=06` checks every rung on fresh
 * inputs, then times them all, alternating, on the lecture slides' size: n = 44028
 * particles, 969 million pairs, 512 bins.
 *
 * Reading the table: the "Gpairs/s" column is billions of pairs per
 * second. The speedup over one CPU core
 * (the lecture's result slide) is 8.4 s (measured on the H100's host) divided by
 * a rung's time.
 *
 * The lesson: the output is where the trouble is. Every pair adds one to a
 * counter chosen by the data, so the writes cannot be ordered or coalesced
 * and must be atomic. Global atomics on a few hundred counters (v1, v2's
 * flushes) queue in the L2 cache; a sub-histogram per block in shared
 * memory (v3) takes the collisions close to the SM and sends one global
 * atomic per bin per block; staging the positions (v5) leaves the
 * arithmetic of the exact distance as the cost.
 *
 * The CUB rung materialises every pair's bin (4 bytes per pair: 3.9 GB at
 * the timed size, allocated once) and hands them to
 * cub::DeviceHistogram::HistogramEven: what a library can do for the
 * histogram half of the problem, and what writing the pairs out costs. It
 * is left out of the CPU emulation, which has no CUB.
 */
#include "rdf.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

#ifndef CUDA_EMU
#include <cub/device/device_histogram.cuh>
#endif

static float ladder_dr(const int64_t *dims) { return (float)dims[2] / 1024.0f; }

/* ---- v1: one launch per offset, global atomics (the baseline) ----------- */

/* Thread i of launch d: the pair (i, (i + d) % n), one atomicAdd in global
 * memory. n/2 launches of n threads; a modulo per pair; every pair an
 * atomic on one of `bins` global counters, which the L2 performs one at a
 * time per address. (The same kernel is the fast stage's baseline, in
 * labs/06-histogram-rdf/trusted/lab.cu.) */
__global__ void rdf_v1_global_atomics(const float4 *pos, int n, int d, int count, float dr,
                                      int bins, unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    int bin = pair_bin(pos[i], pos[(i + d) % n], dr);
    if (bin < bins) atomicAdd(hist + bin, 1u);
}

/* For an even n the half offset n/2 meets each pair twice: count it for
 * i < n/2 only. */
static int pairs_at_offset(int n, int d) { return 2 * d == n ? n / 2 : n; }

static int v1_launch_per_offset_global_atomics(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0], bins = (int)dims[1];
    cudaStream_t st = (cudaStream_t)s;
    unsigned int *hist = (unsigned int *)d[1];
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), st));
    if (bins == 0) return cudaSuccess;
    for (int off = 1; off <= n / 2; off++) {
        int count = pairs_at_offset(n, off);
        rdf_v1_global_atomics<<<(count + 255) / 256, 256, 0, st>>>(
            (const float4 *)d[0], n, off, count, ladder_dr(dims), bins, hist);
    }
    return cudaGetLastError();
}

/* ---- v2: one launch per offset, shared sub-histograms ------------------- */

/* The lecture slides' "optimised 1": the same one pair per thread and launch per
 * offset, but each block counts into a histogram in shared memory and
 * adds its non-zero bins to the global one at the end. In 2010 global
 * atomics were so slow that this won 8x. Here a block has only 256 pairs
 * for up to `bins` counters to zero and flush, so the flush sends almost
 * as many global atomics as v1 did, plus two barriers per block: the
 * sub-histogram pays only when each block counts many pairs (v3). */
__global__ void rdf_v2_shared_per_offset(const float4 *pos, int n, int d, int count, float dr,
                                         int bins, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        int bin = pair_bin(pos[i], pos[(i + d) % n], dr);
        if (bin < bins) atomicAdd(sub + bin, 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(hist + b, sub[b]);
}

static int v2_launch_per_offset_shared(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0], bins = (int)dims[1];
    cudaStream_t st = (cudaStream_t)s;
    unsigned int *hist = (unsigned int *)d[1];
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), st));
    if (bins == 0) return cudaSuccess;
    for (int off = 1; off <= n / 2; off++) {
        int count = pairs_at_offset(n, off);
        rdf_v2_shared_per_offset<<<(count + 255) / 256, 256, bins * sizeof(unsigned int), st>>>(
            (const float4 *)d[0], n, off, count, ladder_dr(dims), bins, hist);
    }
    return cudaGetLastError();
}

/* ---- v3: the full-problem kernel ---------------------------------------- */

/* One launch for all pairs. A 2-D grid: blockIdx.x picks 256 particles,
 * blockIdx.y a chunk of 256 offsets; thread t keeps its particle in
 * registers and walks the chunk, reading each partner from global memory
 * (neighbouring threads read neighbouring float4s, so the loads are
 * coalesced and mostly hit L1), the wrap-around as a subtraction instead
 * of a modulo. 65 thousand pairs per block into its shared histogram, one
 * global atomic per non-zero bin at the end. */
__global__ void __launch_bounds__(256)
rdf_v3_full_problem(const float4 *__restrict__ pos, int n, int bins, float dr,
                    unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = pos[i];
        int d0 = 1 + blockIdx.y * 256, last = min(d0 + 255, n / 2);
        if (2 * last == n && i >= n / 2) last--;
        int j = i + d0 >= n ? i + d0 - n : i + d0;
        for (int d = d0; d <= last; d++) {
            int bin = pair_bin(a, pos[j], dr);
            if (bin < bins) atomicAdd(sub + bin, 1u);
            if (++j == n) j = 0;
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(hist + b, sub[b]);
}

static int v3_full_problem_kernel(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0], bins = (int)dims[1];
    cudaStream_t st = (cudaStream_t)s;
    unsigned int *hist = (unsigned int *)d[1];
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), st));
    if (n < 2 || bins == 0) return cudaSuccess;
    dim3 grid((n + 255) / 256, (n / 2 + 255) / 256);
    rdf_v3_full_problem<<<grid, 256, bins * sizeof(unsigned int), st>>>(
        (const float4 *)d[0], n, bins, ladder_dr(dims), hist);
    return cudaGetLastError();
}

/* ---- v4: a sub-histogram per warp --------------------------------------- */

/* v3 with privatisation one level further: each of the 8 warps counts
 * into its own copy, so atomics of different warps never meet on one
 * address; the copies are added at the flush. It needs 8x the shared
 * memory (16 KiB at 512 bins; above 1536 bins it would not fit in 48 KiB,
 * so it falls back to one copy per block) and zeroing and flushing 8x the
 * counters. On recent GPUs shared atomics of different warps do not
 * serialise much, so whether this wins is a measurement, not a given. */
#define V4_WARPS 8
__global__ void __launch_bounds__(256)
rdf_v4_per_warp(const float4 *__restrict__ pos, int n, int bins, int copies, float dr,
                unsigned int *hist)
{
    extern __shared__ unsigned int sub[]; /* copies x bins */
    for (int b = threadIdx.x; b < copies * bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();
    unsigned int *mine = sub + (threadIdx.x / 32) % copies * bins;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = pos[i];
        int d0 = 1 + blockIdx.y * 256, last = min(d0 + 255, n / 2);
        if (2 * last == n && i >= n / 2) last--;
        int j = i + d0 >= n ? i + d0 - n : i + d0;
        for (int d = d0; d <= last; d++) {
            int bin = pair_bin(a, pos[j], dr);
            if (bin < bins) atomicAdd(mine + bin, 1u);
            if (++j == n) j = 0;
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int c = 0;
        for (int w = 0; w < copies; w++) c += sub[w * bins + b];
        if (c) atomicAdd(hist + b, c);
    }
}

static int v4_per_warp_histograms(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0], bins = (int)dims[1];
    cudaStream_t st = (cudaStream_t)s;
    unsigned int *hist = (unsigned int *)d[1];
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), st));
    if (n < 2 || bins == 0) return cudaSuccess;
    int copies = (size_t)V4_WARPS * bins * sizeof(unsigned int) <= 48 * 1024 ? V4_WARPS : 1;
    dim3 grid((n + 255) / 256, (n / 2 + 255) / 256);
    rdf_v4_per_warp<<<grid, 256, (size_t)copies * bins * sizeof(unsigned int), st>>>(
        (const float4 *)d[0], n, bins, copies, ladder_dr(dims), hist);
    return cudaGetLastError();
}

/* ---- v5: the reference (rdf.cu) ----------------------------------------- */

static int v5_staged_positions(void *const *d, const int64_t *dims, void *s)
{
    return rdf((const float4 *)d[0], (int)dims[0], (int)dims[1], ladder_dr(dims),
               (unsigned int *)d[1], (cudaStream_t)s);
}

/* ---- CUB on precomputed bins -------------------------------------------- */

#ifndef CUDA_EMU
/* Pass 1 writes every pair's bin (or `bins`, which CUB drops as out of
 * range) to a scratch array, pair p = (d - 1) n + i for the full offsets
 * and the half offset's n/2 pairs last; pass 2 is HistogramEven with
 * levels 0, 1, ..., bins. */
__global__ void rdf_bins_of_pairs(const float4 *__restrict__ pos, int n, int bins, float dr,
                                  long long pairs, int *out)
{
    long long full = (long long)n * ((n - 1) / 2);
    for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < pairs;
         p += (long long)gridDim.x * blockDim.x) {
        int d = p < full ? (int)(p / n) + 1 : n / 2;
        int i = p < full ? (int)(p % n) : (int)(p - full);
        int j = i + d >= n ? i + d - n : i + d;
        int bin = pair_bin(pos[i], pos[j], dr);
        out[p] = bin < bins ? bin : bins;
    }
}

static int vendor_cub_histogram_even(void *const *d, const int64_t *dims, void *s)
{
    /* The scratch is allocated on first use and grown when a larger n
     * comes: the ladder checks at a small n, so the first call at the timed
     * size allocates, during the warm-up, and timed calls never do. */
    static int *bins_of = NULL;
    static void *temp = NULL;
    static size_t bins_cap = 0, temp_cap = 0;
    int n = (int)dims[0], bins = (int)dims[1];
    cudaStream_t st = (cudaStream_t)s;
    unsigned int *hist = (unsigned int *)d[1];
    long long pairs = (long long)n * (n - 1) / 2;
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), st));
    if (pairs == 0 || bins == 0) return cudaSuccess;
    if ((size_t)pairs > bins_cap) {
        cudaFree(bins_of);
        bins_of = NULL;
        bins_cap = 0;
        CUDA_RETURN_IF_ERROR(cudaMalloc(&bins_of, (size_t)pairs * sizeof(int)));
        bins_cap = (size_t)pairs;
    }
    size_t temp_bytes = 0;
    CUDA_RETURN_IF_ERROR(cub::DeviceHistogram::HistogramEven(
        nullptr, temp_bytes, bins_of, hist, bins + 1, 0, bins, pairs, st));
    if (temp_bytes > temp_cap) {
        cudaFree(temp);
        temp = NULL;
        temp_cap = 0;
        CUDA_RETURN_IF_ERROR(cudaMalloc(&temp, temp_bytes));
        temp_cap = temp_bytes;
    }
    rdf_bins_of_pairs<<<132 * 16, 256, 0, st>>>((const float4 *)d[0], n, bins, ladder_dr(dims),
                                                pairs, bins_of);
    CUDA_RETURN_IF_ERROR(cudaGetLastError());
    /* HistogramEven zeroes the histogram itself; the memset above matters
     * for the early returns. */
    return cub::DeviceHistogram::HistogramEven(temp, temp_bytes, bins_of, hist, bins + 1, 0,
                                               bins, pairs, st);
}
#endif

static const lab_rung RUNGS[] = {
    {"v1_launch_per_offset_global_atomics", v1_launch_per_offset_global_atomics},
    {"v2_launch_per_offset_shared", v2_launch_per_offset_shared},
    {"v3_full_problem_kernel", v3_full_problem_kernel},
    {"v4_per_warp_histograms", v4_per_warp_histograms},
#ifndef CUDA_EMU
    {"vendor_cub_histogram_even", vendor_cub_histogram_even},
#endif
    {"v5_staged_positions", v5_staged_positions},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
