/* lab.cu - lab 05's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against, and the bound it is measured against.
 * Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream);
extern "C" const lab_spec LAB_05_DOT_PRODUCT;

/* The runner holds back the legacy default stream during every call
 * (grader/runner/call.cu), so a result zeroed on the wrong stream comes out
 * wrong. */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return dot((const float *)d[0], (const float *)d[1], (int)dims[0], (float *)d[2],
               (cudaStream_t)stream);
}

/* The baseline: right, and the first thing one writes, one thread per
 * element and one atomicAdd per element on the single result. Atomics on
 * one address are serialised in the L2 cache, one after another, so the
 * 2^26 additions of the timed size queue up behind each other while the
 * memory system idles: the lesson of this lab is to add within a block
 * first and send one number per block. */
__global__ static void dot_naive(const float *x, const float *y, int n, float *result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, x[i] * y[i]);
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    cudaStream_t s = (cudaStream_t)stream;
    float *result = (float *)d[2];
    cudaError_t e = cudaMemsetAsync(result, 0, sizeof(float), s);
    if (e != cudaSuccess || n == 0) return e;
    dot_naive<<<(n + 255) / 256, 256, 0, s>>>((const float *)d[0], (const float *)d[1], n,
                                              result);
    return cudaGetLastError();
}

/* The bound (lab_spec.fast.roof = ROOF_PARTS): reading x and y once and
 * nothing else, the least any dot product of them must do. */
static int part_read(void *const *d, const int64_t *dims, void *stream)
{
    const void *in[2] = {d[0], d[1]};
    size_t bytes[2] = {sizeof(float) * (size_t)dims[0], sizeof(float) * (size_t)dims[0]};
    return read_alone(in, bytes, 2, stream);
}

static const lab_rung PARTS[] = {{"reading x and y", part_read}};

extern "C" const lab_device LAB_DEVICE = {&LAB_05_DOT_PRODUCT, call_submission, call_baseline,
                                          NULL, PARTS, 1};
