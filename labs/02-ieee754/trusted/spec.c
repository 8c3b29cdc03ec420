/* spec.c - lab 02, IEEE-754 on the GPU, as data. Trusted: students do not
 * edit it.
 *
 * For every element i, from the inputs a, b, c, r, t:
 *   madd[2i]   = (a*b rounded) + c rounded         two roundings, no FMA
 *   madd[2i+1] = fmaf(a, b, c)                     one rounding
 *   dist[i]    = sqrt(((a*a + b*b) + c*c)) / r     every operation rounded
 *   wave[i]    = min over k = 0..63 of |sin(pi * (t + k/64))|, where t + k/64
 *                is a float addition; NaN when t is NaN or infinite
 * The first three are defined bit for bit by IEEE-754 (round to nearest
 * even at each step) and compared exactly; the last is held to 2 ulp of the
 * true value, which the single-precision library meets and the fast
 * intrinsics do not.
 *
 * The reference never relies on the C compiler's own float arithmetic: each
 * float operation is done in double and rounded to float. For +, *, / and
 * sqrt of floats that gives the correctly rounded float result (a double
 * carries more than 2 * 24 + 2 bits, so rounding twice cannot differ from
 * rounding once), and no compiler can fuse it into an FMA.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_A, BUF_B, BUF_C, BUF_R, BUF_T, BUF_MADD, BUF_DIST, BUF_WAVE };
enum { IE_SAMPLES = 64 }; /* the wave is sampled at t + k/64, k < 64 */
static const double IE_PI = 3.14159265358979323846; /* M_PI is not ISO C */

enum {
    V_TYPICAL,
    V_SPECIALS,
    V_TINY,
    V_HUGE,
    V_DOUBLE_ROUNDING,
    V_EVERY_EXPONENT
};

static size_t ie_count(int buf, const int64_t *dims)
{
    return (size_t)dims[0] * (buf == BUF_MADD ? 2 : 1);
}

/* madd is n rows of (separately rounded, fused), so reports say which. */
static void ie_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    *rows = dims[0];
    *cols = buf == BUF_MADD ? 2 : 1;
}

static float f32(uint32_t bits) { return rng_bits_to_float(bits); }

/* --- the reference: one IEEE-754 float operation at a time ------------- */

static float rn_mul(float x, float y) { return (float)((double)x * (double)y); }
static float rn_add(float x, float y) { return (float)((double)x + (double)y); }
static float rn_div(float x, float y) { return (float)((double)x / (double)y); }
static float rn_sqrt(float x) { return (float)sqrt((double)x); }

/* |sin(pi x)| for a float x, to double accuracy. x - 2 rint(x / 2) is exact
 * (both are multiples of x's last place), and so is 1 - u for u in
 * (1/2, 1], so the only rounding left is in sin() and the product by pi,
 * a few double ulps: far below a float ulp, even for tiny and subnormal
 * results. */
static double abs_sinpi(float xf)
{
    double x = xf;
    double u = fabs(x - 2.0 * rint(x / 2.0)); /* in [0, 1] */
    if (u > 0.5) u = 1.0 - u;                 /* sin(pi u) = sin(pi (1 - u)) */
    return sin(IE_PI * u);
}

/* The k-th sample position: a float addition, rounded like the GPU's. */
static float sample_at(float t, int k) { return rn_add(t, (float)k / IE_SAMPLES); }

static double wave_of(float t)
{
    if (!isfinite(t)) return NAN; /* sin(pi * inf) is NaN, and so is the minimum */
    double m = INFINITY;
    for (int k = 0; k < IE_SAMPLES; k++) m = fmin(m, abs_sinpi(sample_at(t, k)));
    return m;
}

static void ie_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *a = inputs[BUF_A], *b = inputs[BUF_B], *cc = inputs[BUF_C];
    const float *r = inputs[BUF_R], *t = inputs[BUF_T];
    for (int64_t i = 0; i < c->dims[0]; i++) {
        out[BUF_MADD].value[2 * i] = rn_add(rn_mul(a[i], b[i]), cc[i]);
        out[BUF_MADD].value[2 * i + 1] = fmaf(a[i], b[i], cc[i]); /* glibc: correctly rounded */
        float sum = rn_add(rn_add(rn_mul(a[i], a[i]), rn_mul(b[i], b[i])), rn_mul(cc[i], cc[i]));
        out[BUF_DIST].value[i] = rn_div(rn_sqrt(sum), r[i]);
        out[BUF_WAVE].value[i] = wave_of(t[i]);
    }
}

/* --- the inputs --------------------------------------------------------- */

/* Values IEEE-754 treats specially, and values that push each formula to
 * an edge: products that underflow or overflow, divisors beyond 2^126
 * (where __fdividef returns 0), wave positions that land exactly on a node
 * (t + k/64 an integer: the answer is exactly 0). */
