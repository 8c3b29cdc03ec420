/* spec.c - lab 05, dot product, as data. Trusted: students do not edit it.
 *
 * *d_result = sum of x[i] * y[i] for 0 <= i < n (0 when n == 0). A parallel
 * sum adds in an order of its own, and with atomics a different order on
 * every run, so no single float answer is "the" answer: the result is held
 * to the error bound that every order of float evaluation satisfies
 * (Higham, Accuracy and Stability of Numerical Algorithms, eq. 3.5):
 *
 *     |computed - exact| <= gamma_n * sum |x[i] * y[i]|,
 *     gamma_n = n u / (1 - n u), u = 2^-24.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_X, BUF_Y, BUF_RESULT };

enum {
    VAR_TYPICAL,
    VAR_CANCELLATION, /* large terms of both signs that cancel in far-apart pairs */
    VAR_MIXED,        /* factors from 2^-50 to 2^50 */
    VAR_SUBNORMAL     /* subnormal products among normal ones */
};

static size_t dot_count(int buf, const int64_t *dims)
{
    return buf == BUF_RESULT ? 1 : (size_t)dims[0];
}

/* Typical values: x and y come from different ranges with different means
 * (E x = 0.5, E y = -0.25, so E xy = -0.125 while E x^2 = 0.58), so that
 * sum x, sum y, sum x*x and sum x*y are all far apart. Every value is a
 * multiple of 2^-23, so no product is tiny. */
static float dot_typical(int buf, rng_t *r)
{
    return buf == BUF_X ? rng_float(r, -0.5f, 1.5f) : rng_float(r, -1.25f, 0.75f);
}

/* +-[1, 2) * 2^e with e in [lo, hi]. */
static float signed_pow2(rng_t *r, int lo, int hi)
{
    float m = rng_float(r, 1.0f, 2.0f);
    int e = lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
    float v = ldexpf(m, e);
    return rng_below(r, 2) ? -v : v;
}

static void dot_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                         size_t count)
{
    float *v = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case VAR_CANCELLATION: {
            /* Element i and its mirror n-1-i: x repeats its value, y flips
             * its sign, so the two terms cancel exactly, but only once sums
             * from far-apart parts of the array meet. One pair in eight (and
             * the middle element) carries ordinary values instead. The exact
             * sum is small, sum |terms| is huge. */
            size_t mirror = count - 1 - i, first = i < mirror ? i : mirror;
            if (first % 8 == 7 || i == mirror)
                v[i] = dot_typical(buf, &r);
            else if (i < mirror)
                v[i] = signed_pow2(&r, 10, 14);
            else
                v[i] = buf == BUF_X ? v[mirror] : -v[mirror];
            break;
        }
        case VAR_MIXED: /* products from 2^-100 to 2^102 */
            v[i] = signed_pow2(&r, -50, 50);
            break;
        case VAR_SUBNORMAL:
            /* Every 8th term ordinary (element 0 included); the others are
             * products below FLT_MIN: tiny times tiny, or a subnormal x times
             * a moderate y. */
            if (i % 8 == 0) {
                v[i] = dot_typical(buf, &r);
            } else if (i % 8 <= 5) {
                v[i] = signed_pow2(&r, -70, -60);
            } else if (buf == BUF_X) {
                uint32_t bits = 1u + rng_below(&r, (1u << 23) - 1); /* subnormal */
                v[i] = rng_bits_to_float(((uint32_t)rng_below(&r, 2) << 31) | bits);
            } else {
                v[i] = signed_pow2(&r, 0, 20);
            }
            break;
        default:
            v[i] = dot_typical(buf, &r);
        }
    }
}

/* The product of two floats is exact in double (24 + 24 < 53 bits), and the
 * sum is compensated (Neumaier), so the reference is exact to far below a
 * float's last bit. abs_sum is the sum |x[i] y[i]| of the bound. */
static void dot_reference(const lab_case *c, const void *const *inputs,
                          lab_expect *out)
{
    const float *x = inputs[BUF_X], *y = inputs[BUF_Y];
    double sum = 0, comp = 0, abs_sum = 0;
    for (int64_t i = 0; i < c->dims[0]; i++) {
        double p = (double)x[i] * (double)y[i];
        double t = sum + p;
        comp += fabs(sum) >= fabs(p) ? (sum - t) + p : (p - t) + sum;
        sum = t;
        abs_sum += fabs(p);
    }
    out[BUF_RESULT].value[0] = sum + comp;
    out[BUF_RESULT].abs_sum[0] = abs_sum;
}

static int64_t dot_terms(const int64_t *dims)
{
    return dims[0];
}

static double dot_bytes(const int64_t *dims)
{
    return 2.0 * sizeof(float) * (double)dims[0]; /* read x and y */
}

