/* Lab 09 - the reference solution: the distance matrix of a clustering
 * step, one kernel per metric.
 *
 *   out[j * n + i] = dist_metric(point i, center j),
 *   points[d * n + i] = coordinate d of point i, centers[j * dim + d].
 *
 * Why it is fast (see labs/09-occupancy/README.md and ladder.cu):
 *   1. The metric is a template parameter, so each metric is its own kernel
 *      with its own register count: the squared Euclidean kernel needs 32
 *      registers (100% occupancy possible), not the 96 that DTW's band
 *      costs a kernel that contains every case.
 *   2. Each kernel declares the largest block it will be launched with
 *      (__launch_bounds__), and the host picks the block size the occupancy
 *      API gives for that kernel (cudaOccupancyMaxPotentialBlockSize),
 *      once per metric.
 *   3. For dim <= 16 a thread loads its whole point into registers before
 *      the first center: 16 independent loads in flight per thread, from
 *      DRAM once, instead of reloading every coordinate for every center.
 *   4. Where n is even and the arrays are 8-byte aligned, each thread takes
 *      two neighbouring points with float2 loads and stores: 16 loads of 8
 *      bytes in flight instead of 4 bytes, at 54 registers (56% occupancy).
 *      Fewer warps, more bytes per warp: the last step towards copy speed.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_check.h"

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW, METRICS };
enum { RADIUS = 32, WIDTH = 2 * RADIUS + 1 }; /* DTW's Sakoe-Chiba band */
enum { ROW = 16 }; /* dims up to this are held in registers */

/* The light metrics as a running state: add one coordinate pair, then
 * finish. Every branch on M is decided at compile time (if constexpr), so
 * an instantiation holds only its own metric's code and registers. */
template <int M> struct light {
    float a = 0.0f, pp = 0.0f, cc = 0.0f; /* pp, cc: cosine's norms only */
    __device__ __forceinline__ void add(float x, float y)
    {
        if constexpr (M == SQEUCLID) {
            float t = x - y;
            a = fmaf(t, t, a);
        } else if constexpr (M == MANHATTAN) {
            a += fabsf(x - y);
        } else if constexpr (M == CHEBYSHEV) {
            a = fmaxf(a, fabsf(x - y));
        } else {
            a = fmaf(x, y, a);
            pp = fmaf(x, x, pp);
            cc = fmaf(y, y, cc);
        }
    }
    __device__ __forceinline__ float finish() const
    {
        if constexpr (M == COSINE) /* an all-zero vector has no direction: 1 */
            return pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - a / (sqrtf(pp) * sqrtf(cc));
        else
            return a;
    }
};

/* DTW of the series p[0], p[n], ... (dim values) and c[0..dim) inside the
 * band |r - s| <= RADIUS. band[o] is the current row's cell at column
 * r - RADIUS + o; the fully unrolled loops keep it in WIDTH registers (a
 * run-time index would move it to local memory): about 96 registers. */
__device__ float dtw(const float *__restrict__ p, int n, const float *__restrict__ c, int dim)
{
    const float inf = __int_as_float(0x7f800000);
    if (dim == 0) return 0.0f;
    float band[WIDTH];
#pragma unroll
    for (int o = 0; o < WIDTH; o++) band[o] = inf;
    band[RADIUS] = 0.0f; /* the virtual start, D[-1][-1] */
    for (int r = 0; r < dim; r++) {
        float x = p[(size_t)r * n], left = inf;
#pragma unroll
        for (int o = 0; o < WIDTH; o++) {
            int s = r - RADIUS + o;
            float up = o + 1 < WIDTH ? band[o + 1] : inf;
            float best = fminf(fminf(band[o], up), left);
            float v = inf;
            if (s >= 0 && s < dim) {
                float t = x - c[s];
                v = fmaf(t, t, best);
            }
            band[o] = v;
            left = v;
        }
    }
    return band[RADIUS];
}

/* The most threads per block each kernel is launched with, promised to
 * the compiler with __launch_bounds__ and respected when the occupancy API
 * is asked. DTW: 640 (65536 / 96 registers = 682 threads, in whole warps),
 * so a block that large is guaranteed to launch. Light metrics: 256, which
 * lets ptxas keep the 16-coordinate row without spilling (40 registers,
 * 47 for cosine). Promising 1024 instead makes ptxas aim at two resident
 * 1024-thread blocks, 32 registers, and spill 8-32 bytes per thread: the
 * promise must be one the kernel can keep. */
template <int M> constexpr int max_threads() { return M == DTW ? 640 : 256; }

/* One thread per point, a loop over the centers. Neighbouring threads read
 * neighbouring coordinates (points are stored by coordinate) and every
 * thread of a warp reads the same center word (a broadcast). */
