/* lab.cu - lab 08's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against (rung 1 of the solution ladder). Students do
 * not edit it.
 */
#include <math.h>

#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q,
                                  int n, cudaStream_t stream);
extern "C" const lab_spec LAB_08_DIVERGENCE;

static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return divergence((const float *)d[0], (const int *)d[1], (float *)d[2], (int *)d[3],
                      (int)dims[0], (cudaStream_t)stream);
}

/* The mixing table as the legacy code keeps it: parameters, so that one
 * kernel could serve any table. The contract fixes these values (spec.c
 * holds the same ones), but the compiler cannot know that. */
struct naive_params {
    int div[4], mod[4], mul[4];
    int rounds;
};
static const naive_params NAIVE_PARAMS = {
    {16, 8, 32, 4}, {32, 64, 16, 128}, {30307227, 12782639, 67108861, 4227329}, 16};

/* h / d and h % md with divisors known only at run time: each is a real
 * integer division (a sequence of some twenty instructions around a
 * floating-point reciprocal), and the loop keeps its counter, compare and
 * branch because the trip count is a parameter too. */
__device__ static int naive_code(int h, int d, int md, int mu, int rounds)
{
    for (int r = 0; r < rounds; r++) h = h / d + (h % md) * mu + r;
    return h;
}

/* The baseline: right, and slow three ways.
 *   - One thread per element, branching on i % 4: the 32 lanes of every
 *     warp hold all four kinds, so the warp runs the four branches one
 *     after the other with 8 lanes active in each (the lecture slides'
 *     `if (threadIdx.x % 2)` example, with four ways instead of two).
 *   - The general-purpose `pow`, in double precision for the roots (a
 *     float 1.0f/3 is not 1/3), and powf(2, x) for 2^x: dozens of
 *     instructions, and FP64 at half the FP32 rate, where cbrtf, exp2f and
 *     rsqrtf are a handful.
 *   - Run-time divisors and trip count (naive_code above).
 * The work is arithmetic: 16 bytes move per element, thousands of
 * instructions run per warp. */
__global__ static void divergence_naive(const float *x, const int *m, float *y, int *q, int n,
                                        naive_params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    int h = m[i];
    switch (i % 4) {
    case 0:
        y[i] = (float)copysign(pow(fabs(v), 1.0 / 3.0), v);
        q[i] = naive_code(h, p.div[0], p.mod[0], p.mul[0], p.rounds);
        break;
    case 1:
        y[i] = powf(2.0f, x[i]);
        q[i] = naive_code(h, p.div[1], p.mod[1], p.mul[1], p.rounds);
        break;
    case 2:
        y[i] = 1.0f / sqrtf(x[i]);
        q[i] = naive_code(h, p.div[2], p.mod[2], p.mul[2], p.rounds);
        break;
    default:
        y[i] = (float)copysign(pow(fabs(v), 1.0 / 9.0), v);
        q[i] = naive_code(h, p.div[3], p.mod[3], p.mul[3], p.rounds);
    }
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess;
    divergence_naive<<<(n + 255) / 256, 256, 0, (cudaStream_t)stream>>>(
        (const float *)d[0], (const int *)d[1], (float *)d[2], (int *)d[3], n, NAIVE_PARAMS);
    return cudaGetLastError();
}

extern "C" const lab_device LAB_DEVICE = {&LAB_08_DIVERGENCE, call_submission, call_baseline,
                                          NULL, NULL, 0};
