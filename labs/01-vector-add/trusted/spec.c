/* spec.c - lab 01, vector add, as data. Trusted: students do not edit it.
 *
 * c[i] = a[i] + b[i] for 0 <= i < n. One float addition per element is
 * correctly rounded on every GPU (IEEE-754 round to nearest even), so the
 * comparison is exact, bit for bit.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_A, BUF_B, BUF_C };

static size_t va_count(int buf, const int64_t *dims)
{
    (void)buf;
    return (size_t)dims[0];
}

/* Values IEEE-754 treats specially; the sum must come out right for each. */
static const uint32_t VA_SPECIALS[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x00000001u, 0x807fffffu, /* smallest and largest subnormal */
    0x00800000u, 0x7f7fffffu, /* FLT_MIN, FLT_MAX */
    0xff7fffffu, 0x7f800000u, /* -FLT_MAX, +Inf */
    0xff800000u, 0x7fc00000u, /* -Inf, NaN */
    0x3f800000u, 0xbf800001u, /* 1, just below -1 */
};

/* Typical values: a and b come from different ranges, so kernels that add
 * a to itself, subtract, or copy one operand give visibly wrong answers. */
static float va_typical(int buf, rng_t *r)
{
    return buf == BUF_A ? rng_float(r, -4.0f, 12.0f) : rng_float(r, -20.0f, -2.0f);
}

static void va_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                        size_t count)
{
    float *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case 1: /* one element in three is special */
            x[i] = rng_below(&r, 3) == 0
                       ? rng_bits_to_float(VA_SPECIALS[rng_below(&r, 12)])
                       : va_typical(buf, &r);
            break;
        case 2: /* any finite float: every exponent, subnormals, overflow */
            x[i] = rng_bits_to_float(((uint32_t)rng_below(&r, 2) << 31) |
                                     (rng_below(&r, 255) << 23) |
                                     rng_below(&r, 1u << 23));
            break;
        default:
            x[i] = va_typical(buf, &r);
        }
    }
}

/* The exact sum, in double; rounding it to float gives the correctly
 * rounded float sum (double has more than 2 * 24 + 2 bits, so rounding twice
 * cannot differ from rounding once). */
static void va_reference(const lab_case *c, const void *const *inputs,
                         lab_expect *out)
{
    const float *a = inputs[BUF_A], *b = inputs[BUF_B];
    for (int64_t i = 0; i < c->dims[0]; i++)
        out[BUF_C].value[i] = (double)a[i] + (double)b[i];
}

static double va_bytes(const int64_t *dims)
{
    return 3.0 * sizeof(float) * (double)dims[0]; /* read a, b; write c */
}

const lab_spec LAB_01_VECTOR_ADD = {
    .id = "01-vector-add",
    .title = "vector add",
    .student_file = "vector_add.cu",
    .entry = "vector_add",
    .signature = "cudaError_t vector_add(const float *d_a, const float *d_b, "
                 "float *d_c, int n, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 3,
    .buffers = {
        {"d_a", BUF_INPUT, ELEM_F32},
        {"d_b", BUF_INPUT, ELEM_F32},
        {"d_c", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "with +-0, subnormals, Inf, NaN",
                      "every exponent, overflow"},
    .buffer_count = va_count,
    .generate = va_generate,
    .reference = va_reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "one float addition is correctly rounded (IEEE-754), so every "
               "bit must match",
    },
    /* Multiples of 1024 fit every block size; 4M needs more than 4096 blocks
     * of 1024 threads. */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 22}}),
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {31}}, {.dims = {33}},
                       {.dims = {1000}, .variant = 1}, {.dims = {4099}, .variant = 2},
                       {.dims = {65537}, .variant = 1}, {.dims = {1000003}},
                       {.dims = {1000003}, .variant = 2}, {.dims = {(1 << 22) + 3}}),
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}},
                          {.dims = {1000}, .variant = 1}, {.dims = {4099}}),
    .misalign = 1,
    .fast = {
        .timed = {.dims = {1 << 26}}, /* 768 MiB per call: 15x the H100's L2 */
        /* Every timed call is checked against the baseline on the GPU; the
         * re-checks on the CPU run at an odd size that is quick to compute. */
        .recheck = {.dims = {(1 << 22) + 3}},
        .baseline = "one thread per element, 32-thread blocks",
        .bytes = va_bytes,
        .roof = ROOF_COPY,
        /* Between the poor launch configurations (<= 30% of copy, <= 2.0x)
         * and every sensible one (>= 60%, >= 3.9x) on an H200; see the
         * instructor appendix (INSTRUCTOR.md) for the measurements. */
        .min_roofline = 0.50,
        .min_speedup = 3.0,
        .max_speedup = 40, /* the reference: 4.5x */
        .calibration = "calibrated on an H200 and checked against H100 figures, "
                       "see labs/01-vector-add/INSTRUCTOR.md",
    },
    .counters = {
        COUNTER_DRAM("c = a + b does one add per 12 bytes: a kernel near the copy roof keeps DRAM busy most of the time; a low figure means too few bytes in flight (too small a grid, or too little work per thread)"),
        COUNTER_LOAD_SECTORS("neighbouring threads reading neighbouring floats use every byte of each 32-byte sector; a stride between them wastes the rest of the sector"),
    },
    .hints = {
        .never_written = "the grid must cover all n elements: "
                         "blocks = (n + threads - 1) / threads, or a grid-stride loop",
        .wrong_value = "c[i] must be a[i] + b[i]: check both operands and the index",
        .write_after = "threads past the end wrote: guard the body with if (i < n)",
        .input_changed = "d_a and d_b are inputs: never write to them",
        .launch_error = "a launch was refused: at most 1024 threads per block, at "
                        "least one block, and no launch at all when n == 0",
        .crash = "a fault in the kernel: an index past n (a missing if (i < n)?) "
                 "or a float4 access on a pointer that is not 16-byte aligned",
        .timeout = "the kernel never finished: does every loop's index move "
                   "towards its end?",
        .too_slow = "use 128 to 512 threads per block and enough blocks to fill "
                    "every SM; see 'Choosing a launch configuration' in the README",
    },
};
