/* spec.c - lab 06, the radial distribution function, as data. Trusted:
 * students do not edit it.
 *
 * n particles in 3-D, d_pos[i] = (x, y, z, w) with w unused. d_hist[k]
 * counts the unordered pairs {i, j}, i != j, whose distance falls in bin k,
 * bins of width dr starting at 0; pairs beyond the last bin are dropped.
 * The distance and the bin of a pair are defined operation by operation,
 * each one rounded to the nearest float (IEEE-754), never fused:
 *
 *     dx = xj - xi;  dy = yj - yi;  dz = zj - zi;
 *     s  = (dx*dx + dy*dy) + dz*dz         three products, two sums
 *     d  = sqrt(s)                         correctly rounded
 *     q  = d / dr                          correctly rounded
 *     bin = (int)q, counted when bin < bins
 *
 * (xi - xj is the exact negative of xj - xi, so either order gives the same
 * bits.) A pair that lands one bin off is a different histogram, so the
 * comparison is exact.
 *
 * The reference never relies on the C compiler's float arithmetic: each
 * operation is done in double and rounded to float, which gives the
 * correctly rounded float result for +, -, *, / and sqrt (a double holds
 * more than 2 * 24 + 2 bits, so rounding twice cannot differ from rounding
 * once), and the cast to float between two operations forbids any
 * contraction into an FMA, whatever -ffp-contract says. (The engine is
 * built with -std=c11, which on gcc also means -ffp-contract=off.)
 *
 * dr is a float and the engine's sizes are integers: the third size is dr
 * in units of 1/1024, dr = dims[2] / 1024.0f, exact for dims[2] < 2^24.
 */
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { BUF_POS, BUF_HIST };
enum { DIM_N, DIM_BINS, DIM_DR1024 };

enum {
    V_TYPICAL,   /* uniform in an off-centre cube; every pair within range  */
    V_LATTICE,   /* lattice sites dr apart: many distances exactly on edges  */
    V_TRAPS,     /* pairs within an ulp of an edge, on the side that fails   */
    V_FAR,       /* a cube 1.5x the histogram's reach: most pairs dropped    */
    V_CLUSTERED  /* eight tight clusters: pairs pile up in a few bins        */
};

static size_t rdf_count(int buf, const int64_t *dims)
{
    return buf == BUF_POS ? 4 * (size_t)dims[DIM_N] : (size_t)dims[DIM_BINS];
}

static float rdf_dr(const int64_t *dims) { return (float)dims[DIM_DR1024] / 1024.0f; }

/* --- the reference: one IEEE-754 float operation at a time ------------- */

static float rn_sub(float x, float y) { return (float)((double)x - (double)y); }
static float rn_mul(float x, float y) { return (float)((double)x * (double)y); }
static float rn_add(float x, float y) { return (float)((double)x + (double)y); }
static float rn_div(float x, float y) { return (float)((double)x / (double)y); }
static float rn_sqrt(float x) { return (float)sqrt((double)x); }

/* The ways to get the bin: the contract's, and (for building the traps of
 * the V_TRAPS inputs) the two ways nvcc may contract the sum of squares
 * into FMAs, and a multiplication by 1/dr instead of the division. */
typedef enum { F_CONTRACT, F_FUSED_XY, F_FUSED_YX, F_RECIPROCAL } formula;

/* The bin of the pair (a, b), or -1 when it lies beyond the last bin. q is
 * compared as a float first, so a huge quotient is never converted to int. */
static int64_t bin_of(const float *a, const float *b, float dr, int64_t bins, formula f)
{
    float dx = rn_sub(b[0], a[0]), dy = rn_sub(b[1], a[1]), dz = rn_sub(b[2], a[2]);
    float s;
    if (f == F_FUSED_XY)
        s = fmaf(dz, dz, fmaf(dx, dx, rn_mul(dy, dy))); /* glibc: correctly rounded */
    else if (f == F_FUSED_YX)
        s = fmaf(dz, dz, fmaf(dy, dy, rn_mul(dx, dx)));
    else
        s = rn_add(rn_add(rn_mul(dx, dx), rn_mul(dy, dy)), rn_mul(dz, dz));
    float d = rn_sqrt(s);
    float q = f == F_RECIPROCAL ? rn_mul(d, rn_div(1.0f, dr)) : rn_div(d, dr);
    return q < (float)bins ? (int64_t)q : -1;
}

