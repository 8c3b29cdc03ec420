/* Lab 09's ladder: the lecture slides' clustering kernel ("Occupation optimisée de
 * registres"), rung by rung. Slowest first; `make ladder LAB=09` checks
 * every rung and times it on the fast stage's case (4M points x 4 centers
 * x 16 coordinates, squared Euclidean).
 *
 * Registers per thread, from `nvcc -O3 -arch=sm_90 -Xptxas -v` (CUDA 13.0),
 * and the occupancy they allow at the block size each rung launches with
 * (65536 registers per SM, allocated per warp in units of 256, at most 64
 * warps = 2048 threads per SM):
 *
 *   rung                            registers (sq. Euclidean kernel)  block  warps/SM
 *   v1 switch, 512 threads          96 (one kernel for all metrics)    512    16 (25%)
 *   v2 switch, occupancy API        96                                 672    21 (33%)
 *   v3 template, 512 threads        32 (DTW's instance: 93)            512    64 (100%)
 *   v4 template, bounds + API       32                                1024    64 (100%)
 *   v5 row in registers             40 (cosine 47, DTW 93)             256    48 (75%)
 *   v6 reference: two points/thread 54 (cosine 62; DTW as v5)          256    32 (50%)
 *
 * The lecture slides' two remedies are rungs 2 and 3: "reduce the block size, and
 * look for the best one again whenever a metric is added" (the occupancy
 * API does the looking), and "compile only the metric you run" (#ifdef or
 * a template). GPU timings: see labs/09-occupancy/README.md.
 */
#include "distances.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* ---- v1: the lab's baseline: one kernel, a run-time switch, 512 threads --
 * Thread i walks over the k centers and switches on the metric for each
 * (the lecture slides' `switch (metric)` inside the loop over columns). Right for
 * every metric, but compiled once for all: ptxas gives the kernel the
 * registers its heaviest path needs, DTW's 65-float band, 96 per thread,
 * and the squared Euclidean distance runs with them. 512 x 96 registers =
 * 49152: one block, 16 warps per SM. The loads of the light metric stream
 * from DRAM, and 16 warps keep too few of them in flight. The kernel is
 * trusted/lab.cu's, launched here as the fast stage launches it. */
__global__ void baseline_distances_switch(const float *points, const float *centers, int n, int k,
                                          int dim, int metric, float *out);
static int v1_switch_512(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* The block size of rungs 1 and 3 (the baseline's). */
static const int FIXED_THREADS = 512;

/* ---- v2: the same kernel, the block size from the occupancy API ----------
 * The lecture slides' first remedy. With 96 registers a warp takes 3072 of the
 * 65536: 21 warps fit, and 512-thread blocks use only 16 of them (a second
 * block of 16 would need 32). cudaOccupancyMaxPotentialBlockSize tries
 * every block size and should answer 672 (21 warps in one block): a third more
 * warps, still only a third of the SM's 64. */
static int v2_switch_occupancy_api(void *const *d, const int64_t *dims, void *s)
{
    static int threads = 0;
    int n = (int)dims[0], k = (int)dims[1];
    if (n == 0 || k == 0) return cudaSuccess;
    if (threads == 0) {
        int min_grid;
        cudaError_t e =
            cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, baseline_distances_switch, 0, 0);
        if (e != cudaSuccess) return e;
    }
    baseline_distances_switch<<<(n + threads - 1) / threads, threads, 0, (cudaStream_t)s>>>(
        (const float *)d[0], (const float *)d[1], n, k, (int)dims[2], (int)dims[3], (float *)d[2]);
    return cudaGetLastError();
}

/* ---- v3: one kernel per metric (template), still 512 threads -------------
 * The lecture slides' second remedy: the metric is a template parameter, each
 * instantiation holds one case, and each gets its own register count. The
 * squared Euclidean kernel needs 32 registers: 4 blocks of 512 = 64 warps,
 * the whole SM. Same loop, same loads as v1; only the registers changed. */
template <int M>
__global__ void v3_kernel(const float *__restrict__ points, const float *__restrict__ centers,
                          int n, int k, int dim, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        float r;
        if constexpr (M == DTW) {
            r = dtw(p, n, c, dim);
        } else {
            light<M> acc;
            for (int d = 0; d < dim; d++) acc.add(p[(size_t)d * n], c[d]);
            r = acc.finish();
        }
        out[(size_t)j * n + i] = r;
    }
}
template <int M> static int v3_launch(void *const *d, const int64_t *dims, cudaStream_t st)
{
    int n = (int)dims[0];
    v3_kernel<M><<<(n + FIXED_THREADS - 1) / FIXED_THREADS, FIXED_THREADS, 0, st>>>(
        (const float *)d[0], (const float *)d[1], n, (int)dims[1], (int)dims[2], (float *)d[2]);
    return cudaGetLastError();
}
static int v3_template_512(void *const *d, const int64_t *dims, void *s)
{
    cudaStream_t st = (cudaStream_t)s;
    if (dims[0] == 0 || dims[1] == 0) return cudaSuccess;
    switch (dims[3]) {
    case SQEUCLID: return v3_launch<SQEUCLID>(d, dims, st);
    case MANHATTAN: return v3_launch<MANHATTAN>(d, dims, st);
    case CHEBYSHEV: return v3_launch<CHEBYSHEV>(d, dims, st);
    case COSINE: return v3_launch<COSINE>(d, dims, st);
    default: return v3_launch<DTW>(d, dims, st);
    }
}

/* ---- v4: template + __launch_bounds__ + the occupancy API ---------------
 * v3's kernels, each promising the largest block it will get (1024 for the
 * light metrics, which fit in 32 registers anyway; 640 for DTW's 93), and
 * launched with the block size the API gives for each. For the squared
 * Euclidean kernel v3's 512 was already enough for 64 warps, so this rung
 * mostly shows the tools: the API answer (1024) and a promise ptxas keeps
 * without spilling. */
template <int M>
__global__ void __launch_bounds__(M == DTW ? 640 : 1024)
    v4_kernel(const float *__restrict__ points, const float *__restrict__ centers, int n, int k,
              int dim, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        float r;
        if constexpr (M == DTW) {
            r = dtw(p, n, c, dim);
        } else {
            light<M> acc;
            for (int d = 0; d < dim; d++) acc.add(p[(size_t)d * n], c[d]);
            r = acc.finish();
        }
        out[(size_t)j * n + i] = r;
    }
}
template <int M> static int v4_launch(void *const *d, const int64_t *dims, cudaStream_t st)
{
    static int threads = 0;
    if (threads == 0) {
        int min_grid;
        cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, v4_kernel<M>, 0,
                                                           M == DTW ? 640 : 1024);
        if (e != cudaSuccess) return e;
    }
    int n = (int)dims[0];
    v4_kernel<M><<<(n + threads - 1) / threads, threads, 0, st>>>(
        (const float *)d[0], (const float *)d[1], n, (int)dims[1], (int)dims[2], (float *)d[2]);
    return cudaGetLastError();
}
static int v4_template_bounds_occupancy(void *const *d, const int64_t *dims, void *s)
{
    cudaStream_t st = (cudaStream_t)s;
    if (dims[0] == 0 || dims[1] == 0) return cudaSuccess;
    switch (dims[3]) {
    case SQEUCLID: return v4_launch<SQEUCLID>(d, dims, st);
    case MANHATTAN: return v4_launch<MANHATTAN>(d, dims, st);
    case CHEBYSHEV: return v4_launch<CHEBYSHEV>(d, dims, st);
    case COSINE: return v4_launch<COSINE>(d, dims, st);
    default: return v4_launch<DTW>(d, dims, st);
    }
}

