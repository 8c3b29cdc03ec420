/* spec.c - lab 03, matrix transpose, as data. Trusted: students do not edit it.
 *
 * d_in is a rows x cols matrix of floats, row-major; d_out is its transpose,
 * cols x rows: out[c * rows + r] = in[r * cols + c]. A transpose only moves
 * values, so the comparison is exact, bit for bit: -0 stays -0, subnormals
 * stay subnormal, every NaN stays a NaN.
 */
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_IN, BUF_OUT };
enum { DIM_ROWS, DIM_COLS };
enum { V_TYPICAL, V_CODED, V_SPECIAL, V_ANY_BITS };

static size_t tr_count(int buf, const int64_t *dims)
{
    (void)buf;
    return (size_t)dims[DIM_ROWS] * (size_t)dims[DIM_COLS];
}

/* The input is rows x cols, the output cols x rows, so a report names the
 * (row, col) of the buffer it talks about. */
static void tr_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    *rows = buf == BUF_IN ? dims[DIM_ROWS] : dims[DIM_COLS];
    *cols = buf == BUF_IN ? dims[DIM_COLS] : dims[DIM_ROWS];
}

/* Values a transpose must carry through untouched. Any arithmetic on the
 * way (x + 0.0f, x * 1.0f with flush-to-zero) changes some of them. The
 * grader's "never written" pattern 0x7fbadbad is deliberately not here. */
static const uint32_t TR_SPECIALS[] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x00000001u, 0x807fffffu, /* smallest and largest subnormal */
    0x00800000u, 0x7f7fffffu, /* FLT_MIN, FLT_MAX */
    0x7f800000u, 0xff800000u, /* +Inf, -Inf */
    0x7fc00000u, 0xffc00001u, /* quiet NaNs, one with a payload */
    0x7f800001u, 0x3f800000u, /* a signalling NaN, 1 */
};

/* Position-coded values: in[r][c] = 10000 * r + c (rows and columns taken
 * modulo 1677 and 10000 so the value stays an exact float integer below
 * 2^24). A wrong element then says where it was read from: 170020 is
 * in[17][20]. */
static float tr_coded(size_t i, int64_t cols)
{
    int64_t r = (int64_t)i / cols, c = (int64_t)i % cols;
    return (float)((r % 1677) * 10000 + c % 10000);
}

static void tr_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                        size_t count)
{
    (void)buf;
    float *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case V_CODED:
            x[i] = tr_coded(i, c->dims[DIM_COLS]);
            break;
        case V_SPECIAL: /* one element in three is special */
            x[i] = rng_below(&r, 3) == 0
                       ? rng_bits_to_float(TR_SPECIALS[rng_below(&r, 12)])
                       : rng_float(&r, -1000.0f, 1000.0f);
            break;
        case V_ANY_BITS: { /* any 32-bit pattern but the grader's poison */
            uint32_t bits = (uint32_t)(rng_next(&r) >> 32);
            if (bits == 0x7fbadbadu) bits = 0x7fc00000u;
            x[i] = rng_bits_to_float(bits);
            break;
        }
        default: /* distinct values with an offset, so no zeros to hide behind */
            x[i] = rng_float(&r, -1000.0f, 1000.0f) + 0.5f;
        }
    }
}

/* The reference moves every value; converting a float to double and back
 * is exact, so expected values are the input's own. */
static void tr_reference(const lab_case *c, const void *const *inputs,
                         lab_expect *out)
{
    const float *in = inputs[BUF_IN];
    int64_t rows = c->dims[DIM_ROWS], cols = c->dims[DIM_COLS];
    double *o = out[BUF_OUT].value;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t k = 0; k < cols; k++) o[k * rows + r] = (double)in[r * cols + k];
}

static double tr_bytes(const int64_t *dims)
{
    /* every element read once and written once */
    return 2.0 * sizeof(float) * (double)dims[DIM_ROWS] * (double)dims[DIM_COLS];
}

