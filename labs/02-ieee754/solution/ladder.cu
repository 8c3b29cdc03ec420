/* Lab 02's ladder: the same four outputs, the wave computed three ways,
 * slowest first. `make ladder LAB=02` checks and times every rung.
 *
 * The exact outputs (madd, dist) cost a handful of instructions and a few
 * bytes per element in every rung; the 64 wave samples per element are
 * the arithmetic that separates the rungs. The lesson is the lecture slides' advice
 * on instruction costs: avoid higher functions, and when you need one,
 * pick the one made for the job, at the precision the answer needs.
 */
#include "ieee754.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

/* One thread per element; `wave_double` picks how the 64 samples are
 * evaluated. madd and dist as in the reference. */
template <bool wave_double>
__global__ void ieee754_per_sample(const float *a, const float *b, const float *c,
                                   const float *r, const float *t, float *madd, float *dist,
                                   float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = mul_add_rounded(x, y, z);
    madd[2 * i + 1] = __fmaf_rn(x, y, z);
    dist[i] = distance_rounded(x, y, z, r[i]);
    float ti = t[i];
    if (wave_double) {
        double m = fabs(sinpi((double)ti));
        for (int k = 1; k < SAMPLES; k++)
            m = fmin(m, fabs(sinpi((double)(ti + k * (1.0f / SAMPLES)))));
        wave[i] = (float)m;
    } else {
        float m = fabsf(sinpif(ti)); /* NaN for NaN or Inf t, and fminf keeps it */
        for (int k = 1; k < SAMPLES; k++)
            m = fminf(m, fabsf(sinpif(ti + k * (1.0f / SAMPLES))));
        wave[i] = m;
    }
}

template <bool wave_double>
static int launch_per_sample(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess;
    ieee754_per_sample<wave_double><<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(
        (const float *)d[0], (const float *)d[1], (const float *)d[2], (const float *)d[3],
        (const float *)d[4], (float *)d[5], (float *)d[6], (float *)d[7], n);
    return cudaGetLastError();
}

/* v1: 64 double-precision sinpi per element, "to be safe": the baseline.
 * Accurate far beyond the 2 ulp asked, and bound by the FP64 units. */
static int v1_double_sinpi(void *const *d, const int64_t *dims, void *s)
{
    return launch_per_sample<true>(d, dims, s);
}

/* v2: 64 single-precision sinpif: 1 ulp each, so the minimum is within
 * 1 ulp too. The float units do the same work several times faster. */
static int v2_sinpif_per_sample(void *const *d, const int64_t *dims, void *s)
{
    return launch_per_sample<false>(d, dims, s);
}

/* v3: the reference: 64 exact distances to the nearest node, one sinpif. */
static int v3_nearest_node_first(void *const *d, const int64_t *dims, void *s)
{
    return ieee754((const float *)d[0], (const float *)d[1], (const float *)d[2],
                   (const float *)d[3], (const float *)d[4], (float *)d[5], (float *)d[6],
                   (float *)d[7], (int)dims[0], (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_double_sinpi", v1_double_sinpi},
    {"v2_sinpif_per_sample", v2_sinpif_per_sample},
    {"v3_nearest_node_first", v3_nearest_node_first},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
