/* spec.c - lab 09, registers and occupancy, as data. Trusted: students do
 * not edit it.
 *
 * The distance matrix of a clustering step: for n points and k centers of
 * dimension dim, and one metric chosen at run time,
 *
 *   out[j * n + i] = dist_metric(point i, center j)
 *
 * with the points stored by coordinate (points[d * n + i] is coordinate d
 * of point i) and the centers by row (centers[j * dim + d]). The metrics:
 *
 *   0 squared Euclidean   sum_d (p_d - c_d)^2
 *   1 Manhattan           sum_d |p_d - c_d|
 *   2 Chebyshev           max_d |p_d - c_d|                  (0 when dim == 0)
 *   3 cosine distance     1 - p.c / (|p| |c|); exactly 1 when p or c is all zeros
 *   4 DTW                 dynamic time warping of the two series p_0..p_(dim-1)
 *                         and c_0..c_(dim-1), cost (p_r - c_s)^2, inside a
 *                         Sakoe-Chiba band |r - s| <= 32 (0 when dim == 0)
 *
 * Every metric is a float computation with rounding in an order each kernel
 * chooses, so the comparison is an error bound per element (TOL_BOUND): the
 * reference computes the exact value in double and a magnitude `abs_sum`
 * per metric that the rounding errors scale with (see dist_reference).
 */
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { DS_POINTS, DS_CENTERS, DS_OUT };
enum { DIM_N, DIM_K, DIM_D, DIM_METRIC };
enum { M_SQEUCLID, M_MANHATTAN, M_CHEBYSHEV, M_COSINE, M_DTW, M_COUNT };
enum { V_TYPICAL, V_ZEROS, V_OFFSET, V_INTEGERS };
enum { DTW_RADIUS = 32 }; /* the contract's band: |r - s| <= 32 */

static size_t ds_count(int buf, const int64_t *dims)
{
    switch (buf) {
    case DS_POINTS: return (size_t)(dims[DIM_N] * dims[DIM_D]);
    case DS_CENTERS: return (size_t)(dims[DIM_K] * dims[DIM_D]);
    default: return (size_t)(dims[DIM_K] * dims[DIM_N]);
    }
}

/* Reports name (row, col): points are dim x n, centers k x dim, the
 * output k x n (row = center, column = point). */
static void ds_shape(int buf, const int64_t *dims, int64_t *rows, int64_t *cols)
{
    switch (buf) {
    case DS_POINTS: *rows = dims[DIM_D]; *cols = dims[DIM_N]; break;
    case DS_CENTERS: *rows = dims[DIM_K]; *cols = dims[DIM_D]; break;
    default: *rows = dims[DIM_K]; *cols = dims[DIM_N];
    }
}

/* --- the inputs --------------------------------------------------------- */

/* One vector (a point or a center) of the given family, coordinate d
 * stored at v[d * stride]. Typical values sit off-centre, in [-2, 3), so
 * that no metric's answer is 0 or a copy of an input. */
static void one_vector(rng_t *r, int variant, float *v, int64_t stride, int64_t dim)
{
    int zero = variant == V_ZEROS && rng_below(r, 5) == 0; /* one vector in five */
    for (int64_t d = 0; d < dim; d++) {
        float x;
        switch (variant) {
        case V_OFFSET: /* 1000 + [-1, 1): cancellation in |p|^2 - 2 p.c + |c|^2 */
            x = 1000.0f + rng_float(r, -1.0f, 1.0f);
            break;
        case V_INTEGERS: /* -2..2: duplicates, parallel vectors, exact ties */
            x = (float)((int)rng_below(r, 5) - 2);
            break;
        default: x = rng_float(r, -2.0f, 3.0f);
        }
        v[d * stride] = zero ? 0.0f : x;
    }
}

/* Points are stored by coordinate: point i's coordinate d goes to
 * x[d * n + i]. Centers by row: center j's coordinate d to x[j * dim + d]. */