static int64_t pair_bin(const float *p, int64_t i, int64_t j, float dr, int64_t bins)
{
    return bin_of(p + 4 * i, p + 4 * j, dr, bins, F_CONTRACT);
}

/* Every unordered pair once. The GPU enumerates them by offsets,
 * j = (i + d) % n; the set of pairs, and so the histogram, is the same. */
static void rdf_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *p = inputs[BUF_POS];
    int64_t n = c->dims[DIM_N], bins = c->dims[DIM_BINS];
    float dr = rdf_dr(c->dims);
    double *h = out[BUF_HIST].value;
    for (int64_t k = 0; k < bins; k++) h[k] = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = i + 1; j < n; j++) {
            int64_t k = pair_bin(p, i, j, dr, bins);
            if (k >= 0) h[k] += 1;
        }
}

/* --- the inputs --------------------------------------------------------- */

/* The histogram's reach, bins * dr (64 dr when there are no bins). */
static float reach(const int64_t *dims)
{
    int64_t bins = dims[DIM_BINS] > 0 ? dims[DIM_BINS] : 64;
    return (float)bins * rdf_dr(dims);
}

/* Uniform in a cube of side `side`, shifted off the origin differently on
 * each axis (a kernel that mixes up absolute and relative positions, or
 * the axes' offsets, is wrong). */
static void in_cube(rng_t *r, float side, float *v)
{
    v[0] = rng_float(r, -0.37f * side, 0.63f * side);
    v[1] = rng_float(r, 0.21f * side, 1.21f * side);
    v[2] = rng_float(r, 1.9f * side, 2.9f * side);
}

/* A lattice site, exactly: (k * dims[2]) * 2^-10 is a float as long as
 * |k * dims[2]| < 2^24, so coordinate differences are exact multiples of
 * dr and |(3, 4, 0)| dr, |(2, 3, 6)| dr, ... are exact multiples of dr too:
 * the true distance sits exactly on a bin edge, and only the rounding of
 * the squares, the sums, the square root and the quotient decides on which
 * side the pair lands. A fused multiply-add rounds differently, and so
 * does a multiplication by 1/dr. */
static float site(int64_t k, const int64_t *dims)
{
    return ldexpf((float)(k * dims[DIM_DR1024]), -10);
}

/* A trap: b placed at distance k dr from a (k a random bin), then nudged
 * by a few ulps per coordinate until the contract's bin differs from the
 * bin a contracted sum of squares gives (both ways nvcc may fuse it; even
 * traps) or from the bin of d * (1/dr) (odd traps). Most nudges are tried
 * in a few dozen attempts; a trap that is not found stays an ordinary
 * pair near an edge. */
static void place_trap(rng_t *r, const int64_t *dims, size_t t, const float *a, float *b)
{
    float dr = rdf_dr(dims);
    int64_t bins = dims[DIM_BINS];
    int64_t k = 1 + (int64_t)rng_below(r, (uint32_t)(bins > 2 ? bins - 1 : 1));
    float u[3], len2;
    do {
        for (int c = 0; c < 3; c++) u[c] = rng_float(r, -1.0f, 1.0f);
        len2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    } while (len2 < 0.01f || len2 > 1.0f);
    float scale = (float)((double)k * dr / sqrt((double)len2));
    float base[3];
    for (int c = 0; c < 3; c++) base[c] = a[c] + u[c] * scale;
    for (int attempt = 0; attempt < 400; attempt++) {
        for (int c = 0; c < 3; c++) {
            b[c] = base[c];
            for (int step = (int)rng_below(r, 9) - 4; step != 0; step += step > 0 ? -1 : 1)
                b[c] = nextafterf(b[c], step > 0 ? INFINITY : -INFINITY);
        }
        int64_t want = bin_of(a, b, dr, bins, F_CONTRACT);
        int caught = t % 2 == 0 ? bin_of(a, b, dr, bins, F_FUSED_XY) != want &&
                                      bin_of(a, b, dr, bins, F_FUSED_YX) != want
                                : bin_of(a, b, dr, bins, F_RECIPROCAL) != want;
        if (caught) return;
    }
}