static const uint32_t IE_SPECIALS[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x00000001u, 0x807fffffu, /* smallest and largest subnormal */
    0x00400000u, 0x00800000u, /* a subnormal, FLT_MIN */
    0x7f7fffffu, 0xff7fffffu, /* FLT_MAX, -FLT_MAX */
    0x7f800000u, 0xff800000u, /* +Inf, -Inf */
    0x7fc00000u, 0x3f800000u, /* NaN, 1 */
    0xbf400000u, 0x40400000u, /* -0.75, 3 */
    0x1a000000u, 0x62000000u, /* 2^-75 (its square is 0), 2^69 (its square is Inf) */
    0x7f000000u, 0xfe800000u, /* 2^127, -2^126 */
    0x4b000000u, 0xbe800000u, /* 2^23, -0.25 */
    0x3fc00000u, 0xc2fa0000u, /* 1.5, -125 */
};
enum { IE_N_SPECIALS = sizeof IE_SPECIALS / sizeof IE_SPECIALS[0] };

static float random_bits_finite(rng_t *r)
{
    return f32(((uint32_t)rng_below(r, 2) << 31) | (rng_below(r, 255) << 23) |
               rng_below(r, 1u << 23));
}

static float random_sign(rng_t *r, float x) { return rng_below(r, 2) ? -x : x; }

/* Typical wave positions keep every sample off the nodes (no t + k/64 is an
 * integer), so that exact zeros are the adversarial variants' business. */
static float typical_t(rng_t *r)
{
    for (;;) {
        float t = rng_float(r, -40.0f, 40.0f);
        /* A sample t + k/64 rounds to an integer only if t * 64 (exact)
         * lies within half a float spacing (2^-13 below 2624) of an
         * integer: any other t is kept without trying the 64 samples. */
        double u = (double)t * IE_SAMPLES;
        if (fabs(u - rint(u)) > 0x1p-10) return t;
        int on_node = 0;
        for (int k = 0; k < IE_SAMPLES && !on_node; k++) {
            float s = sample_at(t, k);
            on_node = s == rintf(s);
        }
        if (!on_node) return t;
    }
}

/* Most random floats already show the difference: rounding a*b before
 * adding c, or not, changes the last bit of roughly a third of results. */
static float typical(int buf, rng_t *r)
{
    switch (buf) {
    case BUF_A: return rng_float(r, -3.0f, 5.0f);
    case BUF_B: return rng_float(r, 0.25f, 6.0f);
    case BUF_C: return rng_float(r, -10.0f, 2.0f);
    case BUF_R: return rng_float(r, 0.5f, 3.0f);
    default: return typical_t(r);
    }
}

/* Products and sums in the subnormal range: a flush to zero shows. */
static float tiny(int buf, rng_t *r)
{
    switch (buf) {
    case BUF_A:
    case BUF_B: /* 2^-80 .. 2^-60: every product is subnormal or 0 */
        return random_sign(r, ldexpf(rng_float(r, 1.0f, 2.0f), -60 - (int)rng_below(r, 21)));
    case BUF_C: /* subnormal */
        return f32(((uint32_t)rng_below(r, 2) << 31) | rng_below(r, 1u << 23));
    case BUF_R: /* one in four subnormal */
        return rng_below(r, 4) ? rng_float(r, 0.5f, 3.0f)
                               : f32(1u + rng_below(r, 1u << 23));
    default: /* subnormal, or just above FLT_MIN */
        return random_sign(r, rng_below(r, 2) ? f32(1u + rng_below(r, 1u << 23))
                                              : ldexpf(rng_float(r, 1.0f, 2.0f), -126));
    }
}

/* Overflowing products and squares, divisors in (2^126, 2^128), and wave
 * positions so large that every sample is an integer or close to one. */
static float huge(int buf, rng_t *r)
{
    switch (buf) {
    case BUF_A: /* a*b overflows when the exponents add up past 127 */
    case BUF_B: return random_sign(r, ldexpf(rng_float(r, 1.0f, 2.0f), 20 + (int)rng_below(r, 50)));
    case BUF_C: /* c*c overflows for one c in four */
        return random_sign(r, ldexpf(rng_float(r, 1.0f, 2.0f), (int)rng_below(r, 85)));
    case BUF_R:
        return rng_below(r, 2) ? ldexpf(rng_float(r, 1.0f, 2.0f), 126 + (int)rng_below(r, 2))
                               : rng_float(r, 0.5f, 3.0f);
    default: return random_sign(r, ldexpf(rng_float(r, 1.0f, 2.0f), 16 + (int)rng_below(r, 14)));
    }
}