static void ds_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    (void)count;
    float *x = host;
    int64_t n = c->dims[DIM_N], dim = c->dims[DIM_D];
    rng_t r = rng_seeded(seed);
    if (buf == DS_POINTS)
        for (int64_t i = 0; i < n; i++) one_vector(&r, c->variant, x + i, n, dim);
    else
        for (int64_t j = 0; j < c->dims[DIM_K]; j++)
            one_vector(&r, c->variant, x + j * dim, 1, dim);
}

/* --- the reference ------------------------------------------------------ */

/* DTW in double, with the contract's band. band[o] holds the cell of the
 * current row r at column r - R + o; row -1 has only the virtual start
 * D[-1][-1] = 0, at o = R. */
static double dtw_double(const float *p, int64_t n, const float *cen, int64_t dim)
{
    enum { R = DTW_RADIUS, W = 2 * DTW_RADIUS + 1 };
    if (dim == 0) return 0.0;
    double band[W];
    for (int o = 0; o < W; o++) band[o] = INFINITY;
    band[R] = 0.0;
    for (int64_t r = 0; r < dim; r++) {
        double x = p[r * n], left = INFINITY;
        for (int o = 0; o < W; o++) {
            int64_t col = r - R + o;
            double up = o + 1 < W ? band[o + 1] : INFINITY;
            double best = fmin(fmin(band[o], up), left);
            double v = INFINITY;
            if (col >= 0 && col < dim) {
                double t = x - (double)cen[col];
                v = t * t + best;
            }
            band[o] = v;
            left = v;
        }
    }
    return band[R];
}

/* value: the exact distance (float inputs are exact in double, and each
 * metric's few double roundings are far below a float's). abs_sum: what a
 * float computation's rounding errors scale with, for the bound
 * |got - exact| <= 2 gamma_terms abs_sum (terms per metric: ds_terms):
 *   squared Euclidean, Manhattan, DTW: sums of non-negative terms, so the
 *     value itself;
 *   Chebyshev: the value (one rounded subtraction decides it);
 *   cosine: 1 - s with s = p.c / (|p||c|) near 1 cancels, so the error is
 *     absolute: it scales with sum|p_d c_d| / (|p||c|) (<= 1) from the dot
 *     product, |s| <= 1 from the norms and the division, and the value
 *     itself from the last subtraction. */
static void dist_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *pts = inputs[DS_POINTS], *cen = inputs[DS_CENTERS];
    int64_t n = c->dims[DIM_N], k = c->dims[DIM_K], dim = c->dims[DIM_D];
    int metric = (int)c->dims[DIM_METRIC];
    for (int64_t j = 0; j < k; j++) {
        const float *cj = cen + j * dim;
        for (int64_t i = 0; i < n; i++) {
            const float *p = pts + i;
            double value = 0, scale = 0;
            if (metric == M_DTW) {
                value = dtw_double(p, n, cj, dim);
                scale = value;
            } else if (metric == M_COSINE) {
                double dot = 0, pp = 0, cc = 0, absdot = 0;
                for (int64_t d = 0; d < dim; d++) {
                    double x = p[d * n], y = cj[d];
                    dot += x * y;
                    absdot += fabs(x * y);
                    pp += x * x;
                    cc += y * y;
                }
                if (pp == 0 || cc == 0) {
                    value = 1.0;
                    scale = 1.0;
                } else {
                    double norms = sqrt(pp) * sqrt(cc);
                    value = 1.0 - dot / norms;
                    scale = absdot / norms + fabs(dot / norms) + fabs(value);
                }
            } else {
                for (int64_t d = 0; d < dim; d++) {
                    double t = (double)p[d * n] - (double)cj[d];
                    switch (metric) {
                    case M_SQEUCLID: value += t * t; break;
                    case M_MANHATTAN: value += fabs(t); break;
                    default: value = fmax(value, fabs(t));
                    }
                }
                scale = value;
            }
            out[DS_OUT].value[j * n + i] = value;
            out[DS_OUT].abs_sum[j * n + i] = scale;
        }
    }
}

