/* spec.c - lab 13, tensor cores: half-precision GEMM with float
 * accumulation, as data. Trusted: students do not edit it.
 *
 * C = A B with A (m x k) and B (k x n) in IEEE half precision and C (m x n)
 * in float, every matrix row-major: C[i][j] = sum over p of A[i][p] B[p][j].
 * Every size >= 0 must work: k = 0 makes C all zeros, m = 0 or n = 0 an
 * empty C.
 *
 * The tolerance (the README's "How the grader judges a tensor-core sum"
 * derives it). The product of two halves has at most 22 significant bits
 * and an exponent from -48 to 32, so it is exact in float. A tensor core
 * adds a block of b such products and the float accumulator by aligning
 * them all to the largest, keeping at least 24 bits below its leading bit
 * (cutting, not rounding, the rest) and normalising the sum into float,
 * again by cutting on the GPUs measured (Fasi, Higham, Mikaitis and
 * Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ Computer
 * Science 7:e330, 2021, for V100, T4 and A100; Khattak and Mikaitis,
 * "Accurate models of NVIDIA tensor cores", arXiv:2512.07004, 2025, for
 * H100 and B200: block sizes differ, the 24 bits do not shrink for half
 * inputs with a float accumulator). Each term cut loses less than one unit
 * of the 24th bit of the largest, 2u of it (u = 2^-24), and the final cut
 * less than 2u of the sum, so a block of b products changes the running
 * sum s by at most 2u (b + 1)(|s| + sum of the block's |products|). Over
 * the k products in blocks of any sizes (and any float additions of
 * partial sums in between, split-k), the error is at most
 *
 *     2u (k + number of blocks) * sum_p |A[i][p] B[p][j]|  <=  4 k u * sum |terms|
 *
 * to first order, so the bound is c gamma_k sum |terms| with c = 4: it
 * holds for every block size from 1 (plain float, gamma_k) up, for cutting
 * or rounding, for any order of the blocks. A half accumulator (11 bits)
 * or inputs rounded below half precision (bfloat16, 8 bits) break it by
 * orders of magnitude.
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
    V_CANCEL,   /* large products that cancel in pairs far apart along k */
    V_WIDE,     /* every normal exponent of half, products 2^-28 to 2^30 */
    V_SUBNORMAL /* A mostly subnormal halves, B near the top of the range */
};

static size_t hg_count(int buf, const int64_t *dims)
{
    int64_t m = dims[DIM_M], n = dims[DIM_N], k = dims[DIM_K];
    return (size_t)(buf == BUF_A ? m * k : buf == BUF_B ? k * n : m * n);
}

static void hg_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    int64_t m = dims[DIM_M], n = dims[DIM_N], k = dims[DIM_K];
    *rows = buf == BUF_A ? m : buf == BUF_B ? k : m;
    *cols = buf == BUF_A ? k : n;
}

/* Typical values: A from [-0.5, 1.5) and B from [-1.25, 0.75), rounded to
 * half, so A B, A^T B, B A and sums of either matrix are far apart and no
 * output is near zero by accident. */
static uint16_t hg_typical(int buf, rng_t *r)
{
    float v = buf == BUF_A ? rng_float(r, -0.5f, 1.5f) : rng_float(r, -1.25f, 0.75f);
    return lab_f16_from_float(v);
}

/* A random half +-[1, 2) 2^e, e in [lo, hi] (lo >= -14, hi <= 15), made
 * from its bits, so it never rounds to Inf. */
static uint16_t half_pow2(rng_t *r, int lo, int hi)
{
    int e = lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
    uint16_t bits = (uint16_t)((e + 15) << 10 | rng_below(r, 1024));
    return (uint16_t)(bits | (rng_below(r, 2) ? 0x8000 : 0));
}

