/* Lab 02 - IEEE-754 on the GPU: four formulas whose every bit is defined.
 *
 * For each element i, with a = d_a[i], b = d_b[i], c = d_c[i], r = d_r[i],
 * t = d_t[i]:
 *   d_madd[2i]   = a*b + c with a*b rounded first: two roundings, no FMA
 *   d_madd[2i+1] = fmaf(a, b, c): one rounding
 *   d_dist[i]    = sqrt(a*a + b*b + c*c) / r, every operation rounded, the
 *                  sum taken as (a*a + b*b) + c*c
 *   d_wave[i]    = the minimum over k = 0 .. 63 of |sin(pi * (t + k/64.0f))|,
 *                  t + k/64.0f a float addition; NaN when t is NaN or infinite
 * d_madd and d_dist must match the CPU bit for bit; d_wave within 2 ulp.
 *
 * This is the only file you edit. Read labs/02-ieee754/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=02
 *
 * The contract (the grader relies on it):
 *   - every pointer is a device pointer the grader owns; d_a .. d_t, d_dist
 *     and d_wave hold n floats, d_madd holds 2n; n >= 0, and n == 0 must
 *     work. The pointers are 4-byte aligned, not necessarily 16.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 *   - the grader compiles with nvcc's defaults: no fast math, and FMA
 *     contraction ON. You cannot change the flags; the code must say what
 *     it means.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

/* One thread per element, as in lab 01. */
__global__ void ieee754_kernel(const float *a, const float *b, const float *c,
                               const float *r, const float *t, float *madd,
                               float *dist, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];

    /* TODO(1): the separately rounded multiply-add. Written as x * y + z,
     *          nvcc fuses it into one FMA instruction (one rounding) and the
     *          last bit differs from the CPU's in about a third of the
     *          elements. __fmul_rn(x, y) and __fadd_rn(p, z) are plain
     *          IEEE-754 operations the compiler never fuses.
     *          madd[2 * i] = ...; */

    /* TODO(2): the fused multiply-add, with one rounding: fmaf(x, y, z) (or
     *          __fmaf_rn). Here the FMA is exactly what is asked.
     *          madd[2 * i + 1] = ...; */

    /* TODO(3): the distance. Round every product and every sum, in this
     *          order: s = (x*x + y*y) + z*z, then sqrt, then divide by r[i].
     *          Without fast math, sqrtf and '/' are already correctly
     *          rounded; the products and sums need the _rn intrinsics.
     *          __fsqrt_rn and __fdiv_rn say it explicitly.
     *          dist[i] = ...; */
    (void)r;

    /* TODO(4): the wave. 64 samples: s_k = t[i] + k / 64.0f, and the
     *          smallest |sin(pi * s_k)|. sinf(3.14159265f * s) is wrong
     *          near the zeros of the sine (pi * s is rounded before the sine
     *          sees it), and __sinf is worse; sinpif(s) takes the pi inside
     *          and is accurate to 1 ulp. Start the minimum from sample 0,
     *          so that a NaN (t infinite or NaN) comes out as NaN.
     *          wave[i] = ...; */
    (void)t;
    (void)madd;
    (void)dist;
    (void)wave;
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    /* The launch is done for you, as lab 01 taught: nothing to launch when
     * n == 0, whole blocks that cover n, the stream you were given. */
    if (n == 0) return cudaSuccess;

    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    ieee754_kernel<<<blocks, threads, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd,
                                                   d_dist, d_wave, n);

    /* TODO(5): when it works and is right, make it fast: the 64 sines per
     *          element are the cost (see "Accuracy for speed" in the
     *          README). */
    return cudaGetLastError();
}