/* Empty sides, single rows and columns, sides one off a tile, primes,
 * special values and every bit pattern, a square one (a kernel that works
 * in place is caught), and a matrix with more than 65535 tiles down
 * (tall x thin; grid.y cannot hold them all): on a GPU 4194305 rows, more
 * than 65535 tiles of 64 rows, in one column. */
#define RIGHT_CASES(tall, thin) \
    {.dims = {0, 0}}, {.dims = {0, 37}}, {.dims = {45, 0}}, \
        {.dims = {1, 1}}, {.dims = {1, 1000}, .variant = V_SPECIAL}, \
        {.dims = {1000, 1}, .variant = V_CODED}, \
        {.dims = {31, 33}, .variant = V_CODED}, {.dims = {33, 31}}, \
        {.dims = {33, 33}, .variant = V_SPECIAL}, \
        {.dims = {64, 33}}, {.dims = {33, 64}, .variant = V_CODED}, \
        {.dims = {97, 1031}, .variant = V_SPECIAL}, \
        {.dims = {1031, 97}, .variant = V_CODED}, \
        {.dims = {100, 100}, .variant = V_ANY_BITS}, \
        {.dims = {257, 509}}, {.dims = {509, 257}, .variant = V_ANY_BITS}, \
        {.dims = {1000, 999}, .variant = V_CODED}, \
        {.dims = {2, 4099}}, {.dims = {4099, 3}, .variant = V_SPECIAL}, \
        {.dims = {1023, 1025}}, {.dims = {2053, 1531}}, \
        {.dims = {1, 65537}}, {.dims = {65537, 1}, .variant = V_ANY_BITS}, \
        {.dims = {tall, thin}}