static void hg_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    uint16_t *v = host;
    int64_t n = c->dims[DIM_N], k = c->dims[DIM_K];
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case V_CANCEL: {
            /* Column p of A and row p of B pair up with column (row)
             * k-1-p: A repeats its value there, B flips its sign, so the two
             * products of every output cancel exactly, but only once the sum
             * has gone from one end of k to the other. One pair in eight
             * (and the middle of an odd k) carries typical values. The exact
             * outputs are small, the products up to 2^20. */
            int64_t p = buf == BUF_A ? (int64_t)i % k : (int64_t)i / n;
            int64_t mirror = k - 1 - p, first = p < mirror ? p : mirror;
            int64_t twin = (int64_t)i - (p - mirror) * (buf == BUF_A ? 1 : n);
            if (first % 8 == 7 || p == mirror)
                v[i] = hg_typical(buf, &r);
            else if (p < mirror)
                v[i] = half_pow2(&r, 6, 9);
            else /* the twin came earlier */
                v[i] = buf == BUF_A ? v[twin] : (uint16_t)(v[twin] ^ 0x8000);
            break;
        }
        case V_WIDE:
            v[i] = half_pow2(&r, -14, 15);
            break;
        case V_SUBNORMAL:
            /* A: three in four subnormal (1 to 1023 units of 2^-24), the
             * rest just above (2^-14 to 2^-11); B: 2^10 to 2^15. Products
             * from 2^-14 to 2^5: a conversion or a load that flushes
             * subnormal halves to zero loses most of every output. */
            if (buf == BUF_A)
                v[i] = rng_below(&r, 4) ? (uint16_t)((1 + rng_below(&r, 1023)) |
                                                     (rng_below(&r, 2) ? 0x8000 : 0))
                                        : half_pow2(&r, -14, -12);
            else
                v[i] = half_pow2(&r, 10, 15);
            break;
        default:
            v[i] = hg_typical(buf, &r);
        }
    }
}

/* A half times a half is exact in double. The sums are plain double sums:
 * their own error is at most gamma_k in double, 2^-29 of what the float
 * bound allows, so the reference is exact for the purpose. abs_sum is
 * sum_p |A[i][p] B[p][j]|, the scale of the bound. The halves are decoded
 * once; the loops run i, p, j so that B and C are read along rows. */
static void hg_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const uint16_t *a = inputs[BUF_A], *b = inputs[BUF_B];
    int64_t m = c->dims[DIM_M], n = c->dims[DIM_N], k = c->dims[DIM_K];
    double *val = out[BUF_C].value, *abs_sum = out[BUF_C].abs_sum;
    double *table = malloc(65536 * sizeof *table);
    if (!table) abort();
    for (uint32_t h = 0; h < 65536; h++) table[h] = lab_f16_to_double((uint16_t)h);
    for (int64_t i = 0; i < m; i++) {
        double *vrow = val + i * n, *srow = abs_sum + i * n;
        for (int64_t j = 0; j < n; j++) vrow[j] = srow[j] = 0.0;
        for (int64_t p = 0; p < k; p++) {
            double aip = table[a[i * k + p]];
            const uint16_t *brow = b + p * n;
            for (int64_t j = 0; j < n; j++) {
                double t = aip * table[brow[j]];
                vrow[j] += t;
                srow[j] += fabs(t);
            }
        }
    }
    free(table);
}

static int64_t hg_terms(const int64_t *dims)
{
    return dims[DIM_K];
}

static double hg_bytes(const int64_t *dims)
{
    /* A and B (halves) read once, C (floats) written once */
    double m = (double)dims[DIM_M], n = (double)dims[DIM_N], k = (double)dims[DIM_K];
    return 2.0 * (m * k + k * n) + 4.0 * m * n;
}

static double hg_flops(const int64_t *dims)
{
    /* one multiply and one add per term, k terms per output */
    return 2.0 * (double)dims[DIM_M] * (double)dims[DIM_N] * (double)dims[DIM_K];
}

