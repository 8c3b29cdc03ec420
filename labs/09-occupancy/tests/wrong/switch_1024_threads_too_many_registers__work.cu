/* WRONG ON PURPOSE: the run-time switch kernel launched with 1024 threads
 * per block. It needs 96 registers per thread (DTW's band), and 1024 x 96
 * = 98304 is more than the 65536 registers of an SM: the launch fails with
 * cudaErrorLaunchOutOfResources ("too many resources requested for
 * launch"), for every metric. The lecture slides' remark: the more metrics, the
 * smaller the blocks must be. Must first fail the work stage.
 * REPORT-SAYS: a kernel with many registers cannot run 1024 threads per block
 * EMULATION: pass pass: the CPU emulation does not model registers, so the launch succeeds there
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

__global__ void distances_kernel(const float *points, const float *centers, int n, int k,
                                 int dim, int metric, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float *p = points + i;
    for (int j = 0; j < k; j++) {
        const float *c = centers + (size_t)j * dim;
        float r = 0.0f;
        switch (metric) {
        case SQEUCLID: {
            float s = 0.0f;
            for (int d = 0; d < dim; d++) {
                float t = p[(size_t)d * n] - c[d];
                s += t * t;
            }
            r = s;
            break;
        }
        case MANHATTAN: {
            float s = 0.0f;
            for (int d = 0; d < dim; d++) s += fabsf(p[(size_t)d * n] - c[d]);
            r = s;
            break;
        }
        case CHEBYSHEV: {
            float s = 0.0f;
            for (int d = 0; d < dim; d++) s = fmaxf(s, fabsf(p[(size_t)d * n] - c[d]));
            r = s;
            break;
        }
        case COSINE: {
            float dot = 0.0f, pp = 0.0f, cc = 0.0f;
            for (int d = 0; d < dim; d++) {
                float x = p[(size_t)d * n], y = c[d];
                dot += x * y;
                pp += x * x;
                cc += y * y;
            }
            r = pp == 0.0f || cc == 0.0f ? 1.0f : 1.0f - dot / (sqrtf(pp) * sqrtf(cc));
            break;
        }
        case DTW: r = dtw(p, n, c, dim); break;
        }
        out[(size_t)j * n + i] = r;
    }
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    if (n == 0 || k == 0) return cudaSuccess;
    distances_kernel<<<(n + 1024 - 1) / 1024, 1024, 0, stream>>>(d_points, d_centers, n, k, dim,
                                                            metric, d_out);
    return cudaGetLastError();
}
