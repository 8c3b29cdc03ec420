/* spec.c - lab 08, divergence and instruction mix, as data. Trusted:
 * students do not edit it.
 *
 * Element i has the kind k = i % 4 (four interleaved channels), an input
 * float x = d_x[i] and an input integer m = d_m[i]. The outputs:
 *   d_y[i] = f_k(x):  k = 0: cbrt(x)   k = 1: 2^x
 *                     k = 2: 1/sqrt(x) k = 3: x^(1/9) (real root, any sign)
 *   d_q[i] = h after ROUNDS = 16 rounds of, for r = 0, 1, ..., 15,
 *              h = h / DIV[k] + (h % MOD[k]) * MUL[k] + r,   h starting at m,
 *            in C's 32-bit int arithmetic (/ and % truncate toward zero).
 * d_y is held to 4 ulp of the exact value; d_q is exact.
 *
 * The constants keep every intermediate within |h| <= 2^30 for any int
 * start (so nothing overflows, and no result can be the grader's integer
 * poison 0x7badbad7): |h / DIV| <= 2^31 / DIV, |h % MOD| <= MOD - 1, and
 * 2^31 / DIV + (MOD - 1) * MUL + 15 < 2^30 for every kind.
 */
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_X, BUF_M, BUF_Y, BUF_Q };
enum { DV_KINDS = 4, DV_ROUNDS = 16 };

static const int DV_DIV[DV_KINDS] = {16, 8, 32, 4};
static const int DV_MOD[DV_KINDS] = {32, 64, 16, 128};
static const int DV_MUL[DV_KINDS] = {30307227, 12782639, 67108861, 4227329};

enum { V_TYPICAL, V_SIGNED, V_EVERY_EXPONENT, V_SPECIALS };

static size_t dv_count(int buf, const int64_t *dims)
{
    (void)buf;
    return (size_t)dims[0];
}

/* --- the reference ------------------------------------------------------ */

/* In 64-bit arithmetic, so that the reference itself cannot overflow; C99
 * division truncates toward zero, as the contract says. */
static int64_t dv_code(int64_t h, int k)
{
    for (int r = 0; r < DV_ROUNDS; r++) h = h / DV_DIV[k] + (h % DV_MOD[k]) * DV_MUL[k] + r;
    return h;
}

/* Every function in double: cbrt, exp2 and sqrt are accurate to about one
 * double ulp, and 1/9 in double is off by 6e-18, so the exact result is
 * known to ~1e-15 relative, far below the float ulp (6e-8) it is rounded
 * to. The signs of zeros and the special values follow IEEE-754 (and what
 * cbrtf, exp2f and rsqrtf return). */
static double dv_value(double x, int k)
{
    switch (k) {
    case 0: return cbrt(x);
    case 1: return exp2(x);
    case 2: return 1.0 / sqrt(x); /* +0 -> +Inf, -0 -> -Inf, x < 0 -> NaN */
    default:
        if (isnan(x)) return x;
        return copysign(pow(fabs(x), 1.0 / 9.0), x);
    }
}

static void dv_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *x = inputs[BUF_X];
    const int32_t *m = inputs[BUF_M];
    for (int64_t i = 0; i < c->dims[0]; i++) {
        int k = (int)(i % DV_KINDS);
        out[BUF_Y].value[i] = dv_value(x[i], k);
        out[BUF_Q].value[i] = (double)dv_code(m[i], k);
    }
}

/* --- the inputs --------------------------------------------------------- */

static float dv_sign(rng_t *r, float v) { return rng_below(r, 2) ? -v : v; }

/* 2^e * [1, 2) with e uniform in [lo, hi]: every binade equally often. */
static float dv_log_uniform(rng_t *r, int lo, int hi)
{
    return ldexpf(rng_float(r, 1.0f, 2.0f), lo + (int)rng_below(r, (uint32_t)(hi - lo + 1)));
}

/* Friendly values. The cube and ninth roots get |x| in [2^-6, 2^7), where
 * even powf with the float 1.0f/3 for 1/3 stays within the bound (it
 * fails on the wide variant); 2^x gets [-60, 60], far from under- and
 * overflow but wide enough that e^(x ln 2) in float is visibly off. */
