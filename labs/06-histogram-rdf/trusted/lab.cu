/* lab.cu - lab 06's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against. Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream);
extern "C" const lab_spec LAB_06_HISTOGRAM_RDF;

/* The sizes are integers; dr is the third one in units of 1/1024, which is
 * exact in float (spec.c). */
static float dr_of(const int64_t *dims) { return (float)dims[2] / 1024.0f; }

/* The runner holds back the legacy default stream before every checked
 * call (grader/runner/buffers.cu), so a histogram zeroed on the wrong
 * stream comes out wrong. */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return rdf((const float4 *)d[0], (int)dims[0], (int)dims[1], dr_of(dims),
               (unsigned int *)d[1], (cudaStream_t)stream);
}

/* The baseline: the lecture slides' naive GPU version, right and slow. One launch
 * per offset d = 1 .. n/2; thread i of launch d takes the pair
 * (i, (i + d) % n), computes the contract's distance and adds one to its
 * bin with an atomicAdd in global memory. Why it is slow: n/2 launches
 * (22014 at the timed size), each a few microseconds of GPU time too short
 * to fill the machine well; a 64-bit modulo per pair; and above all every
 * pair is one atomic on one of a few hundred global counters, which the
 * L2 cache performs one at a time per address. */
__global__ static void rdf_naive(const float4 *pos, int n, int d, int count, float dr, int bins,
                                 unsigned int *hist)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    float4 a = pos[i], b = pos[(i + d) % n];
    float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
    float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)), __fmul_rn(dz, dz));
    int bin = (int)__fdiv_rn(__fsqrt_rn(s), dr);
    if (bin < bins) atomicAdd(hist + bin, 1u);
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0], bins = (int)dims[1];
    float dr = dr_of(dims);
    cudaStream_t s = (cudaStream_t)stream;
    const float4 *pos = (const float4 *)d[0];
    unsigned int *hist = (unsigned int *)d[1];
    cudaError_t e = cudaMemsetAsync(hist, 0, (size_t)bins * sizeof(unsigned int), s);
    if (e != cudaSuccess || bins == 0) return e;
    for (int off = 1; off <= n / 2; off++) {
        /* For an even n the half offset pairs i with i + n/2 and i + n/2
         * with i: the same pairs, so only the first half counts them. */
        int count = 2 * off == n ? n / 2 : n;
        rdf_naive<<<(count + 255) / 256, 256, 0, s>>>(pos, n, off, count, dr, bins, hist);
    }
    return cudaGetLastError();
}

extern "C" const lab_device LAB_DEVICE = {&LAB_06_HISTOGRAM_RDF, call_submission, call_baseline,
                                          NULL, NULL, 0};
