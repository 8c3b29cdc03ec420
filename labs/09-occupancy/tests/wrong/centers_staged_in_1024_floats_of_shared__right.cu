/* WRONG ON PURPOSE: every block first stages all k x dim center floats in
 * a static __shared__ array (each thread then reads its centers from
 * shared memory, a broadcast), and the array was sized for the largest
 * work size the student saw: 16 centers of 64 floats, 1024 floats. The
 * staging loop has no check against that size: with more center floats
 * (right has k = 40, dim = 97) the block writes past the end of its
 * shared array. Every distance would be right with a big enough array.
 * Must first fail the right stage.
 * SMALLEST: it needs more than 1024 center floats (k x dim), and the centers are one of the case's buffers
 */
#include <cuda_runtime.h>

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW };
enum { RADIUS = 32, WIDTH = 2 * RADIUS + 1 };
enum { STAGED = 1024 }; /* "k * dim is at most 16 * 64" */

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

template <int M>
__global__ void distances_kernel(const float *points, const float *centers, int n, int k, int dim,
                                 float *out)
{
    __shared__ float staged[STAGED];
    for (int t = threadIdx.x; t < k * dim; t += blockDim.x) staged[t] = centers[t];
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = staged + j * dim;
        float r = 0.0f, pp = 0.0f, cc = 0.0f;
        if constexpr (M == DTW) {
            r = dtw(p, n, c, dim);
        } else {
            for (int d = 0; d < dim; d++) {
                float x = p[(size_t)d * n], t = x - c[d];
                if constexpr (M == SQEUCLID) r += t * t;
                if constexpr (M == MANHATTAN) r += fabsf(t);
                if constexpr (M == CHEBYSHEV) r = fmaxf(r, fabsf(t));
                if constexpr (M == COSINE) { r += x * c[d]; pp += x * x; cc += c[d] * c[d]; }
            }
            if constexpr (M == COSINE)
                r = pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - r / (sqrtf(pp) * sqrtf(cc));
        }
        out[(size_t)j * n + i] = r;
    }
}

template <int M>
static cudaError_t launch(const float *d_points, const float *d_centers, int n, int k, int dim,
                          float *d_out, cudaStream_t stream)
{
    int min_grid = 0, threads = 0;
    cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, distances_kernel<M>, 0, 0);
    if (e != cudaSuccess) return e;
    distances_kernel<M><<<(n + threads - 1) / threads, threads, 0, stream>>>(d_points, d_centers, n, k,
                                                                             dim, d_out);
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