static float dv_typical_x(rng_t *r, int k)
{
    switch (k) {
    case 0: return dv_sign(r, dv_log_uniform(r, -6, 6));
    case 1: return rng_float(r, -60.0f, 60.0f);
    case 2: return dv_log_uniform(r, -20, 19);
    default: return dv_sign(r, dv_log_uniform(r, -20, 19));
    }
}

/* Every exponent, subnormals included: the roots and 1/sqrt of the whole
 * float range, and 2^x from far below the smallest subnormal result
 * (x < -149) to overflow (x >= 128). */
static float dv_wide_x(rng_t *r, int k)
{
    uint32_t bits = (rng_below(r, 255) << 23) | rng_below(r, 1u << 23); /* finite, >= 0 */
    float any = rng_bits_to_float(bits);
    switch (k) {
    case 1: return rng_float(r, -155.0f, 130.0f);
    case 2: return any;
    default: return dv_sign(r, any);
    }
}

static const uint32_t DV_SPECIAL_X[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x7f800000u, 0xff800000u, /* +Inf, -Inf */
    0x7fc00000u, 0x00000001u, /* NaN, the smallest subnormal */
    0x007fffffu, 0x80400000u, /* the largest subnormal, -2^-127 */
    0x7f7fffffu, 0xff7fffffu, /* +-FLT_MAX */
    0x3f800000u, 0xbf800000u, /* +-1 */
    0x41000000u, 0xc3160000u, /* 8, -150 */
    0x42fe0000u, 0xc2fc0000u, /* 127, -126 */
};
enum { DV_N_SPECIAL_X = sizeof DV_SPECIAL_X / sizeof DV_SPECIAL_X[0] };

static const int32_t DV_SPECIAL_M[] = {
    INT32_MIN, INT32_MAX, -1, 0, 1, -2, -15, -16, -17, -31, -32, -33,
    -127, -128, -129, -(1 << 20) - 1, 1 << 30, -(1 << 30) - 7, INT32_MIN + 1,
};
enum { DV_N_SPECIAL_M = sizeof DV_SPECIAL_M / sizeof DV_SPECIAL_M[0] };

/* Signed integers of every magnitude, negative half the time: the numbers
 * where h >> s differs from h / 2^s and h & (2^s - 1) from h % 2^s. */
static int32_t dv_signed_m(rng_t *r)
{
    int32_t mag = (int32_t)(rng_next(r) >> (33 + rng_below(r, 31))); /* 0 .. 2^31 - 1 */
    return rng_below(r, 2) ? -mag - (int32_t)rng_below(r, 2) : mag;
}

static void dv_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    rng_t r = rng_seeded(seed);
    if (buf == BUF_M) {
        int32_t *m = host;
        for (size_t i = 0; i < count; i++) {
            switch (c->variant) {
            case V_TYPICAL: /* non-negative: counts, ids, sizes */
                m[i] = (int32_t)(rng_next(&r) >> 33);
                break;
            case V_SPECIALS:
                m[i] = rng_below(&r, 3) == 0 ? DV_SPECIAL_M[rng_below(&r, DV_N_SPECIAL_M)]
                                             : dv_signed_m(&r);
                break;
            default: m[i] = dv_signed_m(&r);
            }
        }
        return;
    }
    float *x = host;
    for (size_t i = 0; i < count; i++) {
        int k = (int)(i % DV_KINDS);
        switch (c->variant) {
        case V_EVERY_EXPONENT: x[i] = dv_wide_x(&r, k); break;
        case V_SPECIALS:
            if (rng_below(&r, 3) == 0) {
                x[i] = rng_bits_to_float(DV_SPECIAL_X[rng_below(&r, DV_N_SPECIAL_X)]);
            } else if (k == 2 && rng_below(&r, 8) == 0) {
                x[i] = -dv_typical_x(&r, k); /* 1/sqrt of a negative: NaN */
            } else {
                x[i] = dv_typical_x(&r, k);
            }
            break;
        default: x[i] = dv_typical_x(&r, k);
        }
    }
}

