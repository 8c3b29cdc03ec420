/* WRONG ON PURPOSE: one kernel per metric (a template parameter), each
 * launched with the block size the occupancy API picks for it. With
 * dim == 0 every distance is the same constant (0, or 1 for cosine), so
 * the kernel answers that case first, in a shortcut placed ABOVE the
 * bounds check "if (i >= n) return;". The threads of the last partial
 * block, i >= n, then write the constant too: into later rows, where it
 * is the right value anyway, and for the last row past the end of d_out,
 * by up to one block of floats. Every distance is right; work has no
 * dim == 0 case, right's (33 points, 5 centers, dim 0) writes past d_out.
 * REPORT-SAYS: wrote past the end of d_out (k x n floats): a thread with i >= n must not write
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW };
enum { RADIUS = 32, WIDTH = 2 * RADIUS + 1 }; /* DTW's band: |r - s| <= 32 */

/* DTW of p[0], p[n], ... (dim values) and c[0..dim) inside the band,
 * band[o] the current row's cell at column r - RADIUS + o; unrolled, so
 * the band lives in registers. */
__device__ float dtw(const float *p, int n, const float *c, int dim)
{
    const float inf = __int_as_float(0x7f800000);
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

/* One light metric of point p (stride n) and center c. */
template <int M> __device__ float light(const float *p, int n, const float *c, int dim)
{
    float a = 0.0f, pp = 0.0f, cc = 0.0f;
    for (int d = 0; d < dim; d++) {
        float x = p[(size_t)d * n], y = c[d];
        if (M == SQEUCLID) a += (x - y) * (x - y);
        if (M == MANHATTAN) a += fabsf(x - y);
        if (M == CHEBYSHEV) a = fmaxf(a, fabsf(x - y));
        if (M == COSINE) {
            a += x * y;
            pp += x * x;
            cc += y * y;
        }
    }
    if (M == COSINE) return pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - a / (sqrtf(pp) * sqrtf(cc));
    return a;
}

template <int M>
__global__ void distances_kernel(const float *points, const float *centers, int n, int k,
                                 int dim, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (dim == 0) { /* the mistake: above the bounds check, so i >= n writes too */
        float same = M == COSINE ? 1.0f : 0.0f;
        for (int j = 0; j < k; j++) out[(size_t)j * n + i] = same;
        return;
    }
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        out[(size_t)j * n + i] = M == DTW ? dtw(p, n, c, dim) : light<M>(p, n, c, dim);
    }
}

/* The block size the occupancy API gives this metric's kernel. */
template <int M>
static cudaError_t launch(const float *points, const float *centers, int n, int k, int dim,
                          float *out, cudaStream_t stream)
{
    int min_grid = 0, threads = 0;
    cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, distances_kernel<M>);
    if (e != cudaSuccess) return e;
    int blocks = (n + threads - 1) / threads;
    distances_kernel<M><<<blocks, threads, 0, stream>>>(points, centers, n, k, dim, out);
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
