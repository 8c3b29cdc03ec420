/* WRONG ON PURPOSE: a grid-stride loop over the points whose stride, the
 * grid's threads min_grid x threads, is computed one line too early:
 * before cudaOccupancyMaxPotentialBlockSize has filled in min_grid and
 * threads, while both are still 0. The kernel gets a stride of 0 on every
 * call, so i never moves, i < n stays true, and every thread with a point
 * stores its distances for ever. The first work call hangs (4096 points;
 * 1024 in the emulation), on every GPU.
 * Everything else is right: five metrics, each its own instantiation with
 * the block size the occupancy API gives it, one GPU-full of blocks.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every loop move forward?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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
                                 int dim, float *out, int stride)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
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
}

/* One GPU-full of blocks of the occupancy API's size, and a grid-stride
 * loop for the points beyond it. */
template <int M>
static cudaError_t launch(const float *d_points, const float *d_centers, int n, int k, int dim,
                          float *d_out, cudaStream_t stream)
{
    int min_grid = 0, threads = 0;
    int stride = min_grid * threads; /* too early: both are still 0 */
    cudaError_t e =
        cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, distances_kernel<M>, 0, 0);
    if (e != cudaSuccess) return e;
    distances_kernel<M><<<min_grid, threads, 0, stream>>>(d_points, d_centers, n, k, dim, d_out,
                                                          stride);
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
