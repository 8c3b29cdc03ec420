/* Lab 08's ladder: the same two outputs with each of the three ideas of
 * the lesson switched on alone, then together. `make ladder LAB=08` checks
 * and times every rung; the "total" column (speedup over v1) is each
 * idea's own contribution.
 *
 *   idea                 what changes
 *   uniform warps        threads mapped so that a warp holds one kind
 *   cheap math           cbrtf, exp2f, rsqrtf, cbrtf(cbrtf()) instead of pow
 *   constant integers    DIV, MOD, MUL and the trip count known at compile
 *                        time: shifts instead of divisions, an unrolled loop
 *
 * All rungs but the reference share one kernel template whose three
 * switches are the three ideas, so the rungs differ in nothing else.
 */
#include "divergence.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

/* The legacy table, as a kernel parameter: values the compiler cannot see. */
struct runtime_table {
    int div[KINDS], mod[KINDS], mul[KINDS];
    int rounds;
};
static const runtime_table TABLE = {{div_of(0), div_of(1), div_of(2), div_of(3)},
                                    {mod_of(0), mod_of(1), mod_of(2), mod_of(3)},
                                    {mul_of(0), mul_of(1), mul_of(2), mul_of(3)},
                                    ROUNDS};

/* The legacy formulas: pow in double for the roots (1.0f/3 is not 1/3),
 * powf(2, x), and 1/sqrtf (two correctly rounded operations). */
template <int K> __device__ __forceinline__ float legacy_value_of(float x)
{
    double v = x;
    if (K == 0) return (float)copysign(pow(fabs(v), 1.0 / 3.0), v);
    if (K == 1) return powf(2.0f, x);
    if (K == 2) return 1.0f / sqrtf(x);
    return (float)copysign(pow(fabs(v), 1.0 / 9.0), v);
}

/* Run-time divisors and trip count: a real integer division per / and %,
 * and a loop with its counter, compare and branch. */
template <int K> __device__ __forceinline__ int runtime_code_of(int h, const runtime_table &t)
{
    for (int r = 0; r < t.rounds; r++) h = h / t.div[K] + (h % t.mod[K]) * t.mul[K] + r;
    return h;
}

template <bool cheap_math, bool constant_ints, int K>
__device__ __forceinline__ void rung_element(const float *x, const int *m, float *y, int *q,
                                             int i, const runtime_table &t)
{
    y[i] = cheap_math ? value_of<K>(x[i]) : legacy_value_of<K>(x[i]);
    q[i] = constant_ints ? code_of<K>(m[i]) : runtime_code_of<K>(m[i], t);
}

/* uniform_warps = false: thread i takes element i, the kind is i % 4 and
 * every warp holds all four kinds: the switch runs four bodies per warp,
 * a quarter of the lanes active in each.
 * uniform_warps = true: the reference's map (see divergence.cu), one kind
 * per warp, one body per warp. */
template <bool uniform_warps, bool cheap_math, bool constant_ints>
__global__ void divergence_rung(const float *x, const int *m, float *y, int *q, int n,
                                runtime_table t)
{
    long long i;
    int kind;
    if (uniform_warps) {
        int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
        kind = warp % KINDS;
        i = (long long)blockIdx.x * THREADS + KINDS * ((warp / KINDS) * 32 + lane) + kind;
    } else {
        i = (long long)blockIdx.x * THREADS + threadIdx.x;
        kind = (int)(i % KINDS);
    }
    if (i >= n) return;
    switch (kind) {
    case 0: rung_element<cheap_math, constant_ints, 0>(x, m, y, q, (int)i, t); break;
    case 1: rung_element<cheap_math, constant_ints, 1>(x, m, y, q, (int)i, t); break;
    case 2: rung_element<cheap_math, constant_ints, 2>(x, m, y, q, (int)i, t); break;
    default: rung_element<cheap_math, constant_ints, 3>(x, m, y, q, (int)i, t);
    }
}

template <bool uniform_warps, bool cheap_math, bool constant_ints>
static int launch_rung(void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((long long)n + THREADS - 1) / THREADS);
    divergence_rung<uniform_warps, cheap_math, constant_ints>
        <<<blocks, THREADS, 0, (cudaStream_t)stream>>>((const float *)d[0], (const int *)d[1],
                                                       (float *)d[2], (int *)d[3], n, TABLE);
    return cudaGetLastError();
}

/* v1: the baseline: divergent, pow, run-time integers. */
static int v1_naive(void *const *d, const int64_t *dims, void *s)
{
    return launch_rung<false, false, false>(d, dims, s);
}

/* v2: uniform warps alone. Each warp runs one body instead of four; the
 * bodies are as slow as before. */
static int v2_uniform_warps(void *const *d, const int64_t *dims, void *s)
{
    return launch_rung<true, false, false>(d, dims, s);
}

/* v3: cheap math alone: the float functions shrink to a few instructions,
 * still four of them per warp, and the integer divisions stay. */
static int v3_cheap_math(void *const *d, const int64_t *dims, void *s)
{
    return launch_rung<false, true, false>(d, dims, s);
}

/* v4: constant integers alone: shifts and an unrolled loop, still four
 * bodies per warp, still pow. */
static int v4_constant_ints(void *const *d, const int64_t *dims, void *s)
{
    return launch_rung<false, false, true>(d, dims, s);
}

/* v5: both instruction-mix ideas, divergent warps. */
static int v5_cheap_math_constant_ints(void *const *d, const int64_t *dims, void *s)
{
    return launch_rung<false, true, true>(d, dims, s);
}

/* v6: the reference: all three. */
static int v6_reference(void *const *d, const int64_t *dims, void *s)
{
    return divergence((const float *)d[0], (const int *)d[1], (float *)d[2], (int *)d[3],
                      (int)dims[0], (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_naive", v1_naive},
    {"v2_uniform_warps", v2_uniform_warps},
    {"v3_cheap_math", v3_cheap_math},
    {"v4_constant_ints", v4_constant_ints},
    {"v5_cheap_math_constant_ints", v5_cheap_math_constant_ints},
    {"v6_reference", v6_reference},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
