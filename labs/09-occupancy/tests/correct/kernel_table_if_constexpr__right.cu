/* CORRECT, in an unusual way: the metrics are selected with if constexpr
 * inside one template, and the host picks the kernel from a table of the
 * five instantiations (host function pointers to kernels, no device
 * function pointers, no switch), with one occupancy-API block size per
 * table entry, asked once. Cosine uses rsqrtf (2 ulp), within the bound.
 * Correct, and faster than the naive switch (1.17x on an H100, 1.26x on
 * an H200), but too close to the fast stage's 1.15x for a test to claim
 * it passes there on every run. Must pass work and right. */
#include <cuda_runtime.h>

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW, METRICS };
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


/* One metric's value for point p and center c, every branch on M decided
 * at compile time. */
template <int M>
__device__ __forceinline__ float distance(const float *p, int n, const float *c, int dim)
{
    if constexpr (M == DTW) {
        return dtw(p, n, c, dim);
    } else if constexpr (M == COSINE) {
        float dot = 0.0f, pp = 0.0f, cc = 0.0f;
        for (int d = 0; d < dim; d++) {
            float x = p[(size_t)d * n], y = c[d];
            dot = fmaf(x, y, dot);
            pp = fmaf(x, x, pp);
            cc = fmaf(y, y, cc);
        }
        if (pp == 0.0f || cc == 0.0f) return 1.0f;
        return 1.0f - dot * rsqrtf(pp) * rsqrtf(cc); /* 2 ulp each: inside the bound */
    } else {
        float s = 0.0f;
        for (int d = 0; d < dim; d++) {
            float t = p[(size_t)d * n] - c[d];
            if constexpr (M == SQEUCLID) s = fmaf(t, t, s);
            else if constexpr (M == MANHATTAN) s += fabsf(t);
            else s = fmaxf(s, fabsf(t));
        }
        return s;
    }
}

template <int M>
__global__ void distances_kernel(const float *__restrict__ points,
                                 const float *__restrict__ centers, int n, int k, int dim,
                                 float *__restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int j = 0; j < k; j++)
        out[(size_t)j * n + i] = distance<M>(points + i, n, centers + (size_t)j * dim, dim);
}

typedef void (*kernel_fn)(const float *, const float *, int, int, int, float *);
static const kernel_fn KERNELS[METRICS] = {distances_kernel<SQEUCLID>, distances_kernel<MANHATTAN>,
                                           distances_kernel<CHEBYSHEV>, distances_kernel<COSINE>,
                                           distances_kernel<DTW>};

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    static int threads[METRICS];
    if (metric < 0 || metric >= METRICS) return cudaErrorInvalidValue;
    if (n == 0 || k == 0) return cudaSuccess;
    if (threads[metric] == 0) {
        int min_grid;
        cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads[metric],
                                                           KERNELS[metric], 0, 0);
        if (e != cudaSuccess) return e;
    }
    int t = threads[metric];
    kernel_fn kernel = KERNELS[metric];
    kernel<<<(n + t - 1) / t, t, 0, stream>>>(d_points, d_centers, n, k, dim, d_out);
    return cudaGetLastError();
}
