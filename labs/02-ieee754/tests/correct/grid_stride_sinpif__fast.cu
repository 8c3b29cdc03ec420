/* UNUSUAL BUT CORRECT: a grid-stride loop over a fixed grid of 4 blocks per
 * SM, and the wave taken the direct way: 64 sinpif per element (1 ulp each,
 * so their minimum is within 1 ulp too). No shortcut, but every sine in
 * single precision, which is what the fast stage asks for. The exact outputs
 * use __fmaf_rn and the _rn intrinsics. Must pass every stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float x = a[i], y = b[i], z = c[i];
        madd[2 * i] = __fadd_rn(__fmul_rn(x, y), z);
        madd[2 * i + 1] = __fmaf_rn(x, y, z);
        float xx = __fmul_rn(x, x), yy = __fmul_rn(y, y), zz = __fmul_rn(z, z);
        dist[i] = __fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(xx, yy), zz)), r[i]);
        float ti = t[i];
        float m = fabsf(sinpif(ti));
#pragma unroll 4
        for (int k = 1; k < 64; k++) m = fminf(m, fabsf(sinpif(ti + k * 0.015625f)));
        wave[i] = m;
    }
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int device, sms;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    int threads = 512, blocks = 4 * sms;
    int needed = (n + threads - 1) / threads;
    if (needed < blocks) blocks = needed;
    ieee754_kernel<<<blocks, threads, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n);
    return cudaGetLastError();
}