const lab_spec LAB_03_TRANSPOSE = {
    .id = "03-transpose",
    .title = "matrix transpose",
    .student_file = "transpose.cu",
    .entry = "transpose",
    .signature = "cudaError_t transpose(const float *d_in, float *d_out, int rows, "
                 "int cols, cudaStream_t stream)",
    .n_dims = 2,
    .dim_names = {"rows", "cols"},
    .shrink_dims = 1u << 0 | 1u << 1,
    .n_buffers = 2,
    .buffers = {
        {"d_in", BUF_INPUT, ELEM_F32},
        {"d_out", BUF_OUTPUT, ELEM_F32},
    },
    .variant_names = {"typical values", "in[r][c] = 10000 r + c",
                      "with +-0, subnormals, Inf, NaN", "any bit pattern"},
    .buffer_count = tr_count,
    .buffer_shape = tr_shape,
    .generate = tr_generate,
    .reference = tr_reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "a transpose moves values without computing anything, so every "
               "bit must arrive (-0 stays -0, NaN stays NaN)",
    },
    /* Friendly: both sides multiples of 256, so any tile from 8 to 256 fits
     * without a partial tile; one square and two rectangular cases (swapped
     * rows and cols, or a square-only kernel, fail here). */
    .work = LAB_CASES({.dims = {512, 512}},
                      {.dims = {1024, 2048}, .variant = V_CODED},
                      {.dims = {2048, 768}}),
    .right = LAB_CASES(RIGHT_CASES(4194305, 1)),
    /* The emulation stops at 65537 tiles of 32 rows: 32769 tiles of 64
     * rows, which fit a grid capped at 65535 blocks, so a 64-row kernel
     * without the loop passes right on the CPU only
     * (tests/wrong/grid_capped_at_65535_tiles_without_a_loop). */
    .emulated = {.right = LAB_CASES(RIGHT_CASES(2097169, 2))},
    /* Small, for compute-sanitizer: partial tiles on every side, and 300
     * rows (ten tiles down), so a block that walks several tiles does so. */
    .sanitize = LAB_CASES({.dims = {0, 5}}, {.dims = {1, 1}},
                          {.dims = {1, 37}, .variant = V_SPECIAL}, {.dims = {37, 1}},
                          {.dims = {33, 65}, .variant = V_SPECIAL},
                          {.dims = {65, 31}}, {.dims = {300, 70}, .variant = V_CODED}),
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        .timed = {.dims = {8192, 8192}}, /* 256 MiB each way: 10x the H100's L2 */
        .recheck = {.dims = {2051, 1029}}, /* partial tiles on both sides */
        .baseline = "naive, one thread per element (reads coalesced, writes strided)",
        .bytes = tr_bytes,
        .roof = ROOF_COPY,
        /* Calibrated on an H200 (INSTRUCTOR.md): naive 13% of copy,
         * 32x32 tiles with bank conflicts 37-42% (2.9-3.2x naive), every
         * conflict-free tile version 78-85% (6.1-6.6x), 64 x 64 tiles
         * 92-93% (7.0x), the reference (64 x 64, numbered down first)
         * 96.2-96.6% (7.5x, 2026-12-02). First H100 measurements:
         * 16%, 57% (3.6x), 91% (5.8x). 65% and 4.5x sit in the gap on
         * both GPUs. */
        .min_roofline = 0.65,
        .min_speedup = 4.5,
        .max_speedup = 60, /* the reference: 7.5x on an H200 */
        .calibration = "calibrated on an H200 and checked against H100 figures, "
                       "see labs/03-transpose/INSTRUCTOR.md",
    },
    .counters = {
        COUNTER_LOAD_SECTORS("a warp reading 32 floats along a row uses every byte it fetches; reading down a column fetches a whole sector per float"),
        COUNTER_STORE_SECTORS("the transpose writes what it read along a row down a column unless a tile turns it around first: the store side is where the naive kernel loses"),
        COUNTER_SHARED_LOAD_PASSES("reading a column of a 32-wide tile hits one bank 32 times: each extra pass is a bank conflict"),
        COUNTER_DRAM("moving each byte once, in full sectors, is what brings the transpose near the copy roof"),
    },
    .hints = {
        .never_written = "part of d_out was never written: the grid must cover every "
                         "tile, rounded up ((cols + 31) / 32 by (rows + 31) / 32), and "
                         "the threads of a partial tile must still write the elements "
                         "that exist; a grid is at most 65535 blocks down, so a taller "
                         "matrix needs each block to loop over tile rows",
        .wrong_value = "out[c * rows + r] must be in[r * cols + c]: check that rows and "
                       "cols are not swapped, that the write phase swaps the block's "
                       "tile coordinates, and that a __syncthreads() separates filling "
                       "the tile from reading it",
        .special_values = "NaN or Inf in the wrong place: a transpose only moves values, "
                          "so an element came from the wrong place",
        .write_after = "a partial tile wrote past the end of d_out: guard the write with "
                       "the output's bounds (its row < cols, its column < rows), which "
                       "are not the input's",
        .write_before = "a write in front of d_out: a negative index?",
        .input_changed = "d_in is read-only: transposing in place and copying the "
                         "result is not allowed",
        .launch_error = "a launch was refused: at most 1024 threads per block, grid.y "
                        "at most 65535 (loop over tile rows, or use a 1-D grid of "
                        "tiles, for tall matrices), and no launch at all when rows or "
                        "cols is 0",
        .crash = "a fault in the kernel: a partial tile reading or writing outside the "
                 "matrix? guard the load with r < rows && c < cols and the store with "
                 "the transposed bounds. Or a float4 access through a pointer that is only "
                 "4-byte aligned (the right stage gives such pointers)",
        .timeout = "the kernel never finished: does the loop over tile rows step forward "
                   "(t += gridDim.y)? A __syncthreads() that not every thread of the "
                   "block reaches (inside an if on the bounds) can hang too; keep "
                   "barriers outside the bounds checks",
        .too_slow = "make both sides coalesced through a shared-memory tile, and pad it "
                    "to 33 columns so reading a column hits 32 different banks; compare "
                    "with 'make ladder LAB=03' and the README",
    },
};