/* x and m read, y and q written: 16 bytes per element. */
static double dv_bytes(const int64_t *dims) { return 16.0 * (double)dims[0]; }

/* The reference's warp instructions per call: Nsight Compute counted 96.2
 * million (smsp__inst_executed.sum) in one call at n = 2^24 on an H100,
 * 5.734 per element (INSTRUCTOR.md, "The reference against its roofs"). */
static double dv_warp_instructions(const int64_t *dims) { return 5.734 * (double)dims[0]; }

static const lab_tolerance DV_Y = {
    .kind = TOL_ULP,
    .ulps = 4,
    .why = "within 4 ulp of the exact value: the CUDA Programming Guide documents "
           "cbrtf and rcbrtf at 1 ulp, exp2f and rsqrtf at 2 and powf at 4; a ninth "
           "root as two cube roots stays within 3. e^(x ln 2) in float, or powf with "
           "1.0f/3 for 1/3, does not",
    .show_bits = 1,
};

static const lab_tolerance DV_Q = {
    .kind = TOL_EXACT,
    .why = "integer arithmetic is exact: / and % truncate toward zero, for negative "
           "numbers too",
};

const lab_spec LAB_08_DIVERGENCE = {
    .id = "08-divergence",
    .title = "divergence and instruction mix",
    .student_file = "divergence.cu",
    .entry = "divergence",
    .signature = "cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, "
                 "int *d_q, int n, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 4,
    .buffers = {
        /* y[i] depends on x[i] and i % 4 alone, q[i] on m[i] and i % 4:
         * the fast stage draws their low 12 bits afresh every round, so a
         * table of answers kept by value finds none. */
        {"d_x", BUF_INPUT, ELEM_F32, NULL, .redrawn_bits = 12},
        {"d_m", BUF_INPUT, ELEM_I32, NULL, .redrawn_bits = 12},
        {"d_y", BUF_OUTPUT, ELEM_F32, &DV_Y},
        {"d_q", BUF_OUTPUT, ELEM_I32, &DV_Q},
    },
    .variant_names = {"typical values, non-negative integers",
                      "negative integers too (the whole int range)",
                      "x of every exponent: subnormal, huge, 2^x under- and overflowing",
                      "+-0, +-Inf, NaN, 1/sqrt of negatives, INT_MIN, INT_MAX, -1"},
    .buffer_count = dv_count,
    .generate = dv_generate,
    .reference = dv_reference,
    .tolerance = {
        .kind = TOL_ULP,
        .ulps = 4,
        .why = "see each output",
    },
    /* Friendly: multiples of 256 (any remapping of 32-thread warps onto the
     * four kinds fits), typical values, non-negative integers. */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 20}}),
    /* Empty, one element, sizes that end inside a warp, inside a group of
     * four and inside a block; negative integers, every exponent, specials. */
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {2}, .variant = V_SIGNED},
                       {.dims = {31}, .variant = V_SPECIALS},
                       {.dims = {33}, .variant = V_SIGNED},
                       {.dims = {127}, .variant = V_EVERY_EXPONENT},
                       {.dims = {1000}, .variant = V_SPECIALS},
                       {.dims = {4099}, .variant = V_SIGNED},
                       {.dims = {8191}, .variant = V_EVERY_EXPONENT},
                       {.dims = {65537}, .variant = V_SPECIALS},
                       {.dims = {100003}, .variant = V_EVERY_EXPONENT},
                       {.dims = {(1 << 20) + 3}, .variant = V_SIGNED}),
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}, .variant = V_SPECIALS},
                          {.dims = {1000}, .variant = V_SIGNED},
                          {.dims = {4099}, .variant = V_EVERY_EXPONENT}),
    /* One core runs every CUDA thread in turn: the same awkward sizes, the
     * largest ones left out. */
    .emulated = {
        .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}),
        .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {2}, .variant = V_SIGNED},
                           {.dims = {31}, .variant = V_SPECIALS},
                           {.dims = {33}, .variant = V_SIGNED},
                           {.dims = {127}, .variant = V_EVERY_EXPONENT},
                           {.dims = {1000}, .variant = V_SPECIALS},
                           {.dims = {4099}, .variant = V_SIGNED},
                           {.dims = {8191}, .variant = V_EVERY_EXPONENT},
                           {.dims = {20011}, .variant = V_SPECIALS},
                           {.dims = {65537}, .variant = V_EVERY_EXPONENT}),
    },
    /* Nothing in the lesson needs shared memory, but a submission that uses
     * it (or __syncwarp) must do so without races. */
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* 16.8M elements, 268 MB per call (5x the H100's L2). The naive
         * kernel is bound by instructions, not memory; the CPU reference of
         * this size takes a few seconds, so the re-check uses a smaller one. */
        .timed = {.dims = {1 << 24}},
        .recheck = {.dims = {(1 << 20) + 7}},
        .baseline = "one thread per element, branching on i % 4, pow, run-time "
                    "divisors and trip count",
        .bytes = dv_bytes,
        .roof = ROOF_NONE,
        .warp_instructions = dv_warp_instructions,
        /* Calibrated (INSTRUCTOR.md). H200 same-run: the reference 12.7x,
         * one thread per record of four 9.6x, a grid-stride variant 11.7x;
         * cheap math on divergent warps 4.3x, uniform warps alone 3.8x
         * (H100: the reference 11.7x). 6x needs the uniform warps AND the
         * instruction mix; either alone misses it. */
        .min_speedup = 6.0,
        .max_speedup = 150, /* the reference: 12.7x on an H200 */
        .calibration = "H200 2026-11-21: reference 12.7x; divergent warps with cheap math "
                       "4.3x; see labs/08-divergence/INSTRUCTOR.md",
    },
    .counters = {
        COUNTER_ACTIVE_THREADS("when the lanes of a warp take different branches, the warp runs each branch with part of its lanes: 32 means no divergence"),
        COUNTER_WARP_INSTRUCTIONS("pow, run-time divisors and a data-dependent trip count cost instructions; cheaper operations for the same result cut them"),
    },
    .hints = {
        .never_written = "every element must be written, d_y and d_q: if you map "
                         "threads to elements in a new way, check that the map "
                         "covers 0 .. n-1 when n is not a multiple of your block, "
                         "of 32 or of 4",
        .wrong_value = "d_y: the kind of element i is i % 4, not the thread's "
                       "index; cbrtf, exp2f, rsqrtf, and cbrtf(cbrtf(x)) for the "
                       "ninth root are within the bound, powf(x, 1.0f/3) and "
                       "__expf(x * ln2) are not. d_q: h / 16 and h % 32 truncate "
                       "toward zero; h >> 4 and h & 31 differ for negative h",
        .special_values = "NaN/Inf in the wrong place: cbrt(-8) is -2 (powf of a "
                          "negative base is NaN), 2^x overflows to Inf from x = 128, "
                          "1/sqrt(+0) is +Inf and 1/sqrt(-0) is -Inf",
        .write_after = "threads past the end wrote: a remapped index needs its own "
                       "bounds check, if (i < n)",
        .input_changed = "d_x and d_m are inputs: keep h in a register, never in d_m",
        .launch_error = "a launch was refused: at most 1024 threads per block, at "
                        "least one block, and no launch at all when n == 0",
        .crash = "a fault in the kernel: a remapped index past n, or a float4 or int4 access "
                 "through a pointer that is only 4-byte aligned (the right stage gives such pointers)?",
        .timeout = "the kernel never finished: does every loop's index move "
                   "towards its end?",
        .too_slow = "three separate costs (see the README's ladder): warps whose "
                    "32 threads take four different branches (map threads so that "
                    "a warp's elements share one kind), pow where cbrtf, exp2f or "
                    "rsqrtf do, and divisors and a trip count the compiler cannot "
                    "see (make them compile-time constants: / 16 becomes a shift)",
    },
};
