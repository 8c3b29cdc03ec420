/* WRONG ON PURPOSE: when dim is a multiple of 4, each center's row is
 * read as float4s from d_centers + j * dim. Every row then starts a whole
 * number of float4s after d_centers, but d_centers itself need not be
 * 16-byte aligned: the contract promises only 4 bytes. A float4 load is one
 * 16-byte load, and the GPU raises a misaligned address fault for certain
 * when its address is not a multiple of 16. Everything else is right (one
 * kernel per metric from a template parameter, the cosine zero guard, DTW
 * in its band, dim == 0 written as 0 or 1), so every output is right
 * wherever d_centers is 16-byte aligned: work's pointers are, and it passes
 * work. Right offsets the pointers by 0, 4, 8 or 12 bytes; its first case
 * with dim a multiple of 4 and a pointer off is where it faults.
 * Must first fail the right stage.
 * REPORT-SAYS: access through a pointer that is only 4-byte aligned
 * SMALLEST-ON-GPU: a fault, which ends the search's run at the first case that fails
 */
#include <cuda_runtime.h>

enum { SQEUCLID, MANHATTAN, CHEBYSHEV, COSINE, DTW };
enum { RADIUS = 32, WIDTH = 2 * RADIUS + 1 };

template <int M> struct metric {
    float a = 0.0f, pp = 0.0f, cc = 0.0f;
    __device__ void add(float x, float y)
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
    __device__ float result() const
    {
        if constexpr (M == COSINE)
            return pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - a / (sqrtf(pp) * sqrtf(cc));
        else
            return a;
    }
};

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
                v = fmaf(t, t, best);
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
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        float d;
        if constexpr (M == DTW) {
            d = dtw(p, n, c, dim);
        } else {
            metric<M> acc;
            if (dim % 4 == 0) {
                const float4 *c4 = reinterpret_cast<const float4 *>(c); /* the bug */
                for (int q = 0; q < dim / 4; q++) {
                    float4 v = c4[q];
                    acc.add(p[(size_t)(4 * q) * n], v.x);
                    acc.add(p[(size_t)(4 * q + 1) * n], v.y);
                    acc.add(p[(size_t)(4 * q + 2) * n], v.z);
                    acc.add(p[(size_t)(4 * q + 3) * n], v.w);
                }
            } else {
                for (int q = 0; q < dim; q++) acc.add(p[(size_t)q * n], c[q]);
            }
            d = acc.result();
        }
        out[(size_t)j * n + i] = d;
    }
}

template <int M>
static cudaError_t launch(const float *points, const float *centers, int n, int k, int dim,
                          float *out, cudaStream_t stream)
{
    int threads = M == DTW ? 128 : 256;
    distances_kernel<M><<<(n + threads - 1) / threads, threads, 0, stream>>>(points, centers, n, k,
                                                                             dim, out);
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