/* a, b, c such that a*b + c lies a hair above a midpoint between two
 * floats, so close that the exact value rounded to double IS the midpoint:
 * rounding that double to float then ties to even, downwards, while the
 * correctly rounded fmaf goes up. Computing the fused result in double and
 * rounding it gets these wrong.
 *
 * With a = A 2^-23 and b = B 2^(e-23) (A, B 24-bit odd integers), choose
 * A B = 1 (mod 2^30) with bit 30 set: below the float's last place of
 * c + a b (c about 2^(e+8)) sit a half ulp and one 2^(e-46), 55 bits
 * below the leading one, so the double drops it. The element's three
 * values depend only on its index, so the three buffers, generated
 * separately, agree. */
static void double_rounding_trap(size_t i, float *a, float *b, float *c)
{
    rng_t h = rng_seeded(0x1eee754ull + i * 0x9e3779b97f4a7c15ull);
    uint32_t A = (1u << 23) | (rng_below(&h, 1u << 22) << 1) | 1u;
    uint64_t B, P;
    for (;; A = A + 2 >= (1u << 24) ? (1u << 23) | 1u : A + 2) {
        uint32_t inv = A; /* Newton: inverse of an odd number modulo 2^32 */
        for (int k = 0; k < 5; k++) inv *= 2u - A * inv;
        B = inv & ((1u << 30) - 1);
        if (B < (1u << 23) || B >= (1u << 24)) continue;
        P = (uint64_t)A * B;
        if ((P >> 30) & 1) break;
    }
    int e = (int)rng_below(&h, 41) - 20;
    uint32_t hi = (uint32_t)(P >> 31);      /* a*b's bits above c's last place */
    uint32_t m = rng_below(&h, 1u << 22);   /* c's own mantissa bits */
    if ((m + hi) & 1) m ^= 1;               /* the tie must go downwards */
    float sign = rng_below(&h, 2) ? -1.0f : 1.0f;
    *a = sign * ldexpf((float)A, -23);
    *b = ldexpf((float)B, e - 23);
    *c = sign * ldexpf((float)((1u << 23) | m), e + 8 - 23);
}

static void ie_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    float *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case V_SPECIALS: /* one element in three is special */
            x[i] = rng_below(&r, 3) == 0 ? f32(IE_SPECIALS[rng_below(&r, IE_N_SPECIALS)])
                                         : typical(buf, &r);
            break;
        case V_TINY: x[i] = tiny(buf, &r); break;
        case V_HUGE: x[i] = huge(buf, &r); break;
        case V_DOUBLE_ROUNDING: /* every other element is a trap */
            if (i % 2 == 0 && buf <= BUF_C) {
                float v[3];
                double_rounding_trap(i, &v[0], &v[1], &v[2]);
                x[i] = v[buf];
            } else {
                x[i] = typical(buf, &r);
            }
            break;
        case V_EVERY_EXPONENT: x[i] = random_bits_finite(&r); break;
        default: x[i] = typical(buf, &r);
        }
    }
}

static double ie_bytes(const int64_t *dims)
{
    return 9.0 * sizeof(float) * (double)dims[0]; /* read a b c r t; write 2 + 1 + 1 */
}

/* The reference's warp instructions per call: Nsight Compute counted 246.0
 * million (smsp__inst_executed.sum) in one call at n = 2^24 on an H100,
 * 14.66 per element (INSTRUCTOR.md, "The reference against the
 * instruction roof"). */
static double ie_warp_instructions(const int64_t *dims) { return 14.66 * (double)dims[0]; }

static const lab_tolerance IE_EXACT = {
    .kind = TOL_EXACT,
    .why = "IEEE-754 defines this result bit for bit: each +, *, / and sqrt "
           "(or the one fmaf) rounds to the nearest float, as on the CPU",
    .show_bits = 1,
};

static const lab_tolerance IE_WAVE = {
    .kind = TOL_ULP,
    .ulps = 2,
    .why = "a bound, not an exact result: sinpif is documented at 1 ulp, so 2 "
           "leaves room for any accurate single-precision formulation",
    .show_bits = 1,
};

