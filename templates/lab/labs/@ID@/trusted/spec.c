/* spec.c - lab @NN@, @TITLE@, as data. Trusted: students do not edit it.
 *
 * Written by `make new-lab` from templates/lab/. It describes a PLACEHOLDER
 * problem, y[i] = 2 * x[i] + 1 for 0 <= i < n, so that the new lab builds,
 * grades and is tested from its first minute. Replace the problem with the
 * lab's own (buffers, generator, reference, tolerance, sizes, hints), then
 * calibrate the thresholds on a GPU: every TODO(author) below says what.
 *
 * Why the placeholder can be judged exactly: 2 * x is exact in binary
 * floating point (doubling loses no bits, for subnormals too, and an
 * overflow is +-Inf either way), so 2 * x + 1 has a single rounding, the
 * addition's. A fused multiply-add rounds once too, so a compiler that
 * contracts the expression into an FMA gives the same bits.
 */
#include "lab_spec.h"
#include "rng.h"

/* The buffers, in the order of the entry point's parameters; lab.cu hands
 * them over in this order. */
enum { BUF_X, BUF_Y };

/* Both buffers hold n floats. */
static size_t buffer_count(int buf, const int64_t *dims)
{
    (void)buf;
    return (size_t)dims[0];
}

/* Values IEEE-754 treats specially: the answer must come out right for each
 * (the adversarial family, variant 1). */
static const uint32_t SPECIALS[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x00000001u, 0x807fffffu, /* the smallest and the largest subnormal */
    0x00800000u, 0x7f7fffffu, /* FLT_MIN, FLT_MAX: 2 * FLT_MAX overflows */
    0xff7fffffu, 0x7f800000u, /* -FLT_MAX, +Inf */
    0xff800000u, 0x7fc00000u, /* -Inf, NaN */
    0xbf000000u, 0x3f800000u, /* -0.5 (the answer is +0), 1 */
};
enum { N_SPECIALS = sizeof SPECIALS / sizeof SPECIALS[0] };

/* Typical values: a range wide enough that a kernel which forgets the
 * factor or the offset is wrong almost everywhere. */
static float typical(rng_t *r)
{
    return rng_float(r, -100.0f, 100.0f);
}

/* Inputs are made from the grader's seed alone, on both sides (the parent
 * that judges and the runner that calls the student), so only outputs ever
 * travel between them. */
static void generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    (void)buf; /* the only input */
    float *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case 1: /* one element in three is special */
            x[i] = rng_below(&r, 3) == 0 ? rng_bits_to_float(SPECIALS[rng_below(&r, N_SPECIALS)])
                                         : typical(&r);
            break;
        case 2: /* any finite float: every exponent, subnormals, overflow */
            x[i] = rng_bits_to_float(((uint32_t)rng_below(&r, 2) << 31) |
                                     (rng_below(&r, 255) << 23) | rng_below(&r, 1u << 23));
            break;
        default:
            x[i] = typical(&r);
        }
    }
}

/* The CPU reference, in double; the grader rounds each value to float
 * before comparing. 2 * x is exact in double. Where 2 * x + 1 is not exact
 * in double as well, one of its two terms is below half a float ulp of the
 * other (|2 * x| >= 2^53 or < 2^-29), so the float nearest the double is
 * the float nearest the exact sum: the comparison can be exact. */
static void reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *x = inputs[BUF_X];
    for (int64_t i = 0; i < c->dims[0]; i++)
        out[BUF_Y].value[i] = 2.0 * (double)x[i] + 1.0;
}

/* The fewest bytes a call must move: read x once, write y once. The
 * roofline compares this with the same-run copy bandwidth. */
static double bytes_moved(const int64_t *dims)
{
    return 2.0 * sizeof(float) * (double)dims[0];
}

