/* CORRECT, in an unusual way: besides the metric, the dimension is a
 * template parameter too, picked on the host from its run-time value.
 * dim = 16 and dim = 32 get kernels of their own, where the loop over the
 * coordinates has a compile-time trip count: fully unrolled, the point's
 * coordinates are loaded once into registers and reused for every center.
 * Any other dim takes the instantiation with DIM = 0, whose loop runs to
 * the run-time dim. DTW has one kernel for every dim. Each of the eleven
 * kernels gets its own register count and its own block size from the
 * occupancy API.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW };
enum { RADIUS = 32, WIDTH = 2 * RADIUS + 1 };

/* The skeleton's DTW, unchanged. */
__device__ float dtw(const float *p, int n, const float *c, int dim)
{
    const float inf = __int_as_float(0x7f800000);
    if (dim == 0) return 0.0f;
    float band[WIDTH];
#pragma unroll
    for (int o = 0; o < WIDTH; o++) band[o] = inf;
    band[RADIUS] = 0.0f; /* the virtual start, D[-1][-1] = 0 */
    for (int r = 0; r < dim; r++) {
        float x = p[(size_t)r * n], left = inf;
#pragma unroll
        for (int o = 0; o < WIDTH; o++) {
            int s = r - RADIUS + o; /* the column of this cell */
            float up = o + 1 < WIDTH ? band[o + 1] : inf;
            float best = fminf(fminf(band[o], up), left);
            float v = inf;
            if (s >= 0 && s < dim) {
                float t = x - c[s];
                v = t * t + best;
            }
            band[o] = v;
            left = v;
        }
    }
    return band[RADIUS];
}

/* A light metric of point p (coordinate d at p[d * n]) and center c. With
 * DIM > 0 the loops have DIM trips, known to the compiler. */
template <int M, int DIM>
__device__ __forceinline__ float light(const float *x, const float *c, int dim)
{
    float r = 0.0f, pp = 0.0f, cc = 0.0f;
    const int count = DIM > 0 ? DIM : dim;
#pragma unroll
    for (int d = 0; d < count; d++) {
        float t = x[d] - c[d];
        if constexpr (M == SQEUCLID) r = fmaf(t, t, r);
        if constexpr (M == MANHATTAN) r += fabsf(t);
        if constexpr (M == CHEBYSHEV) r = fmaxf(r, fabsf(t));
        if constexpr (M == COSINE) { r = fmaf(x[d], c[d], r); pp = fmaf(x[d], x[d], pp); cc = fmaf(c[d], c[d], cc); }
    }
    if constexpr (M == COSINE) return pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - r / sqrtf(pp * cc);
    return r;
}

template <int M, int DIM>
__global__ void distances_kernel(const float *points, const float *centers, int n, int k, int dim,
                                 float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if constexpr (M == DTW) {
        for (int j = 0; j < k; j++) out[(size_t)j * n + i] = dtw(points + i, n, centers + (size_t)j * dim, dim);
    } else if constexpr (DIM > 0) {
        float x[DIM]; /* the whole point, in registers */
#pragma unroll
        for (int d = 0; d < DIM; d++) x[d] = points[(size_t)d * n + i];
        for (int j = 0; j < k; j++) out[(size_t)j * n + i] = light<M, DIM>(x, centers + (size_t)j * DIM, DIM);
    } else {
        for (int j = 0; j < k; j++) {
            const float *c = centers + (size_t)j * dim;
            float r = 0.0f, pp = 0.0f, cc = 0.0f;
            for (int d = 0; d < dim; d++) {
                float x = points[(size_t)d * n + i], t = x - c[d];
                if constexpr (M == SQEUCLID) r = fmaf(t, t, r);
                if constexpr (M == MANHATTAN) r += fabsf(t);
                if constexpr (M == CHEBYSHEV) r = fmaxf(r, fabsf(t));
                if constexpr (M == COSINE) { r = fmaf(x, c[d], r); pp = fmaf(x, x, pp); cc = fmaf(c[d], c[d], cc); }
            }
            if constexpr (M == COSINE) r = pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - r / sqrtf(pp * cc);
            out[(size_t)j * n + i] = r;
        }
    }
}

template <int M, int DIM>
static cudaError_t launch(const float *d_points, const float *d_centers, int n, int k, int dim,
                          float *d_out, cudaStream_t stream)
{
    int min_grid = 0, threads = 0;
    cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, distances_kernel<M, DIM>, 0, 0);
    if (e != cudaSuccess) return e;
    distances_kernel<M, DIM><<<(n + threads - 1) / threads, threads, 0, stream>>>(d_points, d_centers, n,
                                                                                  k, dim, d_out);
    return cudaGetLastError();
}

/* The run-time dim picks the instantiation. */
template <int M>
static cudaError_t launch_dim(const float *d_points, const float *d_centers, int n, int k, int dim,
                              float *d_out, cudaStream_t stream)
{
    if (M != DTW && dim == 16) return launch<M, 16>(d_points, d_centers, n, k, dim, d_out, stream);
    if (M != DTW && dim == 32) return launch<M, 32>(d_points, d_centers, n, k, dim, d_out, stream);
    return launch<M, 0>(d_points, d_centers, n, k, dim, d_out, stream);
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    if (n == 0 || k == 0) return cudaSuccess;
    switch (metric) {
    case SQEUCLID: return launch_dim<SQEUCLID>(d_points, d_centers, n, k, dim, d_out, stream);
    case MANHATTAN: return launch_dim<MANHATTAN>(d_points, d_centers, n, k, dim, d_out, stream);
    case CHEBYSHEV: return launch_dim<CHEBYSHEV>(d_points, d_centers, n, k, dim, d_out, stream);
    case COSINE: return launch_dim<COSINE>(d_points, d_centers, n, k, dim, d_out, stream);
    case DTW: return launch_dim<DTW>(d_points, d_centers, n, k, dim, d_out, stream);
    default: return cudaErrorInvalidValue;
    }
}
