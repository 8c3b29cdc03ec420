/* spec.c - lab 07, matrix multiply, as data. Trusted: students do not edit it.
 *
 * C = A B in single precision, every matrix row-major: A is m x k, B is
 * k x n, C is m x n, and C[i][j] = sum over p of A[i][p] * B[p][j]. Every
 * size >= 0 must work: k = 0 makes C all zeros, m = 0 or n = 0 an empty C.
 *
 * Each output is a sum of k products, added in whatever order the kernel
 * likes (along k in one thread, in tiles, split across threads), so no
 * single float answer is "the" answer. Each element is held to the error
 * bound that every order of float evaluation satisfies (Higham, Accuracy and
 * Stability of Numerical Algorithms, eq. 3.5 and section 3.5):
 *
 *     |C[i][j] - exact| <= gamma_k * sum_p |A[i][p] B[p][j]|,
 *     gamma_k = k u / (1 - k u), u = 2^-24.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_A, BUF_B, BUF_C };
enum { DIM_M, DIM_N, DIM_K };

enum {
    V_TYPICAL,
    V_CANCEL, /* large products that cancel in pairs far apart along k */
    V_WIDE    /* entries from 2^-20 to 2^20, products from 2^-40 to 2^41 */
};

static size_t mm_count(int buf, const int64_t *dims)
{
    int64_t m = dims[DIM_M], n = dims[DIM_N], k = dims[DIM_K];
    return (size_t)(buf == BUF_A ? m * k : buf == BUF_B ? k * n : m * n);
}

static void mm_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    int64_t m = dims[DIM_M], n = dims[DIM_N], k = dims[DIM_K];
    *rows = buf == BUF_A ? m : buf == BUF_B ? k : m;
    *cols = buf == BUF_A ? k : n;
}

/* Typical values: A and B come from different ranges with different means
 * (E a = 0.5, E b = -0.25), so A B, A^T B, A B^T, B A and sums of either
 * matrix are all far apart, and no output is near zero by accident. Every
 * value is a multiple of 2^-23 (no tiny products). */
static float mm_typical(int buf, rng_t *r)
{
    return buf == BUF_A ? rng_float(r, -0.5f, 1.5f) : rng_float(r, -1.25f, 0.75f);
}

/* +-[1, 2) * 2^e with e in [lo, hi]. */
static float signed_pow2(rng_t *r, int lo, int hi)
{
    float mant = rng_float(r, 1.0f, 2.0f);
    int e = lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
    float v = ldexpf(mant, e);
    return rng_below(r, 2) ? -v : v;
}

static void mm_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                        size_t count)
{
    float *v = host;
    int64_t n = c->dims[DIM_N], k = c->dims[DIM_K];
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case V_CANCEL: {
            /* Column p of A and row p of B pair up with column (row)
             * k-1-p: A repeats its value there, B flips its sign, so the
             * two products of every output cancel exactly, but only once
             * the sum has gone from one end of k to the other. One pair in
             * eight (and the middle of an odd k) carries typical values.
             * The exact outputs are small, the products up to 2^30. */
            int64_t p = buf == BUF_A ? (int64_t)i % k : (int64_t)i / n;
            int64_t mirror = k - 1 - p, first = p < mirror ? p : mirror;
            /* where the twin sits, when p is the second of the pair */
            int64_t twin = (int64_t)i - (p - mirror) * (buf == BUF_A ? 1 : n);
            if (first % 8 == 7 || p == mirror)
                v[i] = mm_typical(buf, &r);
            else if (p < mirror)
                v[i] = signed_pow2(&r, 10, 14);
            else /* the twin came earlier: same row of A, earlier row of B */
                v[i] = buf == BUF_A ? v[twin] : -v[twin];
            break;
        }
        case V_WIDE:
            v[i] = signed_pow2(&r, -20, 20);
            break;
        default:
            v[i] = mm_typical(buf, &r);
        }
    }
}