const lab_spec @SYMBOL@ = {
    .id = "@ID@",
    .title = "@TITLE@",
    .student_file = "@FILE@",
    .entry = "@ENTRY@",
    .signature = "cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0, /* TODO(author): every dim that is a size */
    .n_buffers = 2,
    .buffers = {
        /* TODO(author): y[i] depends on x[i] alone, so the fast stage
         * draws x's 12 low bits afresh every timed round (a table of
         * answers kept by value would pass otherwise: lab_spec.h). Set 0
         * if the exact values of x matter to the lesson. */
        {"d_x", BUF_INPUT, ELEM_F32, NULL, .redrawn_bits = 12},
        {"d_y", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "with +-0, subnormals, Inf, NaN",
                      "every exponent, overflow"},
    .buffer_count = buffer_count,
    .generate = generate,
    .reference = reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "2 * x is exact, so 2 * x + 1 rounds once, on the CPU and on every GPU: "
               "every bit must match",
    },
    /* work: friendly sizes, multiples of 1024 so that every block size fits;
     * the largest needs more than 4096 blocks of 1024 threads. */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 22}}),
    /* right: sizes no block size divides (0, 1, 31, 33, primes), every
     * input family, and one size twice with different values. */
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {31}}, {.dims = {33}},
                       {.dims = {1000}, .variant = 1}, {.dims = {4099}, .variant = 2},
                       {.dims = {65537}, .variant = 1}, {.dims = {1000003}},
                       {.dims = {1000003}, .variant = 2}, {.dims = {(1 << 22) + 3}}),
    /* Small sizes for compute-sanitizer, which is slow. */
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}},
                          {.dims = {1000}, .variant = 1}, {.dims = {4099}}),
    /* The CPU emulation runs every CUDA thread as a fiber on one core, so
     * labs with real work per element list smaller sizes here (the right
     * stage should stay under 10 s). Keep the odd and adversarial sizes,
     * and one size above 16 SMs x 2048 threads = 32768, the GPU the
     * emulation models, so that a grid sized to "what the GPU holds" must
     * loop. The placeholder is cheap; the lists only show the shape.
     * TODO(author): size these for the lab's real problem. */
    .emulated = {
        .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 20}}),
        .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {31}}, {.dims = {33}},
                           {.dims = {1000}, .variant = 1}, {.dims = {4099}, .variant = 2},
                           {.dims = {65537}, .variant = 1}, {.dims = {100003}},
                           {.dims = {100003}, .variant = 2}, {.dims = {(1 << 20) + 3}}),
    },
    /* racecheck and synccheck matter once the lab uses shared memory and
     * barriers; memcheck always runs. */
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    /* Offset every pointer by 0, 4, 8 or 12 bytes in right, so that a
     * kernel assuming 16-byte alignment (float4) is caught. */
    .misalign = 1,
    .fast = {
        .timed = {.dims = {1 << 26}}, /* 512 MiB per call: 10x the H100's L2 */
        /* Every timed call is checked against the baseline on the GPU; the
         * re-check on fresh inputs runs at an odd size that is quick to
         * compute on the CPU. */
        .recheck = {.dims = {(1 << 22) + 3}},
        .baseline = "one thread per element, 32-thread blocks",
        .bytes = bytes_moved,
        .roof = ROOF_COPY,
        /* PROVISIONAL: not yet measured. TODO(author): calibrate on a GPU
         * before students see the lab. Run `make ladder LAB=@NN@` and
         * `tests/calibrate.sh @NN@ 3`, then set each threshold in the widest
         * gap between the versions that must pass (the reference, the
         * correct files marked __fast) and those that must fail (the wrong
         * files marked __fast), on every run and every GPU measured; write
         * the figures in the README's "Measurements and thresholds". The
         * README and the slides quote these two numbers (make test checks
         * that they agree), so change them here and there together. */
        .min_roofline = 0.50,
        .min_speedup = 2.0,
        /* A speedup above this cannot have been measured honestly: about
         * ten times the reference's on the fastest GPU it was calibrated on.
         * PROVISIONAL too. */
        .max_speedup = 40,
        .calibration = "PROVISIONAL, not yet calibrated on a GPU: see labs/@ID@/README.md",
    },
    /* One hint per kind of failure, tied to the lesson; a missing one falls
     * back to the grader's generic hint. TODO(author): rewrite for the
     * lab's problem. */
    .hints = {
        .never_written = "the grid must cover all n elements: "
                         "blocks = (n + threads - 1) / threads, or a grid-stride loop",
        .wrong_value = "y[i] must be 2 * x[i] + 1: check the factor, the offset and the index",
        .special_values = "Inf and NaN must pass through the formula like any other value: "
                          "no special cases are needed",
        .write_after = "threads past the end wrote: guard the body with if (i < n)",
        .input_changed = "d_x is an input: never write to it",
        .launch_error = "a launch was refused: at most 1024 threads per block, at least one "
                        "block, and no launch at all when n == 0",
        .crash = "a fault in the kernel: an index past n (a missing if (i < n)?) or a "
                 "float4 access on a pointer that is not 16-byte aligned",
        .timeout = "the kernel never finished: does every loop's index move towards its end?",
        .too_slow = "use 128 to 512 threads per block and enough blocks to fill every SM",
    },
};
