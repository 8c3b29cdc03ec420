/* spec.c - lab 11, 2-D convolution, as data. Trusted: students do not edit it.
 *
 * out = filter (*) in, a 2-D "convolution" as image processing and CNNs use
 * the word (a correlation: the filter is not flipped). The image is rows x
 * cols floats, row-major; the filter is (2 radius + 1)^2 floats, row-major,
 * with its centre at [radius][radius]; 0 <= radius <= 7, and
 *
 *     out[r][c] = sum over |i|, |j| <= radius of
 *                 filter[i + radius][j + radius] * in[r + i][c + j],
 *
 * where in[][] is 0 outside the image (zero padding: the "ghost cells").
 * Every rows, cols >= 0 must work; 0 of either writes nothing.
 *
 * Each output is a sum of n = (2 radius + 1)^2 products, added in whatever
 * order the kernel likes (row by row, column by column, split between
 * threads, with or without FMA). Every such order is within the bound that
 * every order of float evaluation satisfies (Higham, Accuracy and Stability
 * of Numerical Algorithms, eq. 3.5 and section 3.5):
 *
 *     |out[r][c] - exact| <= gamma_n * sum |filter[..] * in[..]|,
 *     gamma_n = n u / (1 - n u), u = 2^-24.
 *
 * The terms outside the image are zeros: they count in n (a kernel may add
 * them or skip them) and add nothing to the sum of |terms|.
 */
#include <math.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

/* The buffers, in the order lab.cu hands them over. */
enum { BUF_IN, BUF_OUT, BUF_FILTER };
enum { DIM_ROWS, DIM_COLS, DIM_RADIUS };

enum {
    V_TYPICAL,
    V_CANCEL, /* large products that cancel in pairs on opposite sides of the centre */
    V_DELTA,  /* a filter of zeros with a single 1 off the centre: a shifted copy */
    V_WIDE    /* image and filter from 2^-20 to 2^20, products from 2^-40 to 2^41 */
};

static int64_t width_of(const int64_t *dims)
{
    return 2 * dims[DIM_RADIUS] + 1;
}

static size_t conv_count(int buf, const int64_t *dims)
{
    int64_t w = width_of(dims);
    return (size_t)(buf == BUF_FILTER ? w * w : dims[DIM_ROWS] * dims[DIM_COLS]);
}

static void conv_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    if (buf == BUF_FILTER) {
        *rows = *cols = width_of(dims);
    } else {
        *rows = dims[DIM_ROWS];
        *cols = dims[DIM_COLS];
    }
}

/* +-[1, 2) * 2^e with e in [lo, hi]. */
static float signed_pow2(rng_t *r, int lo, int hi)
{
    float mant = rng_float(r, 1.0f, 2.0f);
    int e = lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
    float v = ldexpf(mant, e);
    return rng_below(r, 2) ? -v : v;
}

/* The filter of each family. Typical filters are drawn at random, so no
 * filter is symmetric: a kernel that reads filter[j][i] for filter[i][j],
 * or flips the filter (a true convolution), is wrong almost everywhere. */
static void make_filter(const lab_case *c, rng_t *r, float *f, size_t count)
{
    int64_t w = width_of(c->dims), rad = c->dims[DIM_RADIUS];
    switch (c->variant) {
    case V_CANCEL:
        /* Antisymmetric about the centre: f[a][b] = -f[w-1-a][w-1-b],
         * large (2^10 to 2^11), with a typical value in the centre. Over an
         * image of large nearly equal values (below), each pair of
         * products cancels to a small difference, but only once both have
         * been added: the exact outputs are far smaller than the terms. */
        for (int64_t k = 0; k < (int64_t)count / 2; k++) {
            float v = ldexpf(rng_float(r, 1.0f, 2.0f), 10) * (rng_below(r, 2) ? -1.0f : 1.0f);
            f[k] = v;
            f[count - 1 - (size_t)k] = -v;
        }
        f[count / 2] = rng_float(r, -0.25f, 0.75f);
        break;
    case V_DELTA: {
        /* One 1 among zeros: out[r][c] = in[r + a - rad][c + b - rad], a
         * shifted copy of the image, zero where the shift leaves it. The 1
         * sits off the diagonal (a != b) where the filter has one, so
         * that an index transposed, or off by one, shows at once. */
        for (size_t k = 0; k < count; k++) f[k] = 0.0f;
        int64_t a = rad, b = rad;
        if (rad > 0) {
            do {
                a = (int64_t)rng_below(r, (uint32_t)w);
                b = (int64_t)rng_below(r, (uint32_t)w);
            } while (a == b);
        }
        f[a * w + b] = 1.0f;
        break;
    }
    case V_WIDE:
        for (size_t k = 0; k < count; k++) f[k] = signed_pow2(r, -20, 20);
        break;
    default:
        for (size_t k = 0; k < count; k++) f[k] = rng_float(r, -0.25f, 0.75f);
    }
}