/* ---- v5: the point's row in registers ------------------------------------
 * For dim <= 16 each thread issues its 16 coordinate loads before the first
 * center and keeps them in registers for all k centers: 16 loads in flight
 * per thread instead of about 4, each coordinate read once. It costs 8
 * registers (40: 48 warps per SM, 75%), and is worth more than the last
 * quarter of occupancy for a kernel that waits on DRAM. The reference's
 * one-point kernel, which it keeps for odd n and unaligned arrays. */
template <int M> static int v5_launch(void *const *d, const int64_t *dims, cudaStream_t st)
{
    return launch_points<M>((const float *)d[0], (const float *)d[1], (int)dims[0], (int)dims[1],
                            (int)dims[2], (float *)d[2], st);
}
static int v5_row_in_registers(void *const *d, const int64_t *dims, void *s)
{
    cudaStream_t st = (cudaStream_t)s;
    if (dims[0] == 0 || dims[1] == 0) return cudaSuccess;
    switch (dims[3]) {
    case SQEUCLID: return v5_launch<SQEUCLID>(d, dims, st);
    case MANHATTAN: return v5_launch<MANHATTAN>(d, dims, st);
    case CHEBYSHEV: return v5_launch<CHEBYSHEV>(d, dims, st);
    case COSINE: return v5_launch<COSINE>(d, dims, st);
    default: return v5_launch<DTW>(d, dims, st);
    }
}

/* ---- v6, the reference: two points per thread ----------------------------
 * v5's row, for two neighbouring points at once, with float2 loads and
 * stores (where n is even and the arrays 8-byte aligned): each thread has
 * 16 loads of 8 bytes in flight instead of 4 bytes. 54 registers leave 32
 * warps per SM (50%), fewer than v5's 48, and the kernel is faster: what
 * the DRAM stream needs is bytes in flight, and occupancy is one way to
 * get them, more work per thread another. */
static int v6_reference_two_points_per_thread(void *const *d, const int64_t *dims, void *s)
{
    return distances((const float *)d[0], (const float *)d[1], (int)dims[0], (int)dims[1],
                     (int)dims[2], (int)dims[3], (float *)d[2], (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_switch_512", v1_switch_512},
    {"v2_switch_occupancy_api", v2_switch_occupancy_api},
    {"v3_template_512", v3_template_512},
    {"v4_template_bounds_occupancy", v4_template_bounds_occupancy},
    {"v5_row_in_registers", v5_row_in_registers},
    {"v6_reference_two_points_per_thread", v6_reference_two_points_per_thread},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
