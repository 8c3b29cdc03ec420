/* WRONG ON PURPOSE: the occupancy API's first answer used as the grid.
 * cudaOccupancyMaxPotentialBlockSize returns min_grid, the number of blocks
 * that fills the GPU once (blocks per SM x SMs), not the number the problem
 * needs. Without a grid-stride loop only min_grid x threads points are
 * computed: 132 SMs x 2048 threads = 270336 on an H100 (32768 in the CPU
 * emulation's 16 modelled SMs). Work sizes stay below that; right has
 * 300007 points (40009 emulated). Must first fail the right stage.
 * REPORT-SAYS: distances never written: one
 * SMALLEST: it is right while the occupancy API's grid covers every row, so only inputs larger than one full grid fail
 */
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
    band[RADIUS] = 0.0f;
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
                v = t * t + best;
            }
            band[o] = v;
            left = v;
        }
    }
    return band[RADIUS];
}

template <int M>
__global__ void distances_kernel(const float *points, const float *centers, int n, int k,
                                 int dim, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        float r;
        if (M == DTW) {
            r = dtw(p, n, c, dim);
        } else if (M == COSINE) {
            float dot = 0.0f, pp = 0.0f, cc = 0.0f;
            for (int d = 0; d < dim; d++) {
                float x = p[(size_t)d * n], y = c[d];
                dot += x * y;
                pp += x * x;
                cc += y * y;
            }
            r = pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - dot / (sqrtf(pp) * sqrtf(cc));
        } else {
            float s = 0.0f;
            for (int d = 0; d < dim; d++) {
                float t = fabsf(p[(size_t)d * n] - c[d]);
                s = M == SQEUCLID ? s + t * t : M == MANHATTAN ? s + t : fmaxf(s, t);
            }
            r = s;
        }
        out[(size_t)j * n + i] = r;
    }
}

/* The block size the occupancy API gives for this kernel; the grid covers
 * every point. */
template <int M>
static cudaError_t launch(const float *d_points, const float *d_centers, int n, int k, int dim,
                          float *d_out, cudaStream_t stream)
{
    int min_grid = 0, threads = 0;
    cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, distances_kernel<M>, 0, 0);
    if (e != cudaSuccess) return e;
    int blocks = min_grid; /* one GPU-full: not all n points */
    distances_kernel<M><<<blocks, threads, 0, stream>>>(d_points, d_centers, n, k, dim, d_out);
    return cudaGetLastError();
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    if (n == 0 || k == 0) return cudaSuccess;
    switch (metric) {
    case SQEUCLID: return launch<SQEUCLID>(d_points, d_centers, n, k, dim, d_out, stream);
    case MANHATTAN: return launch<MANHATTAN>(d_points, d_centers, n, k, dim, d_out, stream);
    case CHEBYSHEV: return launch<CHEBYSHEV>(d_points, d_centers, n, k, dim, d_out, stream);
    case COSINE: return launch<COSINE>(d_points, d_centers, n, k, dim, d_out, stream);
    case DTW: return launch<DTW>(d_points, d_centers, n, k, dim, d_out, stream);
    default: return cudaErrorInvalidValue;
    }
}