/* A float times a float is exact in double (24 + 24 < 53 bits). The sums
 * are plain double sums: their own error is at most gamma_k in double,
 * 2^-29 of what the float bound allows, so the reference is exact for the
 * purpose. abs_sum is sum_p |A[i][p] B[p][j]|, the scale of the bound.
 * The loops run i, p, j so that B and C are read along rows. */
static void mm_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *a = inputs[BUF_A], *b = inputs[BUF_B];
    int64_t m = c->dims[DIM_M], n = c->dims[DIM_N], k = c->dims[DIM_K];
    double *val = out[BUF_C].value, *abs_sum = out[BUF_C].abs_sum;
    for (int64_t i = 0; i < m; i++) {
        double *vrow = val + i * n, *srow = abs_sum + i * n;
        for (int64_t j = 0; j < n; j++) vrow[j] = srow[j] = 0.0;
        for (int64_t p = 0; p < k; p++) {
            double aip = a[i * k + p];
            const float *brow = b + p * n;
            for (int64_t j = 0; j < n; j++) {
                double t = aip * (double)brow[j];
                vrow[j] += t;
                srow[j] += fabs(t);
            }
        }
    }
}

static int64_t mm_terms(const int64_t *dims)
{
    return dims[DIM_K];
}

static double mm_bytes(const int64_t *dims)
{
    /* A and B read once, C written once: what any kernel must move at least */
    double m = (double)dims[DIM_M], n = (double)dims[DIM_N], k = (double)dims[DIM_K];
    return sizeof(float) * (m * k + k * n + m * n);
}

static double mm_flops(const int64_t *dims)
{
    /* one multiply and one add per term, k terms per output */
    return 2.0 * (double)dims[DIM_M] * (double)dims[DIM_N] * (double)dims[DIM_K];
}