static void rdf_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    float *v = host;
    rng_t r = rng_seeded(seed);
    (void)buf; /* d_pos is the only input */
    size_t n = count / 4;
    float R = reach(c->dims), dr = rdf_dr(c->dims);
    int64_t m = 2; /* lattice: sites per edge, m^3 >= n */
    while (m * m * m < (int64_t)n) m++;
    float centres[8][3];
    for (int k = 0; k < 8; k++) in_cube(&r, 0.55f * R, centres[k]);
    for (size_t i = 0; i < n; i++) {
        float *p = v + 4 * i;
        switch (c->variant) {
        case V_LATTICE:
            p[0] = site((int64_t)rng_below(&r, (uint32_t)m) - 7, c->dims);
            p[1] = site((int64_t)rng_below(&r, (uint32_t)m) + 3, c->dims);
            p[2] = site((int64_t)rng_below(&r, (uint32_t)m) + 11, c->dims);
            break;
        case V_TRAPS: /* particles 2t and 2t+1 form trap t */
            in_cube(&r, 0.55f * R, p);
            if (i % 2 == 1 && c->dims[DIM_BINS] > 1) place_trap(&r, c->dims, i / 2, p - 4, p);
            break;
        case V_FAR: in_cube(&r, 1.5f * R, p); break;
        case V_CLUSTERED: {
            /* Within a cluster every distance is below dr (bin 0), one
             * particle in four sits exactly on its centre (distance 0). */
            const float *o = centres[rng_below(&r, 8)];
            int exact = rng_below(&r, 4) == 0;
            for (int a = 0; a < 3; a++)
                p[a] = exact ? o[a] : o[a] + rng_float(&r, -0.25f, 0.25f) * dr;
            break;
        }
        default: in_cube(&r, 0.55f * R, p); /* diagonal 0.953 R: all in range */
        }
        /* w: a mass, say; never part of the distance. Comparable to the
         * distances, so a 4-D distance is visibly wrong. */
        p[3] = rng_float(&r, 0.25f, 1.0f) * R;
    }
}

/* What a call must read and write: the particles and the histogram. It is
 * tiny (0.7 MB at the timed size): the kernel is bound by the arithmetic of
 * the exact distance and by atomics, so the fast stage gates on the speedup
 * and reports pairs per second. (Work hidden on another stream is caught by
 * the engine whatever the bytes: the GPU is still busy after the timed
 * stream is done.) */
static double rdf_bytes(const int64_t *dims)
{
    return 16.0 * (double)dims[DIM_N] + 4.0 * (double)dims[DIM_BINS];
}

/* The work of a call: n (n - 1) / 2 pairs, reported as Gpairs/s. */
static double rdf_pairs(const int64_t *dims)
{
    double n = (double)dims[DIM_N];
    return n * (n - 1) / 2;
}

/* dr = 61/1024 = 0.0595703125: rn(1/dr) * dr < 1, so d * (1/dr) falls
 * short of k for most d = k dr exactly (the lattice's edges). */
#define DR_TYPICAL 61
#define DR_COARSE 1237 /* dr = 1.2080078125 */