/* Typical images: values from -0.5 to 1.5 (mean 0.5), so that no output is
 * near zero by accident and the zero padding at the borders changes every
 * border output. Every value is a multiple of 2^-23 (no tiny products). */
static void conv_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    float *v = host;
    rng_t r = rng_seeded(seed);
    if (buf == BUF_FILTER) {
        make_filter(c, &r, v, count);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case V_CANCEL: /* 4096 + a typical value: large, nearly equal */
            v[i] = 4096.0f + rng_float(&r, -0.5f, 1.5f);
            break;
        case V_WIDE:
            v[i] = signed_pow2(&r, -20, 20);
            break;
        default:
            v[i] = rng_float(&r, -0.5f, 1.5f);
        }
    }
}

/* A float times a float is exact in double (24 + 24 < 53 bits). The sums
 * are plain double sums of at most 225 terms: their own error is at most
 * gamma_225 in double, 2^-29 of what the float bound allows, so the
 * reference is exact for the purpose. abs_sum is sum |terms|, the scale of
 * the bound. */
static void conv_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *in = inputs[BUF_IN], *f = inputs[BUF_FILTER];
    int64_t rows = c->dims[DIM_ROWS], cols = c->dims[DIM_COLS], rad = c->dims[DIM_RADIUS];
    int64_t w = width_of(c->dims);
    double *val = out[BUF_OUT].value, *abs_sum = out[BUF_OUT].abs_sum;
    for (int64_t y = 0; y < rows; y++) {
        for (int64_t x = 0; x < cols; x++) {
            double s = 0.0, a = 0.0;
            for (int64_t i = -rad; i <= rad; i++) {
                int64_t yy = y + i;
                if (yy < 0 || yy >= rows) continue; /* zeros: nothing to add */
                const float *frow = f + (i + rad) * w + rad, *irow = in + yy * cols;
                for (int64_t j = -rad; j <= rad; j++) {
                    int64_t xx = x + j;
                    if (xx < 0 || xx >= cols) continue;
                    double t = (double)frow[j] * (double)irow[xx];
                    s += t;
                    a += fabs(t);
                }
            }
            val[y * cols + x] = s;
            abs_sum[y * cols + x] = a;
        }
    }
}

static int64_t conv_terms(const int64_t *dims)
{
    int64_t w = width_of(dims);
    return w * w;
}

static double conv_bytes(const int64_t *dims)
{
    /* the image read once and the output written once: what any kernel must
     * move at least (the filter, at most 900 bytes, is left out) */
    return 2.0 * sizeof(float) * (double)dims[DIM_ROWS] * (double)dims[DIM_COLS];
}

static double conv_flops(const int64_t *dims)
{
    /* one multiply and one add per term, (2 radius + 1)^2 terms per output */
    double w = (double)width_of(dims);
    return 2.0 * w * w * (double)dims[DIM_ROWS] * (double)dims[DIM_COLS];
}