/* How many roundings the bound allows, per metric (the n of gamma_n):
 *   squared Euclidean: dim - 1 additions, and 3 for (p - c)^2 rounded twice;
 *   Manhattan: dim - 1 additions and the subtraction;
 *   Chebyshev: the subtraction, with room for max of squares then sqrt;
 *   cosine: dim for each of the three sums, and about 16 for the square
 *     roots (or rsqrtf, 2 ulp each), product, division and subtraction;
 *   DTW: a warping path has at most 2 dim - 1 cells, each cost rounded
 *     3 times and added once. */
static int64_t ds_terms(const int64_t *dims)
{
    int64_t dim = dims[DIM_D];
    switch (dims[DIM_METRIC]) {
    case M_SQEUCLID: return dim + 2;
    case M_MANHATTAN: return dim + 1;
    case M_CHEBYSHEV: return 3;
    case M_COSINE: return dim + 16;
    default: return 2 * dim + 3;
    }
}

/* Read the points and the centers once, write the matrix once. */
static double ds_bytes(const int64_t *dims)
{
    return 4.0 * ((double)dims[DIM_N] * (double)dims[DIM_D] +
                  (double)dims[DIM_K] * (double)dims[DIM_D] +
                  (double)dims[DIM_K] * (double)dims[DIM_N]);
}

#define ALL_METRICS(n, k, dim, v)                                             \
    {.dims = {n, k, dim, M_SQEUCLID}, .variant = v},                          \
        {.dims = {n, k, dim, M_MANHATTAN}, .variant = v},                     \
        {.dims = {n, k, dim, M_CHEBYSHEV}, .variant = v},                     \
        {.dims = {n, k, dim, M_COSINE}, .variant = v},                        \
        {.dims = {n, k, dim, M_DTW}, .variant = v}

/* Odd sizes for every metric: empty n, empty k, one of everything, dim = 0
 * (the distances of empty vectors: 0, or 1 for cosine), dims below and above
 * the DTW band (33 and 97 > 2 * 32 + 1), zero vectors for cosine, and one
 * size (right only) larger than a grid that just fills an H100 (132 SMs x
 * 2048 threads), for kernels that launch the occupancy API's minimum grid
 * without a grid-stride loop. */
#define RIGHT_CASES(big)                                                      \
    {.dims = {0, 5, 3, M_SQEUCLID}}, {.dims = {7, 0, 3, M_COSINE}},           \
        {.dims = {1, 1, 1, M_MANHATTAN}}, {.dims = {33, 5, 0, M_COSINE}},     \
        {.dims = {31, 3, 0, M_DTW}}, {.dims = {45, 6, 0, M_CHEBYSHEV}},       \
        {.dims = {1000, 33, 17, M_SQEUCLID}, .variant = V_OFFSET},            \
        {.dims = {4099, 10, 31, M_SQEUCLID}, .variant = V_ZEROS},             \
        {.dims = {1025, 31, 13, M_MANHATTAN}, .variant = V_ZEROS},            \
        {.dims = {3001, 17, 64, M_MANHATTAN}, .variant = V_INTEGERS},         \
        {.dims = {999, 37, 9, M_CHEBYSHEV}, .variant = V_OFFSET},             \
        {.dims = {2049, 3, 33, M_CHEBYSHEV}, .variant = V_ZEROS},             \
        {.dims = {1023, 29, 16, M_COSINE}, .variant = V_ZEROS},               \
        {.dims = {777, 40, 5, M_COSINE}, .variant = V_OFFSET},                \
        {.dims = {501, 9, 70, M_COSINE}, .variant = V_INTEGERS},              \
        {.dims = {257, 19, 40, M_DTW}},                                       \
        {.dims = {100, 7, 1, M_DTW}, .variant = V_INTEGERS},                  \
        {.dims = {333, 11, 97, M_DTW}, .variant = V_ZEROS},                   \
        {.dims = {65537, 5, 7, M_COSINE}, .variant = V_ZEROS},                \
        {.dims = {big, 3, 5, M_SQEUCLID}}, {.dims = {big, 2, 3, M_CHEBYSHEV}}