const lab_spec LAB_05_DOT_PRODUCT = {
    .id = "05-dot-product",
    .title = "dot product",
    .student_file = "dot.cu",
    .entry = "dot",
    .signature = "cudaError_t dot(const float *d_x, const float *d_y, int n, "
                 "float *d_result, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 3,
    .buffers = {
        {"d_x", BUF_INPUT, ELEM_F32},
        {"d_y", BUF_INPUT, ELEM_F32},
        {"d_result", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "cancellation: large terms of both signs",
                      "mixed magnitudes, 2^-50 to 2^50", "subnormal products among normal ones"},
    .buffer_count = dot_count,
    .generate = dot_generate,
    .reference = dot_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 1.0,
        .terms = dot_terms,
        .why = "a float sum of n products, in any order (atomics change the order on "
               "every run), is within gamma_n * sum|x[i] y[i]| of the exact value "
               "(Higham eq. 3.5); the reference is exact in double",
    },
    /* Multiples of 1024; 4M fills the GPU many times over. */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 22}}),
    /* Empty, one, odd and prime sizes (tails after float4 steps, partial
     * blocks), each adversarial family at a small and a large size. */
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {31}}, {.dims = {33}},
                       {.dims = {257}, .variant = VAR_CANCELLATION},
                       {.dims = {1000}, .variant = VAR_MIXED},
                       {.dims = {4099}, .variant = VAR_SUBNORMAL},
                       {.dims = {65537}}, {.dims = {300007}},
                       {.dims = {1000003}, .variant = VAR_CANCELLATION},
                       {.dims = {1000033}, .variant = VAR_MIXED},
                       {.dims = {3000017}, .variant = VAR_SUBNORMAL},
                       {.dims = {(1 << 22) + 15}}),
    /* 300007 makes a grid-stride loop over a few hundred blocks go round
     * more than once, so shared memory reused across iterations is checked. */
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}},
                          {.dims = {1000}, .variant = VAR_CANCELLATION},
                          {.dims = {4099}, .variant = VAR_SUBNORMAL}, {.dims = {300007}}),
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    /* The ladder compares with these; a submission must not call them. */
    .forbidden = {{"cublas", "cuBLAS", "/cublas"}, {"thrust::", "Thrust", "/thrust/"}, {"cub::", "CUB", "/cub/"}},
    .fast = {
        .timed = {.dims = {1 << 26}}, /* 512 MiB read per call: 10x the H100's L2 */
        .recheck = {.dims = {(1 << 22) + 5}},
        .baseline = "one atomicAdd per element",
        .bytes = dot_bytes,
        .roof = ROOF_PARTS, /* reading x and y alone (trusted/lab.cu) */
        /* Calibrated on an H200 and an H100 (INSTRUCTOR.md): every version
         * that streams both vectors with many elements per thread reaches
         * 77.6-98.6% of copy, the lecture slides' block tree with one
         * element per thread 24-37%, one atomic per element 0.1-0.2%. The
         * bound, the grader's own read of x and y in the same run, is
         * within 3% of the copy at this size (512 MiB), so the bar stayed
         * at 70%: on the H100 the ladder's grid-stride rungs and cuBLAS
         * reach 91-100% of the bound, the tree 37%. The naive baseline
         * serialises 2^26 atomics, so the tree is already 221x it: the
         * speedup gate is a sanity check. */
        .min_roofline = 0.70,
        .min_speedup = 100.0,
        .max_speedup = 6000, /* the reference: 617x */
        /* The baseline adds 2^26 products one by one into a float near
         * 8e6, whose last place is 1: it drifts about 5e-3 from the exact
         * sum (H100, 2026-11-25). This is ten times that; a call that
         * leaves out a quarter of the products is off by about a quarter. */
        .timed_agreement = 5e-2,
        /* So loose an agreement lets a sum estimated from half the products
         * through (it is off by about 4e-4): products of +-2^24 (x = 4096,
         * y = +-4096) at random places, twice the size of the whole sum,
         * make leaving out input visible; the baseline's float stays below
         * 2^25, so its drift grows at most twofold. */
        .spike = 4096.0,
        .calibration = "calibrated on an H200 and an H100, see labs/05-dot-product/INSTRUCTOR.md",
    },
    .link_flags = {"-lcublas"},
    .counters = {
        COUNTER_DRAM("two reads per multiply-add: the dot product is a reduction, limited by DRAM once the partial sums are cheap"),
        COUNTER_WARP_INSTRUCTIONS("per-element atomics and block-wide trees cost instructions; each thread summing many elements first costs almost none"),
    },
    .hints = {
        .never_written = "d_result must be written even when n == 0: zero it with "
                         "cudaMemsetAsync(d_result, 0, sizeof(float), stream), then let "
                         "the kernel add into it",
        .wrong_value = "the result must be the sum of x[i]*y[i], each i counted once: "
                       "check the grid-stride loop, the last partial block and the "
                       "elements left after the float4 steps. A result of exactly 0 "
                       "means the zeroing ran after your kernel: put the memset on the "
                       "stream you were given, not on the default stream",
        .special_values = "NaN: d_result holds garbage (here NaN) on entry and atomicAdd "
                          "adds to it: zero it on your stream before the kernel. Inf: an "
                          "accumulator that overflows (half precision?)",
        .write_before = "only d_result[0] is yours to write: a negative index, or a vector "
                        "access rounded down below a buffer's start",
        .write_after = "only d_result[0] is yours to write, and threads past n must not "
                       "touch memory",
        .input_changed = "d_x and d_y are inputs: keep the products in registers or "
                         "shared memory, never write them back",
        .launch_error = "a launch was refused: at most 1024 threads per block, at least "
                        "one block (when n == 0 zero d_result and launch no kernel), and "
                        "shared memory within the limit",
        .crash = "a fault in the kernel: an index past n, or a float4 load from a "
                 "pointer that is not 16-byte aligned (the pointers are only 4-byte "
                 "aligned: peel elements off until it is, as in lab 01)",
        .timeout = "the kernel never finished: does every loop's index move towards "
                   "its end (a grid-stride loop adds gridDim.x * blockDim.x)?",
        .too_slow = "one atomicAdd per block, not per element; a grid-stride loop over "
                    "a grid that just fills the GPU; float4 loads; see the ladder in "
                    "the README",
    },
};