const lab_spec LAB_13_TENSOR_CORES = {
    .id = "13-tensor-cores",
    .title = "tensor cores: half-precision GEMM with float accumulation",
    .student_file = "hgemm.cu",
    .entry = "hgemm",
    .signature = "cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, "
                 "int n, int k, cudaStream_t stream)",
    .n_dims = 3,
    .dim_names = {"m", "n", "k"},
    .shrink_dims = 1u << 0 | 1u << 1 | 1u << 2,
    .n_buffers = 3,
    .buffers = {
        {"d_a", BUF_INPUT, ELEM_F16},
        {"d_b", BUF_INPUT, ELEM_F16},
        {"d_c", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "cancellation: large products that cancel along k",
                      "wide range, every normal exponent of half (2^-14 to 2^15)",
                      "subnormal halves in A times large halves in B"},
    .buffer_count = hg_count,
    .buffer_shape = hg_shape,
    .generate = hg_generate,
    .reference = hg_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 4.0,
        .terms = hg_terms,
        .why = "each C[i][j] sums k exact products of halves in float; a tensor core aligns "
               "a block of products and the accumulator to the largest and cuts each to 24 "
               "bits (not IEEE rounding), which costs at most 2u per term and per block, so "
               "any blocking, order or split of k stays within 4 gamma_k * sum_p "
               "|A[i][p] B[p][j]| (see the README); the reference is exact in double",
    },
    /* Friendly: m and n multiples of 128 and k of 32, so any tile from 16
     * to 128 fits without a partial tile, every row a whole number of
     * 16-byte vectors, pointers 256-byte aligned: one warp per 16 x 16 tile
     * straight from global memory is right here. One square case and
     * three with m, n and k all different. */
    .work = LAB_CASES({.dims = {128, 128, 128}}, {.dims = {256, 384, 512}},
                      {.dims = {1024, 512, 256}}, {.dims = {512, 1024, 768}}),
    /* Empty C, k = 0 (C = 0, still written), one element, a long dot
     * product, sides one off a fragment, a warp and a tile, primes, k not
     * a multiple of 8 or 16 (a partial last tile along k, rows not whole
     * 16-byte vectors), single rows and columns, long k (4099 and 8192),
     * every adversarial family, and more than 65535 blocks of 32 rows.
     * Every pointer is offset by a multiple of the element size below 16
     * bytes, each buffer differently: no fragment loads or stores straight
     * from global memory without checking the alignment. */
    .right = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {0, 37, 5}}, {.dims = {41, 0, 5}},
                       {.dims = {33, 31, 0}}, {.dims = {1, 1, 1}},
                       {.dims = {1, 1, 1000}, .variant = V_WIDE},
                       {.dims = {31, 33, 17}}, {.dims = {33, 31, 65}, .variant = V_CANCEL},
                       {.dims = {127, 129, 31}, .variant = V_WIDE}, {.dims = {129, 127, 33}},
                       {.dims = {16, 16, 16}, .variant = V_SUBNORMAL},
                       {.dims = {1, 2051, 64}}, {.dims = {2051, 1, 63}, .variant = V_CANCEL},
                       {.dims = {64, 4, 4}}, {.dims = {6, 8, 12}, .variant = V_WIDE},
                       {.dims = {5, 7, 4099}}, {.dims = {97, 101, 1031}, .variant = V_SUBNORMAL},
                       {.dims = {257, 509, 263}, .variant = V_CANCEL},
                       {.dims = {640, 1152, 36}}, {.dims = {1021, 1031, 130}},
                       {.dims = {512, 512, 512}, .variant = V_WIDE},
                       {.dims = {768, 256, 1024}, .variant = V_CANCEL},
                       {.dims = {48, 80, 8192}, .variant = V_CANCEL},
                       {.dims = {2100001, 3, 5}}),
    /* Small, for compute-sanitizer: partial tiles on every side, k = 0,
     * and k spanning several tiles of depth 32, so a tile reloaded before
     * every warp has finished with it is seen by racecheck. */
    .sanitize = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {1, 1, 1}}, {.dims = {33, 31, 0}},
                          {.dims = {31, 33, 17}}, {.dims = {33, 31, 65}, .variant = V_CANCEL},
                          {.dims = {129, 130, 33}, .variant = V_WIDE},
                          {.dims = {128, 128, 160}}, {.dims = {65, 67, 100}}),
    /* One core runs every CUDA thread as a fiber in the emulation: the same
     * kinds of sizes, smaller. */
    .emulated = {
        .work = LAB_CASES({.dims = {128, 128, 128}}, {.dims = {128, 256, 64}},
                          {.dims = {256, 128, 96}}),
        .right = LAB_CASES({.dims = {0, 0, 0}}, {.dims = {0, 37, 5}}, {.dims = {41, 0, 5}},
                           {.dims = {33, 31, 0}}, {.dims = {1, 1, 1}},
                           {.dims = {1, 1, 300}, .variant = V_WIDE},
                           {.dims = {31, 33, 17}},
                           {.dims = {33, 31, 65}, .variant = V_CANCEL},
                           {.dims = {127, 129, 31}, .variant = V_WIDE},
                           {.dims = {129, 127, 33}},
                           {.dims = {16, 16, 16}, .variant = V_SUBNORMAL},
                           {.dims = {1, 259, 64}},
                           {.dims = {259, 1, 63}, .variant = V_CANCEL},
                           {.dims = {64, 4, 4}}, {.dims = {6, 8, 12}, .variant = V_WIDE},
                           {.dims = {5, 7, 1031}}, {.dims = {97, 101, 37}, .variant = V_SUBNORMAL},
                           {.dims = {48, 40, 1000}, .variant = V_CANCEL},
                           {.dims = {160, 192, 36}}),
    },
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* 137 GFLOP per call; A and B are 32 MiB each and C 64 MiB (about
         * 2.5x the H100's L2). 4096, not the 8192 the lesson's goal is
         * stated at: the fast stage calls the baseline and the submission
         * dozens of times, and the baseline takes 4.8 ms a call here (38
         * at 8192), so a full grading stays quick; 4096 is large enough
         * that every SM has many tiles of 128 x 128 (1024 of them, 7.8
         * waves on 132 SMs). The answer is re-checked on the CPU at a
         * smaller, ragged size: no side a multiple of 128, k a multiple of
         * 8 (whole 16-byte rows) but not of 16 or 32, 0.15 G multiply-adds. */
        .timed = {.dims = {4096, 4096, 4096}},
        .recheck = {.dims = {600, 536, 456}},
        .baseline = "one warp per 16 x 16 WMMA tile straight from global memory",
        .vendor = "cublasGemmEx (half in, float compute)",
        .bytes = hg_bytes,
        .flops = hg_flops,
        .roof = ROOF_VENDOR,
        .peak = PEAK_FP16_TENSOR,
        /* Measured on the H100 (three runs of tests/calibrate.sh, and the
         * ladder): the reference 31.9 to 34.9% of cuBLAS and 7.86 to
         * 7.88x; WMMA with shared tiles alone (ladder v3) 6.2% and 1.32x;
         * the baseline as a submission 3.9 to 4.8% and 1.00x. The bars sit
         * about halfway in ratio: the reference clears them by 2x and
         * 2.6x, v3 and the baseline miss by 2.4x and 3x or more. */
        .min_roofline = 0.15,
        .min_speedup = 3.0,
        .max_speedup = 80,
        /* Every timed C is compared with the baseline's. Two tensor-core
         * evaluations in float of the timed size differ by the cuts of the
         * accumulator, which all lean towards zero (the reference and the
         * baseline agreed to the bit on the H100: both add each k-block of
         * 16 in order); a half accumulator or FP8 inputs are 1e-3 or more
         * of the output's scale away. So 5e-5, where the default 1e-3
         * would let a half accumulator at the timed size through. */
        .timed_agreement = 5e-5,
        .calibration = "H100, 2026-11-27: reference 32-35% of cuBLAS and 7.9x, "
                       "WMMA with shared tiles 6% and 1.3x, the baseline 4-5% and 1.0x "
                       "(labs/13-tensor-cores/INSTRUCTOR.md)",
    },
    /* cuBLAS (and CUTLASS, which is headers) is the roof the fast stage
     * measures against, never the answer. */
    .forbidden = {{"cublas", "cuBLAS", "/cublas"},
                  {"cutlass::", "CUTLASS", "/cutlass/"},
                  {"cute::", "CUTLASS (CuTe)", "/cute/"},
                  {"cub::", "CUB", "/cub/"}},
    .link_flags = {"-lcublas"},
    .counters = {
        COUNTER_TENSOR_PIPE("WMMA fragments run on the tensor cores: the more of the time they are busy, the closer to cuBLAS"),
        COUNTER_LOAD_SECTORS("staging the tiles with wide, coalesced loads uses every byte of each sector"),
    },
    .hints = {
        .never_written = "every C[i][j] must be written, with 0 when k == 0: does your grid "
                         "cover the last partial tile of rows and of columns (m and n need not "
                         "be multiples of 16), and do you still launch (or memset C) when "
                         "k == 0? C holds NaN on entry, so an accumulator loaded from C "
                         "(load_matrix_sync of C, beta * C) hands the fill back",
        .wrong_value = "C[i][j] = sum over p of A[i][p] * B[p][j], A[i][p] at a[i * k + p], "
                       "B[p][j] at b[p * n + j], both row-major: check the fragments' "
                       "layouts (row_major for both, or col_major with the matching leading "
                       "dimension), ldm (the row length in elements of the array the tile "
                       "is in), zeros in the partial last tile along k, and a "
                       "__syncthreads() before a shared tile is overwritten",
        .special_values = "NaN or Inf: C holds NaN on entry, so loading the accumulator from "
                          "C passes it on; else tile elements past k, m or n never zeroed "
                          "(stale shared memory), or a half accumulator that overflowed "
                          "(half stops at 65504)",
        .write_before = "only C[0 .. m*n) is yours to write: a negative index, or a vector "
                        "store rounded below C's start",
        .write_after = "the last partial tile must not store its whole 16 x 16 fragment: "
                       "store it to shared memory and copy only row < m && col < n to C",
        .input_changed = "d_a and d_b are inputs: stage tiles in shared memory, never write "
                         "them back",
        .launch_error = "a launch was refused: at most 1024 threads per block, grid y and z "
                        "at most 65535 (put the larger count on x, or loop), no launch with "
                        "zero blocks (m == 0 or n == 0: return at once), shared memory "
                        "within 48 KiB unless you opt in with cudaFuncSetAttribute",
        .crash = "a fault in the kernel: a load past the end of A or B from a partial tile "
                 "(guard it and store a zero), or a fragment load/store or a 16-byte vector "
                 "access at an address that is not aligned (load_matrix_sync needs a "
                 "32-byte aligned pointer and ldm a multiple of 8 halves; in this stage "
                 "d_a, d_b and d_c are only 2- and 4-byte aligned)",
        .timeout = "the kernel never finished: does every tile loop advance, and does every "
                   "thread of the block reach every __syncthreads()?",
        .too_slow = "one warp per tile re-reads A and B from global memory for every "
                    "fragment: stage 128 x 32 tiles of A and B in shared memory (rows "
                    "padded by 8 halves), give each warp a 2 x 4 block of accumulator "
                    "fragments so that every fragment loaded feeds several mma_sync, and "
                    "load the next tile while computing this one; see the README's ladder",
    },
};