const lab_spec LAB_06_HISTOGRAM_RDF = {
    .id = "06-histogram-rdf",
    .title = "histogram: radial distribution function",
    .student_file = "rdf.cu",
    .entry = "rdf",
    .signature = "cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, "
                 "unsigned int *d_hist, cudaStream_t stream)",
    .n_dims = 3,
    .dim_names = {"n", "bins", "dr_1024"},
    .shrink_dims = 1u << 0 | 1u << 1, /* n and bins (the positions span bins * dr); not dr */
    .n_buffers = 2,
    .buffers = {
        {"d_pos", BUF_INPUT, ELEM_F32, NULL, 4}, /* (x, y, z, w) records */
        {"d_hist", BUF_OUTPUT, ELEM_U32, NULL},
    },
    .variant_names = {"uniform in a cube, every pair in range",
                      "lattice: distances exactly on bin edges",
                      "traps: pairs an ulp from a bin edge",
                      "far: most pairs beyond the last bin",
                      "clustered: pairs pile up in a few bins"},
    .buffer_count = rdf_count,
    .generate = rdf_generate,
    .reference = rdf_reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "a histogram of integers: every pair must land in the same bin as on "
               "the CPU, and IEEE-754 defines each rounded -, *, +, sqrt and / bit for "
               "bit, so the contract's distance gives the same bin everywhere",
    },
    /* Odd n only, so that the half offset d = n/2 of an even n (the one
     * that is easy to count twice) first appears in the right stage. Every
     * pair is within range here: dropping the far ones is tested in right. */
    .work = LAB_CASES({.dims = {1001, 512, DR_TYPICAL}},
                      {.dims = {2001, 256, DR_COARSE}},
                      {.dims = {4001, 1000, 7}}),
    /* Empty, one particle, one bin, no bins, two and three particles, warp
     * edges, even and odd n, more bins than threads in a block (4096,
     * 8192), the lattice at both dr, far pairs, clusters. */
    .right = LAB_CASES({.dims = {0, 512, DR_TYPICAL}},
                       {.dims = {1, 1, 1}},
                       {.dims = {2, 64, 100}},
                       {.dims = {3, 7, 333}},
                       {.dims = {31, 33, DR_TYPICAL}},
                       {.dims = {32, 512, DR_TYPICAL}},
                       {.dims = {33, 1, DR_TYPICAL}},
                       {.dims = {100, 0, DR_TYPICAL}},
                       {.dims = {1000, 300, DR_TYPICAL}, .variant = V_LATTICE},
                       {.dims = {4095, 512, DR_COARSE}, .variant = V_TRAPS},
                       {.dims = {1500, 200, DR_TYPICAL}, .variant = V_TRAPS},
                       {.dims = {2048, 100, DR_TYPICAL}, .variant = V_FAR},
                       {.dims = {3001, 4096, 3}},
                       {.dims = {2999, 1500, 2}, .variant = V_FAR},
                       {.dims = {1999, 64, DR_TYPICAL}, .variant = V_CLUSTERED},
                       {.dims = {5000, 8192, 1}},
                       {.dims = {8192, 512, DR_TYPICAL}}),
    .sanitize = LAB_CASES({.dims = {0, 512, DR_TYPICAL}},
                          {.dims = {1, 1, 1}},
                          {.dims = {33, 64, DR_TYPICAL}},
                          {.dims = {64, 100, DR_TYPICAL}, .variant = V_FAR},
                          {.dims = {100, 512, DR_COARSE}, .variant = V_TRAPS},
                          {.dims = {257, 3000, 3}, .variant = V_CLUSTERED}),
    /* In emulation a pair costs ~100 ns, so n stays near a few hundred. */
    .emulated = {
        .work = LAB_CASES({.dims = {201, 512, DR_TYPICAL}},
                          {.dims = {401, 256, DR_COARSE}},
                          {.dims = {801, 1000, 7}}),
        .right = LAB_CASES({.dims = {0, 512, DR_TYPICAL}},
                           {.dims = {1, 1, 1}},
                           {.dims = {2, 64, 100}},
                           {.dims = {3, 7, 333}},
                           {.dims = {31, 33, DR_TYPICAL}},
                           {.dims = {32, 512, DR_TYPICAL}},
                           {.dims = {33, 1, DR_TYPICAL}},
                           {.dims = {100, 0, DR_TYPICAL}},
                           {.dims = {300, 300, DR_TYPICAL}, .variant = V_LATTICE},
                           {.dims = {511, 512, DR_COARSE}, .variant = V_TRAPS},
                           {.dims = {400, 100, DR_TYPICAL}, .variant = V_FAR},
                           {.dims = {301, 4096, 3}},
                           {.dims = {299, 1500, 2}, .variant = V_FAR},
                           {.dims = {399, 64, DR_TYPICAL}, .variant = V_CLUSTERED},
                           {.dims = {500, 8192, 1}},
                           {.dims = {1024, 512, DR_TYPICAL}}),
    },
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    /* d_pos is an array of float4: 16-byte aligned by its type, which is
     * what lets a kernel load a particle in one instruction (the lesson). */
    .misalign = 0,
    .fast = {
        /* The lecture slides' size: 969 million pairs. The CPU reference of that
         * size takes ~10 s, so the re-check after timing uses n = 8191. */
        .timed = {.dims = {44028, 512, 20}},
        .recheck = {.dims = {8191, 512, 20}},
        /* The baseline makes one launch per offset, n/2 of them, and
         * Nsight Compute profiles each alone: make profile at n = 1024. */
        .profiled = {.dims = {1024, 512, 20}},
        .baseline = "one launch per offset, global atomics (the lecture slides' naive kernel)",
        .bytes = rdf_bytes,
        .flops = rdf_pairs,
        .rate_unit = "Gpairs/s",
        .roof = ROOF_NONE,
        /* H100: the reference 208x the naive kernel, the slowest correct
         * variant (per-warp histograms) 119x; the lecture slides' per-offset kernel
         * with shared sub-histograms 3.4x, CUB on precomputed bins 18x. */
        .min_speedup = 60.0,
        .max_speedup = 2000, /* the reference: 208x */
        .calibration = "H100 2026-11-21: reference 208x, per-warp histograms 119x, "
                       "per-offset shared 3.4x; see labs/06-histogram-rdf/INSTRUCTOR.md",
    },
    /* CUB's DeviceHistogram is a rung of the ladder, not a submission. */
    .forbidden = {{"cub::", "CUB", "/cub/"}, {"thrust::", "Thrust", "/thrust/"}},
    .link_flags = {NULL},
    .counters = {
        COUNTER_WARP_INSTRUCTIONS("n^2/2 pair distances are the work: instructions per pair (the loads, the distance, the bin and its update) set the time"),
        COUNTER_SHARED_LOAD_PASSES("atoms staged in shared memory are read by every thread of a block at once: a broadcast costs one pass"),
        COUNTER_L1_HITS("reading the other atoms from global memory again for every atom depends on the cache; a shared tile makes the reuse explicit"),
    },
    .hints = {
        .never_written = "d_hist must be written even when n < 2 (all zeros then), and the "
                         "grader fills it with garbage: zero it with cudaMemsetAsync(d_hist, "
                         "0, bins * sizeof(unsigned int), stream) before the kernel adds to it",
        .wrong_value = "every unordered pair once: offsets d = 1 .. n/2, and for an even n "
                       "the offset n/2 only for i < n/2 (pair (i, i + n/2) is pair "
                       "(i + n/2, i)). The distance exactly as in the contract: "
                       "__fmul_rn, __fadd_rn ((dx*dx + dy*dy) + dz*dz), __fsqrt_rn, "
                       "__fdiv_rn by dr (nvcc fuses a*b + c into an FMA, which moves pairs "
                       "across bin edges; so does multiplying by 1/dr). Far pairs are "
                       "dropped, not put in the last bin. Counts far too large: d_hist "
                       "was not zeroed on your stream (the grader fills it with garbage)",
        .write_before = "only d_hist[0 .. bins) is yours: a negative bin?",
        .write_after = "a pair beyond the last bin was counted past the end: check "
                       "bin < bins before the atomicAdd (in global and in shared memory)",
        .input_changed = "d_pos is an input: keep distances and bins in registers or "
                         "shared memory, never in the w component",
        .launch_error = "a launch was refused: at most 1024 threads per block, at least one "
                        "block (no launch when there are no pairs or no bins), and shared "
                        "memory within the limit (bins can be 8192: 32 KiB of counters)",
        .crash = "a fault in a kernel: a particle index past n (j = (i + d) % n wraps "
                 "around), a bin index past the end of a shared sub-histogram, or a float4 "
                 "placed in shared memory at an offset that is not a multiple of 16 bytes",
        .timeout = "the kernel never finished: does every loop's index move towards its "
                   "end? The fast stage times about a billion pairs per call",
        .too_slow = "one launch for all the offsets, a sub-histogram per block in shared "
                    "memory (one global atomicAdd per bin per block at the end), "
                    "positions loaded once as float4 and reused; see the ladder in the "
                    "README",
    },
};