const lab_spec LAB_09_OCCUPANCY = {
    .id = "09-occupancy",
    .title = "registers and occupancy",
    .student_file = "distances.cu",
    .entry = "distances",
    .signature = "cudaError_t distances(const float *d_points, const float *d_centers, "
                 "int n, int k, int dim, int metric, float *d_out, cudaStream_t stream)",
    .n_dims = 4,
    .dim_names = {"n", "k", "dim", "metric"},
    .shrink_dims = 1u << 0 | 1u << 1 | 1u << 2, /* not the metric */
    .n_buffers = 3,
    .buffers = {
        {"d_points", BUF_INPUT, ELEM_F32, NULL},
        {"d_centers", BUF_INPUT, ELEM_F32, NULL},
        {"d_out", BUF_OUTPUT, ELEM_F32, NULL},
    },
    .variant_names = {"typical coordinates in [-2, 3)",
                      "one vector in five all zeros",
                      "coordinates 1000 +- 1 (a large common offset)",
                      "small integer coordinates (duplicates, ties)"},
    .buffer_count = ds_count,
    .buffer_shape = ds_shape,
    .generate = ds_generate,
    .reference = dist_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 2.0,
        .terms = ds_terms,
        .why = "each metric is a float computation whose rounding depends on the order "
               "a kernel chooses; the error is bounded by gamma_t times the size of what "
               "was summed (Higham): the value itself for the sums of non-negative "
               "terms (squared Euclidean, Manhattan, DTW) and Chebyshev, "
               "sum|p_d c_d|/(|p||c|) + 1 for cosine, whose 1 - s cancels; "
               "t = the roundings per element, c = 2 for margin",
        .show_bits = 0,
    },
    /* Friendly: every metric at 4096 points x 32 centers x 16 dims, then two
     * larger light cases; all below one GPU-filling grid. */
    .work = LAB_CASES(ALL_METRICS(4096, 32, 16, V_TYPICAL),
                      {.dims = {32768, 8, 32, M_SQEUCLID}},
                      {.dims = {16384, 16, 64, M_COSINE}}),
    .right = LAB_CASES(RIGHT_CASES(300007)),
    .sanitize = LAB_CASES({.dims = {0, 3, 2, M_SQEUCLID}}, {.dims = {1, 1, 1, M_MANHATTAN}},
                          {.dims = {33, 5, 0, M_COSINE}},
                          {.dims = {100, 7, 9, M_COSINE}, .variant = V_ZEROS},
                          {.dims = {70, 3, 5, M_DTW}},
                          {.dims = {1000, 5, 3, M_CHEBYSHEV}, .variant = V_OFFSET}),
    /* The CPU emulation models 16 SMs x 2048 threads: 40009 points exceed
     * its GPU-filling grid as 300007 exceeds an H100's. */
    .emulated = {
        .work = LAB_CASES(ALL_METRICS(1024, 32, 16, V_TYPICAL),
                          {.dims = {32768, 4, 8, M_SQEUCLID}},
                          {.dims = {4096, 16, 64, M_COSINE}}),
        .right = LAB_CASES(RIGHT_CASES(40009)),
    },
    /* No shared memory in the lesson, but a submission that stages the
     * centers in shared memory must do it without races. */
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    .fast = {
        /* 4M points of 16 coordinates against 4 centers, squared Euclidean:
         * 256 MiB of points read and 64 MiB of distances written per call
         * (6x the H100's L2). The light metric in a kernel that carries
         * DTW's registers is the lecture slides' story: see the README. */
        .timed = {.dims = {1 << 22, 4, 16, M_SQEUCLID}},
        .recheck = {.dims = {(1 << 20) + 7, 4, 16, M_SQEUCLID}},
        .baseline = "one kernel for all metrics (run-time switch), 512 threads per block",
        .bytes = ds_bytes,
        /* Copy speed is the roof of a kernel that streams its points once:
         * the report shows the fraction of it (the reference about 93% on
         * an H200), but only the speedup is required, since the lesson is
         * what registers and occupancy buy, not the last bytes per second. */
        .roof = ROOF_COPY,
        .min_roofline = 0,
        /* Provisional, to be calibrated on an H100: the switch kernel
         * carries DTW's 96 registers (25% occupancy at 512 threads), the
         * specialized squared-Euclidean kernel 32 or fewer (100%). */
        /* Same-run, H100 / H200: the row in registers (v5) 1.47x / 1.90x;
         * the reference (v6, two points per thread) 1.98x on an H200
         * (2026-12-02, not yet timed on an H100); template
         * specializations alone 1.17-1.30x / 1.26-1.51x; the run-time switch
         * with the occupancy API's block size 1.09x / 1.11x; the naive
         * switch 1.00x. The kernel is memory-bound, so occupancy buys at
         * most the step from 63% to 93% of copy. */
        .min_speedup = 1.15,
        .max_speedup = 20, /* the reference: 2.0x on an H200 */
        .calibration = "H100 and H200 2026-11-21: row in registers 1.47x / 1.90x, switch + "
                       "occupancy API 1.09x / 1.11x; H200 2026-12-02: the reference (two points "
                       "per thread) 1.98x; see labs/09-occupancy/INSTRUCTOR.md",
    },
    /* The lesson is registers: list every kernel with its registers, spills
     * and the occupancy they allow, and reject spills (__launch_bounds__ or
     * -maxrregcount squeezed below what a kernel needs). No register cap:
     * DTW legitimately needs about 100. */
    .resources = {.report = 1, .max_registers = 0, .no_spills = 1},
    .counters = {
        COUNTER_OCCUPANCY("the share of the SM's warp slots in use: occupancy hides memory latency, but only until the kernel is limited by something else"),
        COUNTER_REGISTERS("registers per thread cap how many warps fit on an SM: the count a kernel compiles to depends on the metric and dim it is specialised for"),
        COUNTER_DRAM("the distances stream the points from memory: a kernel near the roof no longer gains from more warps"),
    },
    .hints = {
        .never_written = "distances never written: one thread per point (i < n) must "
                         "write out[j * n + i] for every center j; does the grid cover "
                         "all n points (a grid from the occupancy API's minGridSize "
                         "covers only one GPU-full of threads), and does dim == 0 still "
                         "write (0, or 1 for cosine)?",
        .wrong_value = "wrong distances: check the layouts (points[d * n + i], "
                       "centers[j * dim + d], out[j * n + i]), every case of the switch "
                       "(a missing break falls into the next metric), and which metric "
                       "each template instantiation computes",
        .special_values = "NaN or Inf: cosine of an all-zero vector must be exactly 1 "
                          "(test |p|^2 == 0 || |c|^2 == 0 before dividing); Chebyshev "
                          "and DTW of dim == 0 are 0",
        .write_after = "wrote past the end of d_out (k x n floats): a thread with i >= n "
                       "must not write",
        .write_before = "wrote in front of d_out: a negative index?",
        .input_changed = "d_points and d_centers are read-only",
        .launch_error = "a launch was refused: a kernel with many registers cannot run "
                        "1024 threads per block (registers per thread x threads per "
                        "block must fit the SM's 65536); ask "
                        "cudaOccupancyMaxPotentialBlockSize; and no launch when n or k "
                        "is 0",
        .crash = "a fault in the kernel: an index past n * dim or k * n, or a float4 access "
                 "through a pointer that is only 4-byte aligned (the right stage gives such pointers)?",
        .timeout = "the kernel never finished: does every loop move forward?",
        .too_slow = "the light metric pays for the heaviest case's registers: compile one "
                    "kernel per metric (a template parameter, a compile-time switch), "
                    "pick the block size with cudaOccupancyMaxPotentialBlockSize for "
                    "that kernel, and read the registers in the fast stage's report",
    },
};
