/* lab.cu - lab 04's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against (rung 1 of the solution ladder), and the
 * bound it is measured against. Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out,
                                  float *d_scratch, cudaStream_t stream);
extern "C" const lab_spec LAB_04_REDUCTION;

static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return reduce_sum((const float *)d[0], (int)dims[0], (float *)d[1], (float *)d[2],
                      (cudaStream_t)stream);
}

static const unsigned BASELINE_THREADS = 256;

/* The baseline, Harris's kernel 1: interleaved addressing with a divergent
 * branch. Each block loads 256 elements into shared memory; at step s the
 * threads whose index is a multiple of 2s add the neighbour s away. Slow
 * three ways: `tid % (2 * s)` is an integer division, the active threads
 * are scattered over every warp so each warp runs for a handful of useful
 * lanes, and half the threads never add anything after the load. On an
 * H100 it reads about 14% of copy bandwidth. */
__global__ static void reduce_interleaved_divergent(const float *in, unsigned n, float *out)
{
    __shared__ float s[BASELINE_THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = 1; step < blockDim.x; step *= 2) {
        if (tid % (2 * step) == 0) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

/* The recursive finish of the lecture slides: each launch turns `count` values into
 * one partial sum per block, written to d_scratch, and the next launch
 * reduces those, until one block is left; it writes d_out. The partials of
 * all levels together take fewer than n / 255 floats of scratch. */
static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const float *src = (const float *)d[0];
    float *out = (float *)d[1], *scratch = (float *)d[2];
    unsigned count = (unsigned)dims[0];
    if (count == 0) return cudaMemsetAsync(out, 0, sizeof(float), st);
    for (;;) {
        unsigned blocks = (count + BASELINE_THREADS - 1) / BASELINE_THREADS;
        float *dst = blocks == 1 ? out : scratch;
        reduce_interleaved_divergent<<<blocks, BASELINE_THREADS, 0, st>>>(src, count, dst);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        scratch += blocks;
    }
}

/* The bound (lab_spec.fast.roof = ROOF_PARTS): reading d_in once and
 * nothing else, the least any sum of it must do. */
static int part_read(void *const *d, const int64_t *dims, void *stream)
{
    const void *in[1] = {d[0]};
    size_t bytes[1] = {sizeof(float) * (size_t)dims[0]};
    return read_alone(in, bytes, 1, stream);
}

static const lab_rung PARTS[] = {{"reading d_in", part_read}};

extern "C" const lab_device LAB_DEVICE = {&LAB_04_REDUCTION, call_submission,
                                          call_baseline, NULL, PARTS, 1};