template <int M>
__global__ void __launch_bounds__(max_threads<M>())
    distances_kernel(const float *__restrict__ points, const float *__restrict__ centers, int n,
                     int k, int dim, float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    if constexpr (M == DTW) {
        for (int j = 0; j < k; j++) out[(size_t)j * n + i] = dtw(p, n, centers + (size_t)j * dim, dim);
    } else if (dim <= ROW) {
        /* The whole point in registers: 16 loads issued before the first
         * use, each coordinate read from memory once for all k centers. */
        float x[ROW];
#pragma unroll
        for (int d = 0; d < ROW; d++) x[d] = d < dim ? p[(size_t)d * n] : 0.0f;
        for (int j = 0; j < k; j++) {
            const float *c = centers + (size_t)j * dim;
            light<M> acc;
#pragma unroll
            for (int d = 0; d < ROW; d++)
                if (d < dim) acc.add(x[d], c[d]);
            out[(size_t)j * n + i] = acc.finish();
        }
    } else {
        for (int j = 0; j < k; j++) {
            const float *c = centers + (size_t)j * dim;
            light<M> acc;
            for (int d = 0; d < dim; d++) acc.add(p[(size_t)d * n], c[d]);
            out[(size_t)j * n + i] = acc.finish();
        }
    }
}

/* Two neighbouring points per thread, for the light metrics with
 * dim <= ROW, n even and 8-byte aligned arrays: coordinate d of points 2i
 * and 2i + 1 is one float2 (row d starts at d * n, an even float offset),
 * and so are their distances to center j. Each point's distance is summed
 * in the same order as in distances_kernel, so the results are the same
 * bits. More registers than a point's (54 for squared Euclidean: 36 warps
 * per SM in the occupancy API's 192-thread blocks, against 48), and twice
 * the bytes in flight per thread: the DRAM stream needs bytes in flight,
 * not warps. */
template <int M>
__global__ void __launch_bounds__(max_threads<M>())
    pairs_kernel(const float2 *__restrict__ points, const float *__restrict__ centers, int pairs,
                 int k, int dim, float2 *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pairs) return;
    const float2 *p = points + i;
    float2 x[ROW];
#pragma unroll
    for (int d = 0; d < ROW; d++) x[d] = d < dim ? p[(size_t)d * pairs] : make_float2(0.0f, 0.0f);
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        light<M> first, second;
#pragma unroll
        for (int d = 0; d < ROW; d++)
            if (d < dim) {
                float y = c[d];
                first.add(x[d].x, y);
                second.add(x[d].y, y);
            }
        out[(size_t)j * pairs + i] = make_float2(first.finish(), second.finish());
    }
}

/* The block size that gives a kernel the most resident warps, asked once
 * per kernel (the answer depends on the kernel, not on the data): the
 * caller keeps it in a static of its own, 0 until asked. */
template <typename Kernel> static cudaError_t best_block(Kernel kernel, int most, int *threads)
{
    int min_grid = 0;
    return *threads ? cudaSuccess
                    : cudaOccupancyMaxPotentialBlockSize(&min_grid, threads, kernel, 0, most);
}

/* One point per thread: every metric, any n, dim and alignment. */
template <int M> static cudaError_t launch_points(const float *points, const float *centers, int n,
                                                  int k, int dim, float *out, cudaStream_t stream)
{
    static int threads = 0;
    cudaError_t e = best_block(distances_kernel<M>, max_threads<M>(), &threads);
    if (e != cudaSuccess) return e;
    /* The grid covers every point; min_grid (one GPU-full of blocks) would
     * not, without a grid-stride loop. */
    int blocks = (n + threads - 1) / threads;
    distances_kernel<M><<<blocks, threads, 0, stream>>>(points, centers, n, k, dim, out);
    return cudaGetLastError();
}

static bool aligned8(const void *p) { return ((uintptr_t)p & 7) == 0; }

template <int M> static cudaError_t launch(const float *points, const float *centers, int n, int k,
                                           int dim, float *out, cudaStream_t stream)
{
    if constexpr (M == DTW) { /* its band already fills the registers */
        return launch_points<M>(points, centers, n, k, dim, out, stream);
    } else {
        if (dim > ROW || n % 2 != 0 || !aligned8(points) || !aligned8(out))
            return launch_points<M>(points, centers, n, k, dim, out, stream);
        static int threads = 0;
        cudaError_t e = best_block(pairs_kernel<M>, max_threads<M>(), &threads);
        if (e != cudaSuccess) return e;
        int pairs = n / 2, blocks = (pairs + threads - 1) / threads;
        pairs_kernel<M><<<blocks, threads, 0, stream>>>((const float2 *)points, centers, pairs, k,
                                                        dim, (float2 *)out);
        return cudaGetLastError();
    }
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    if (n == 0 || k == 0) return cudaSuccess; /* nothing to write */
    switch (metric) {
    case SQEUCLID: return launch<SQEUCLID>(d_points, d_centers, n, k, dim, d_out, stream);
    case MANHATTAN: return launch<MANHATTAN>(d_points, d_centers, n, k, dim, d_out, stream);
    case CHEBYSHEV: return launch<CHEBYSHEV>(d_points, d_centers, n, k, dim, d_out, stream);
    case COSINE: return launch<COSINE>(d_points, d_centers, n, k, dim, d_out, stream);
    case DTW: return launch<DTW>(d_points, d_centers, n, k, dim, d_out, stream);
    default: return cudaErrorInvalidValue;
    }
}