const lab_spec LAB_11_CONV2D = {
    .id = "11-conv2d",
    .title = "2-D convolution",
    .student_file = "conv2d.cu",
    .entry = "conv2d",
    .signature = "cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols, "
                 "const float *d_filter, int radius, cudaStream_t stream)",
    .n_dims = 3,
    .dim_names = {"rows", "cols", "radius"},
    .shrink_dims = 1u << DIM_ROWS | 1u << DIM_COLS, /* the radius is a parameter */
    .n_buffers = 3,
    .buffers = {
        {"d_in", BUF_INPUT, ELEM_F32},
        {"d_out", BUF_OUTPUT, ELEM_F32},
        {"d_filter", BUF_INPUT, ELEM_F32},
    },
    .variant_names = {"typical values",
                      "cancellation: large products that cancel in pairs across the centre",
                      "a filter with a single 1 off the centre (a shifted copy)",
                      "wide range, entries 2^-20 to 2^20"},
    .buffer_count = conv_count,
    .buffer_shape = conv_shape,
    .generate = conv_generate,
    .reference = conv_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 1.0,
        .terms = conv_terms,
        .why = "each output is a float sum of (2 radius + 1)^2 products; in any order (row "
               "by row, column by column, split over threads), with or without FMA, it is "
               "within gamma_n * sum |filter * in| of the exact value (Higham eq. 3.5), so "
               "c = 1 needs no margin; the reference is exact in double",
    },
    /* Friendly: sides multiples of 128, so any tile from 8 to 128 fits
     * without a partial tile; every radius from 1 to 3 (so a 3 x 3, a 5 x 5
     * and a 7 x 7 filter); one square image and three that are not, taller
     * and wider, so swapped rows and columns fail here; random filters, never
     * symmetric, and one shifted copy (a single 1). */
    .work = LAB_CASES({.dims = {1024, 1024, 1}}, {.dims = {512, 1536, 2}},
                      {.dims = {1536, 512, 3}}, {.dims = {768, 1024, 2}, .variant = V_DELTA}),
    /* Every radius from 0 to 7; empty images; 1 x 1; one row and one
     * column; images smaller than the filter (every output sees the
     * border on every side); sides one off a warp and off a tile, primes;
     * every family; a tall image with more than 65535 blocks of 16 rows
     * (a grid's y side cannot hold them). Every pointer is offset by 0, 4,
     * 8 or 12 bytes, each buffer differently. */
    .right = LAB_CASES({.dims = {0, 0, 1}}, {.dims = {0, 17, 2}}, {.dims = {13, 0, 3}},
                       {.dims = {1, 1, 0}}, {.dims = {1, 1, 7}},
                       {.dims = {1, 1000, 3}, .variant = V_DELTA}, {.dims = {1000, 1, 5}},
                       {.dims = {5, 3, 7}}, {.dims = {3, 5, 6}, .variant = V_CANCEL},
                       {.dims = {31, 33, 1}}, {.dims = {33, 31, 2}, .variant = V_DELTA},
                       {.dims = {17, 19, 4}, .variant = V_WIDE}, {.dims = {129, 127, 5}},
                       {.dims = {127, 129, 6}, .variant = V_CANCEL},
                       {.dims = {1, 2049, 7}, .variant = V_DELTA}, {.dims = {2049, 1, 6}},
                       {.dims = {100, 100, 0}, .variant = V_WIDE}, {.dims = {257, 263, 7}},
                       {.dims = {263, 257, 3}, .variant = V_CANCEL},
                       {.dims = {521, 1031, 2}, .variant = V_WIDE},
                       {.dims = {1031, 521, 1}, .variant = V_DELTA},
                       {.dims = {1000, 999, 7}, .variant = V_CANCEL},
                       {.dims = {8, 8, 7}, .variant = V_DELTA}, {.dims = {2048, 2048, 1}},
                       {.dims = {4097, 33, 4}, .variant = V_WIDE},
                       {.dims = {1100003, 2, 1}}),
    /* Small, for compute-sanitizer: partial tiles on every side, images
     * smaller than the filter, every family and radii up to 7, so a tile
     * read before every thread has loaded it shows in racecheck. */
    .sanitize = LAB_CASES({.dims = {0, 0, 1}}, {.dims = {1, 1, 7}}, {.dims = {5, 3, 7}},
                          {.dims = {33, 31, 2}, .variant = V_DELTA},
                          {.dims = {67, 65, 3}, .variant = V_CANCEL},
                          {.dims = {130, 129, 7}, .variant = V_WIDE}, {.dims = {40, 300, 1}}),
    /* One core runs every CUDA thread as a fiber in the emulation: the same
     * kinds of sizes, smaller (at most about 40 thousand outputs), but for
     * one column too tall for a grid with 65535 blocks of 8 rows on y. */
    .emulated = {
        .work = LAB_CASES({.dims = {128, 128, 1}}, {.dims = {64, 192, 2}},
                          {.dims = {192, 64, 3}}, {.dims = {128, 96, 2}, .variant = V_DELTA}),
        .right = LAB_CASES({.dims = {0, 0, 1}}, {.dims = {0, 17, 2}}, {.dims = {13, 0, 3}},
                           {.dims = {1, 1, 0}}, {.dims = {1, 1, 7}},
                           {.dims = {1, 300, 3}, .variant = V_DELTA}, {.dims = {300, 1, 5}},
                           {.dims = {5, 3, 7}}, {.dims = {3, 5, 6}, .variant = V_CANCEL},
                           {.dims = {31, 33, 1}}, {.dims = {33, 31, 2}, .variant = V_DELTA},
                           {.dims = {17, 19, 4}, .variant = V_WIDE}, {.dims = {65, 63, 5}},
                           {.dims = {63, 65, 6}, .variant = V_CANCEL},
                           {.dims = {1, 257, 7}, .variant = V_DELTA}, {.dims = {257, 1, 6}},
                           {.dims = {40, 40, 0}, .variant = V_WIDE}, {.dims = {97, 101, 7}},
                           {.dims = {101, 97, 3}, .variant = V_CANCEL},
                           {.dims = {70, 130, 2}, .variant = V_WIDE},
                           {.dims = {130, 70, 1}, .variant = V_DELTA},
                           {.dims = {8, 8, 7}, .variant = V_DELTA},
                           {.dims = {600001, 1, 1}}),
    },
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* Radius 1 on 8192 x 8192: 256 MiB in, 256 MiB out per call (10x
         * the H100's L2), 18 flops per output: memory-bound, measured
         * against copy. The re-check on fresh inputs runs at radius 7, the
         * compute-bound end, on a ragged size the CPU checks in about a
         * second (the ladder, `make ladder LAB=11`, times radius 7 too). */
        .timed = {.dims = {8192, 8192, 1}},
        .recheck = {.dims = {1000, 1531, 7}},
        .baseline = "one thread per output, filter and image read from global memory",
        .bytes = conv_bytes,
        .flops = conv_flops,
        .roof = ROOF_COPY,
        /* Measured on an H200 (2026-12-03: three gradings and make ladder
         * LAB=11; INSTRUCTOR.md has the tables): the reference 77.2-77.6%
         * of copy, 3.01-3.02x; the naive rung 25.7%, 1.00x, and the rungs
         * with a run-time radius (constant filter, shared tile, four
         * outputs per thread) no better at radius 1: 25.5-26.2%, at most
         * 1.02x (their L1 already serves the nine loads an output makes).
         * Rung v5, the radius as a template parameter alone, reaches
         * 54.9-55.6% and 2.1x: it is the idea the hint names, so it must
         * pass, and it must not sit on the bar (55% until then flipped its
         * verdict from run to run). 45% sits 1.22x below v5 and 1.72x
         * above the best rung that must fail; on the H100 (2026-11-27, the
         * rungs with a run-time radius at most 36.6%, v5 74%) it is 1.23x
         * above them. 1.5x is 1.43x below v5 and 1.47x above the best
         * failing rung. */
        .min_roofline = 0.45,
        .min_speedup = 1.5,
        .max_speedup = 30, /* about ten times the reference's */
        .calibration = "H200, 2026-12-03: reference 77% of copy and 3.0x, radius as a "
                       "template 55% and 2.1x, naive 26% and 1.0x; at radius 7 the "
                       "reference 7.8x, a shared tile 1.5x (labs/11-conv2d/INSTRUCTOR.md)",
        /* Radius 7 on the same image, compute-bound: 225 multiply-adds per
         * output. On the H200 (make ladder LAB=11, 2026-12-03) the
         * reference is 7.82-7.84x the baseline (0.72 ms, about 41.7
         * TFLOP/s, 62% of the FP32 peak); the radius as a template with one
         * column per thread 5.87x; a shared tile alone 1.47x, four outputs
         * per thread 1.27x, the constant filter 1.08x. 3x sits 1.96x below
         * the template rung and 2.0x above the best rung that must fail. */
        .second = {.timed = {.dims = {8192, 8192, 7}},
                   .what = "radius 7 (8192 x 8192)",
                   .min_speedup = 3.0},
    },
    .counters = {
        COUNTER_DRAM("each output reads a (2r+1)^2 window: a kernel that reads every input once from DRAM is limited by memory only at small radii"),
        COUNTER_L1_HITS("neighbouring outputs share most of their window: without a shared tile the reuse depends on the L1 cache"),
        COUNTER_SHARED_LOAD_PASSES("a shared tile read by neighbouring threads along a row costs one pass; reading down its columns can conflict"),
        COUNTER_WARP_INSTRUCTIONS("several outputs per thread reuse loaded values from registers: fewer instructions per multiply-add"),
    },
    .hints = {
        .never_written = "every out[r][c] must be written, for every radius from 0 to 7: "
                         "does your grid cover the last partial tile of rows and of columns, "
                         "and does your dispatch on the radius handle every value (a switch "
                         "over template instances needs a case for each)?",
        .wrong_value = "out[r][c] = sum of filter[i + radius][j + radius] * in[r + i][c + j] "
                       "over -radius <= i, j <= radius, with in = 0 outside the image (not the "
                       "nearest edge value): check the filter's row (i, along rows) and "
                       "column (j), the loop bounds (<= radius), the halo cells outside "
                       "the image must be set to 0, and a __syncthreads() between loading a "
                       "tile and reading it",
        .special_values = "NaN or Inf, but the inputs are finite: a value read that was never "
                          "stored (the halo cells outside the image must be set to 0, not "
                          "skipped: shared memory holds whatever the last block left there), "
                          "or an output read before it was written (it holds NaN on entry)",
        .write_before = "only out[0 .. rows*cols) is yours to write: a negative row or "
                        "column index in a store",
        .write_after = "threads of the last partial tile must not store: guard every store "
                       "with r < rows && c < cols",
        .input_changed = "d_in and d_filter are inputs: copy the filter to __constant__ "
                         "memory and the tile to shared memory, never write them back",
        .launch_error = "a call failed: a __constant__ filter must hold 15 x 15 floats (radius "
                        "7), at most 1024 threads per block, grid y and z at most 65535 (a tall "
                        "image needs more blocks of rows: put them on x, or loop), no launch "
                        "with zero blocks (rows == 0 or cols == 0: return at once), shared "
                        "memory within 48 KiB unless you opt in",
        .crash = "a fault in the kernel: a load outside the image (the halo of a border "
                 "tile: guard it and use 0), or a vector access at an address that is not "
                 "16-byte aligned (the pointers are only 4-byte aligned)",
        .timeout = "the kernel never finished: does every loop over the tile and the filter "
                   "advance, also for radius 0, and does every thread reach every "
                   "__syncthreads()?",
        .too_slow = "at radius 1 every output needs 9 image values, which L1 already "
                    "serves: a shared tile, a __constant__ filter or several outputs per "
                    "thread gain little alone; what pays is a loop the compiler can unroll "
                    "fully (the radius as a compile-time constant) over a tile loaded once, "
                    "so each thread does little more than its loads and stores; see the "
                    "README's ladder",
    },
};