const lab_spec LAB_07_MATMUL = {
    .id = "07-matmul",
    .title = "matrix multiply",
    .student_file = "matmul.cu",
    .entry = "matmul",
    .signature = "cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, "
                 "int m, int n, int k, cudaStream_t stream)",
    .n_dims = 3,
    .dim_names = {"m", "n", "k"},
    .shrink_dims = 1u << 0 | 1u << 1 | 1u << 2,
    .n_buffers = 3,
    .buffers = {
        {"d_a", BUF_INPUT, ELEM_F32},
        {"d_b", BUF_INPUT, ELEM_F32},
        {"d_c", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "cancellation: large products that cancel along k",
                      "wide range, entries 2^-20 to 2^20"},
    .buffer_count = mm_count,
    .buffer_shape = mm_shape,
    .generate = mm_generate,
    .reference = mm_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 1.0,
        .terms = mm_terms,
        .why = "each C[i][j] is a float sum of k products; in any order (along k, by "
               "tiles, split over threads), with or without FMA, it is within gamma_k * "
               "sum_p |A[i][p] B[p][j]| of the exact value (Higham eq. 3.5), so c = 1 "
               "needs no margin; the reference is exact in double",
    },
    /* Friendly: m and n multiples of 128 and k of 32, so any tile from 8 to
     * 128 fits without a partial tile, every row a whole number of float4s,
     * pointers 256-byte aligned. One square case and two rectangular ones
     * with m, n and k all different: swapped indices, A^T or a square-only
     * kernel fail here. */
    .work = LAB_CASES({.dims = {128, 128, 128}}, {.dims = {256, 384, 512}},
                      {.dims = {1024, 512, 256}}, {.dims = {512, 1024, 768}}),
    /* Empty C, k = 0 (C = 0, and C must still be written), one element,
     * one long dot product, sides one off a warp and a tile, primes, k that
     * is not a multiple of 8 or 32 (a partial last tile along k), single
     * rows and columns, n not a multiple of 4 (no whole float4 per row),
     * a long k with a tiny C, a friendly size with only misaligned
     * pointers, both adversarial families, and a matrix with more than
     * 65535 blocks of 32 rows (a grid's y side cannot hold them). Every
     * pointer is offset by 0, 4, 8 or 12 bytes, each buffer differently. */
    .right = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {0, 37, 5}}, {.dims = {41, 0, 5}},
                       {.dims = {33, 31, 0}}, {.dims = {1, 1, 1}},
                       {.dims = {1, 1, 1000}, .variant = V_WIDE},
                       {.dims = {31, 33, 17}}, {.dims = {33, 31, 65}, .variant = V_CANCEL},
                       {.dims = {127, 129, 31}, .variant = V_WIDE}, {.dims = {129, 127, 33}},
                       {.dims = {1, 2051, 64}}, {.dims = {2051, 1, 63}, .variant = V_CANCEL},
                       {.dims = {64, 4, 4}}, {.dims = {6, 8, 12}, .variant = V_WIDE},
                       {.dims = {5, 7, 4099}}, {.dims = {97, 101, 1031}, .variant = V_WIDE},
                       {.dims = {257, 509, 263}, .variant = V_CANCEL},
                       {.dims = {640, 1152, 36}}, {.dims = {1021, 1031, 130}},
                       {.dims = {512, 512, 512}, .variant = V_WIDE},
                       {.dims = {768, 256, 1024}, .variant = V_CANCEL},
                       {.dims = {2100001, 3, 5}}),
    /* Small, for compute-sanitizer: partial tiles on every side, k = 0,
     * and k spanning several tiles of depth up to 32, so a tile reloaded
     * before every warp has finished with it is seen by racecheck. */
    .sanitize = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {1, 1, 1}}, {.dims = {33, 31, 0}},
                          {.dims = {31, 33, 17}}, {.dims = {33, 31, 65}, .variant = V_CANCEL},
                          {.dims = {129, 130, 33}, .variant = V_WIDE},
                          {.dims = {65, 67, 100}}),
    /* One core runs every CUDA thread as a fiber in the emulation: the same
     * kinds of sizes, smaller (at most 64 thousand outputs). */
    .emulated = {
        .work = LAB_CASES({.dims = {128, 128, 128}}, {.dims = {128, 256, 64}},
                          {.dims = {256, 128, 96}}),
        .right = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {0, 37, 5}}, {.dims = {41, 0, 5}},
                           {.dims = {33, 31, 0}}, {.dims = {1, 1, 1}},
                           {.dims = {1, 1, 300}, .variant = V_WIDE},
                           {.dims = {31, 33, 17}},
                           {.dims = {33, 31, 65}, .variant = V_CANCEL},
                           {.dims = {127, 129, 31}, .variant = V_WIDE},
                           {.dims = {129, 127, 33}}, {.dims = {1, 259, 64}},
                           {.dims = {259, 1, 63}, .variant = V_CANCEL},
                           {.dims = {64, 4, 4}}, {.dims = {6, 8, 12}, .variant = V_WIDE},
                           {.dims = {5, 7, 1031}}, {.dims = {97, 101, 37}, .variant = V_CANCEL},
                           {.dims = {160, 192, 36}}),
    },
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* 137 GFLOP per call; A, B and C are 64 MiB each (192 MiB, about 4x
         * the H100's L2). The CPU reference of this size would take
         * minutes, so the answer is re-checked on a smaller, ragged size:
         * no side a multiple of 128, k a multiple of 4 but not of 8, several
         * tiles each way, and small enough (0.15 G multiply-adds) that the
         * CPU checks both re-checks in a fraction of a second. Every timed
         * call is also compared with the baseline's answer at 4096. */
        .timed = {.dims = {4096, 4096, 4096}},
        .recheck = {.dims = {600, 536, 452}},
        .baseline = "one thread per output, no shared memory",
        .bytes = mm_bytes,
        .flops = mm_flops,
        .roof = ROOF_VENDOR,
        /* H100: the ladder's v5 (register tiles, double-buffered) 80% of
         * cuBLAS and 6.9x naive; 32x32 shared tiles 17% and 1.5x; naive 9%.
         * The reference (v6, warp tiles and cp.async): 91-94% and 7.8x. */
        .min_roofline = 0.50,
        .min_speedup = 3.0,
        .max_speedup = 70, /* the reference: 7.8x */
        /* Every timed C is compared with the baseline's. Two float
         * evaluations of the timed size (any order of the k terms, with or
         * without FMA) differ by about 5e-7 of the output's scale, at most
         * about 3e-6 over 16M outputs; TF32 or half inputs (10 bits of
         * mantissa) put a quarter of the outputs above 1e-5, and TF32 on
         * half of k still an eighth. So 1e-5, where the default 1e-3
         * would let lower precision through at the timed size (the CPU
         * checks smaller sizes, where the Higham bound is tight enough). */
        .timed_agreement = 1e-5,
        .calibration = "H100 2026-11-21: register tiles 80% of cuBLAS, shared tiles 17%; "
                       "2026-11-27: reference 91-94%; see labs/07-matmul/INSTRUCTOR.md",
    },
    /* cuBLAS is the roof the fast stage measures against, never the answer. */
    .forbidden = {{"cublas", "cuBLAS", "/cublas"}, {"cub::", "CUB", "/cub/"}, {"thrust::", "Thrust", "/thrust/"}},
    .link_flags = {"-lcublas"},
    .counters = {
        COUNTER_FMA_PIPE("a matrix product is n^3 multiply-adds: the closer the FMA pipe is to busy all the time, the closer to the roof"),
        COUNTER_SHARED_LOAD_PASSES("tiles read from shared memory by every thread: bank conflicts add passes, and register tiles make each read feed several FMAs"),
        COUNTER_REGISTERS("each thread's tile of results lives in registers: more registers per thread buy more reuse, until occupancy falls"),
    },
    .hints = {
        .never_written = "every C[i][j] must be written, with 0 when k == 0: does your grid "
                         "cover the last partial tile of rows and of columns, and do you "
                         "still launch (or memset C) when k == 0? C holds NaN on entry, so "
                         "a kernel that reads C before writing it (beta * C with beta = 0: "
                         "0 * NaN is NaN) hands the fill back as if never written",
        .wrong_value = "C[i][j] = sum over p of A[i][p] * B[p][j], with A[i][p] at "
                       "a[i * k + p] and B[p][j] at b[p * n + j]: check the row lengths "
                       "(k for A, n for B and C), the last partial tile along k (loads "
                       "past k must add zeros), and a __syncthreads() after the tile is "
                       "used, before it is overwritten",
        .special_values = "NaN or Inf: C holds NaN on entry, so reading C before writing "
                          "it (alpha * AB + beta * C with beta = 0: 0 * NaN is NaN) passes "
                          "the NaN on; else an output never finished, values read from "
                          "outside the tile (past k, m or n) instead of zeros, or an "
                          "accumulator with a small range (half precision overflows at 65504)",
        .write_before = "only C[0 .. m*n) is yours to write: a negative index, or a "
                        "vector store rounded below C's start",
        .write_after = "threads of the last partial tile must not store: guard every store "
                       "with row < m && col < n",
        .input_changed = "d_a and d_b are inputs: copy tiles to shared memory or registers, "
                         "never write them back",
        .launch_error = "a launch was refused: at most 1024 threads per block, grid y and z "
                        "at most 65535 (put the larger count on x, or loop), no launch with "
                        "zero blocks (m == 0 or n == 0: return at once), shared memory "
                        "within 48 KiB unless you opt in",
        .crash = "a fault in the kernel: a load past the end of A or B from a partial "
                 "tile (guard it and load 0), or a float4 access at an address that is not "
                 "16-byte aligned (the pointers are only 4-byte aligned, and a row of k "
                 "or n floats starts 16-byte aligned only when k or n is a multiple of 4)",
        .timeout = "the kernel never finished: does every tile loop advance, and does "
                   "every thread of the block reach every __syncthreads()?",
        .too_slow = "shared-memory tiles alone are not enough on this GPU: give each "
                    "thread a block of outputs (e.g. 8 x 8) in registers so that every "
                    "value read from shared memory feeds several FMAs, read tiles with "
                    "float4 loads, and load the next tile while computing this one; see "
                    "the README's ladder",
    },
};