const lab_spec LAB_02_IEEE754 = {
    .id = "02-ieee754",
    .title = "IEEE-754 on the GPU",
    .student_file = "ieee754.cu",
    .entry = "ieee754",
    .signature = "cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c, "
                 "const float *d_r, const float *d_t, float *d_madd, float *d_dist, "
                 "float *d_wave, int n, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 8,
    .buffers = {
        {"d_a", BUF_INPUT, ELEM_F32, NULL},
        {"d_b", BUF_INPUT, ELEM_F32, NULL},
        {"d_c", BUF_INPUT, ELEM_F32, NULL},
        {"d_r", BUF_INPUT, ELEM_F32, NULL},
        /* The wave depends on t alone: the fast stage draws t's low 12
         * bits afresh every round, so a table of waves kept by t's value
         * finds none (tests/wrong/remembers_each_wave_by_its_input). */
        {"d_t", BUF_INPUT, ELEM_F32, NULL, .redrawn_bits = 12},
        {"d_madd", BUF_OUTPUT, ELEM_F32, &IE_EXACT},
        {"d_dist", BUF_OUTPUT, ELEM_F32, &IE_EXACT},
        {"d_wave", BUF_OUTPUT, ELEM_F32, &IE_WAVE},
    },
    .variant_names = {"typical values", "with +-0, subnormals, Inf, NaN, nodes",
                      "subnormal products and sums", "overflow, divisors above 2^126",
                      "double-rounding traps for fmaf", "every exponent"},
    .buffer_count = ie_count,
    .buffer_shape = ie_shape,
    .generate = ie_generate,
    .reference = ie_reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "IEEE-754 defines the result bit for bit",
        .show_bits = 1,
    },
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {262144}}),
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {31}},
                       {.dims = {33}, .variant = V_SPECIALS},
                       {.dims = {1000}, .variant = V_SPECIALS},
                       {.dims = {4099}, .variant = V_TINY},
                       {.dims = {4097}, .variant = V_HUGE},
                       {.dims = {8191}, .variant = V_DOUBLE_ROUNDING},
                       {.dims = {20011}, .variant = V_EVERY_EXPONENT},
                       {.dims = {65537}, .variant = V_SPECIALS},
                       {.dims = {100003}}),
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}},
                          {.dims = {1000}, .variant = V_SPECIALS},
                          {.dims = {4099}, .variant = V_TINY}),
    /* No shared memory in the lesson, but a submission that stages its
     * inputs in shared memory must do it without races. */
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* 16.8M elements, 604 MB per call (12x the H100's L2); the 64
         * samples per element make it arithmetic-bound. The CPU reference
         * of that size takes ~20 s, so the re-check uses a smaller one. */
        .timed = {.dims = {1 << 24}},
        .recheck = {.dims = {(1 << 18) + 5}},
        .baseline = "the same kernel with the wave in double precision (sinpi)",
        .bytes = ie_bytes,
        .roof = ROOF_NONE,
        .warp_instructions = ie_warp_instructions,
        /* Calibrated on an H200 (INSTRUCTOR.md): the double wave is
         * 0.98x, a float sinpif per sample 2.0-2.1x, the nearest node first
         * 5.1-5.7x; 1.5x clears both sides by about a third. */
        .min_speedup = 1.5,
        .max_speedup = 60, /* the reference: 5.6x */
        .calibration = "calibrated on an H200, see labs/02-ieee754/INSTRUCTOR.md",
    },
    .counters = {
        COUNTER_WARP_INSTRUCTIONS("the 64 samples of the wave are nearly all of the work: how many instructions each element costs is what decides the time"),
        COUNTER_ACTIVE_THREADS("threads of a warp that take different paths (special values, loop exits) run one path after the other"),
    },
    .hints = {
        .never_written = "every output element must be written: d_madd has 2n "
                         "floats (2i and 2i+1), d_dist and d_wave n each",
        .wrong_value = "look at the bits: d_madd[2i] must round a*b before adding "
                       "c (__fmul_rn, __fadd_rn: nvcc fuses a*b+c into one FMA), "
                       "d_madd[2i+1] is fmaf(a, b, c); d_dist rounds every *, + "
                       "(a*a + b*b first), sqrt and / (__fsqrt_rn, __fdiv_rn); "
                       "d_wave needs an accurate sine of pi*x: sinpif(t + k/64.0f)",
        .special_values = "NaN/Inf in the wrong place: subnormals must not be "
                          "flushed to zero, and d_wave is NaN when t is NaN or "
                          "infinite (start the minimum from the first sample, "
                          "not from +infinity, and never let fminf drop a NaN)",
        .write_after = "threads past the end wrote: guard the body with if (i < n)",
        .input_changed = "d_a, d_b, d_c, d_r and d_t are inputs: never write to them",
        .launch_error = "a launch was refused: at most 1024 threads per block, at "
                        "least one block, and no launch at all when n == 0",
        .crash = "a fault in the kernel: an index past n, or past 2n in d_madd, or a float2 "
                 "or float4 access through a pointer that is only 4-byte aligned (the right "
                 "stage gives such pointers)?",
        .timeout = "the kernel never finished: does every loop's index move "
                   "towards its end?",
        .too_slow = "the 64 sine samples per element are the cost: use the "
                    "single-precision sinpif, not double precision; and the "
                    "cheapest sine is the one you need not compute (see "
                    "'Accuracy for speed' in the README)",
    },
};
