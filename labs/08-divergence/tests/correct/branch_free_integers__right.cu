/* CORRECT, unusual: one thread per element, as in the legacy code, but the
 * expensive part has no branch to diverge on. The integer rounds use the
 * same instructions for every kind: the kind only selects the shift
 * amounts and the multiplier (select instructions, no jumps), and the
 * division and remainder by 2^s are written out with the sign correction
 * that makes them round toward zero like C's / and %:
 *   h / 2^s = (h + ((h >> 31) & (2^s - 1))) >> s     (h >> 31 is 0 or -1)
 *   h % 2^s = h - (h / 2^s) * 2^s
 * The float functions still branch on the kind, but they are a few
 * instructions each. Whether this is fast enough depends on the calibrated
 * threshold, so it is only claimed to be right.
 * Must pass work and right. */
#include <math.h>

#include <cuda_runtime.h>

#define ROUNDS 16

/* C's h / 2^s, rounding toward zero, for 0 < s < 31. */
__device__ __forceinline__ int div_pow2(int h, int s)
{
    return (h + ((h >> 31) & ((1 << s) - 1))) >> s;
}

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int kind = i % 4;

    /* Shift amounts packed four bits per kind: DIV = 2^{4,3,5,2} and
     * MOD = 2^{5,6,4,7}. */
    int sd = (0x2534 >> (4 * kind)) & 15;
    int sm = (0x7465 >> (4 * kind)) & 15;
    int mul = kind == 0 ? 30307227 : kind == 1 ? 12782639 : kind == 2 ? 67108861 : 4227329;
    int h = m[i];
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) {
        int rem = h - (div_pow2(h, sm) << sm);
        h = div_pow2(h, sd) + rem * mul + r;
    }
    q[i] = h;

    float v = x[i];
    switch (kind) {
    case 0: y[i] = cbrtf(v); break;
    case 1: y[i] = exp2f(v); break;
    case 2: y[i] = rsqrtf(v); break;
    default: y[i] = cbrtf(cbrtf(v));
    }
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((long long)n + 255) / 256);
    divergence_kernel<<<blocks, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
