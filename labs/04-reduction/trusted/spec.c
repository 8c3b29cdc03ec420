/* spec.c - lab 04, the reduction ladder, as data. Trusted: students do not
 * edit it.
 *
 * *d_out = in[0] + in[1] + ... + in[n-1] (0 when n == 0). A float sum is
 * rounded once per addition and every parallel kernel adds in a different
 * order, so no single float is "the" answer: the comparison is Higham's
 * error bound, |got - exact| <= c * gamma_n * sum |in[i]|, with the exact
 * sum computed on the CPU (see the README).
 */
#include <math.h>
#include <string.h>

#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

enum { RD_IN, RD_OUT, RD_SCRATCH };

/* The contract promises n + 1024 floats of scratch. */
static size_t rd_count(int buf, const int64_t *dims)
{
    switch (buf) {
    case RD_IN: return (size_t)dims[0];
    case RD_OUT: return 1;
    default: return (size_t)dims[0] + 1024;
    }
}

/* Typical values: around 1, all positive, so the sum grows with n and a
 * kernel that drops or double-counts elements is visibly wrong. */
static float rd_typical(rng_t *r) { return rng_float(r, 0.25f, 1.75f); }

/* +B / -B pairs (B up to 2^20) between small values, in shuffled places:
 * the exact sum is that of the small values, and the partial sums a GPU
 * forms on the way are large, so rounding errors are large too. */
static void rd_cancelling(rng_t *r, float *x, size_t n)
{
    for (size_t k = 0; k + 1 < n; k += 2) {
        if (rng_below(r, 3) == 0) {
            float big = rng_float(r, 1024.0f, 1048576.0f);
            x[k] = big;
            x[k + 1] = -big;
        } else {
            x[k] = rng_float(r, -1.0f, 1.0f);
            x[k + 1] = rng_float(r, -1.0f, 1.0f);
        }
    }
    if (n % 2) x[n - 1] = rng_float(r, -1.0f, 1.0f);
    for (size_t k = n; k > 1; k--) { /* Fisher-Yates */
        size_t j = rng_below(r, (uint32_t)k);
        float t = x[k - 1];
        x[k - 1] = x[j];
        x[j] = t;
    }
}

static void rd_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                        size_t count)
{
    (void)buf;
    float *x = host;
    rng_t r = rng_seeded(seed);
    if (c->variant == 1) {
        rd_cancelling(&r, x, count);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case 2: { /* mixed magnitudes: 2^-20 .. 2^20, either sign */
            float m = rng_float(&r, 1.0f, 2.0f);
            int e = (int)rng_below(&r, 41) - 20;
            x[i] = ldexpf(rng_below(&r, 2) ? -m : m, e);
            break;
        }
        case 3: /* all negative */
            x[i] = -rd_typical(&r);
            break;
        case 4: /* tiny but normal: typical values times 2^-100, exactly */
            x[i] = ldexpf(rd_typical(&r), -100);
            break;
        default:
            x[i] = rd_typical(&r);
        }
    }
}

/* The exact sum, to well within a double's precision: Neumaier's
 * compensated summation in double. Every float is exact in double, and the
 * compensation keeps the low-order bits that plain double summation of
 * +B/-B pairs would lose. sum |in[i]| is what the bound scales with. */
static void rd_reference(const lab_case *c, const void *const *inputs,
                         lab_expect *out)
{
    const float *x = inputs[RD_IN];
    double sum = 0, comp = 0, abs_sum = 0;
    for (int64_t i = 0; i < c->dims[0]; i++) {
        double v = x[i], t = sum + v;
        comp += fabs(sum) >= fabs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
        abs_sum += fabs(v);
    }
    out[RD_OUT].value[0] = sum + comp;
    out[RD_OUT].abs_sum[0] = abs_sum;
}

/* gamma_n with n = the number of terms: Higham's bound for recursive
 * summation in any order is gamma_{n-1}; n covers it for every n >= 1, and
 * gamma_0 = 0 makes n == 0 demand exactly 0. */
static int64_t rd_terms(const int64_t *dims) { return dims[0]; }

/* Each element is read once: 4n bytes. */
static double rd_bytes(const int64_t *dims) { return 4.0 * (double)dims[0]; }

const lab_spec LAB_04_REDUCTION = {
    .id = "04-reduction",
    .title = "the reduction ladder",
    .student_file = "reduce.cu",
    .entry = "reduce_sum",
    .signature = "cudaError_t reduce_sum(const float *d_in, int n, float *d_out, "
                 "float *d_scratch, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 3,
    .buffers = {
        {"d_in", BUF_INPUT, ELEM_F32},
        {"d_out", BUF_OUTPUT, ELEM_F32},
        {"d_scratch", BUF_SCRATCH, ELEM_F32},
    },
    .variant_names = {"typical values around 1", "+big/-big pairs that cancel",
                      "mixed magnitudes 2^-20..2^20, both signs", "all negative",
                      "tiny values around 2^-100"},
    .buffer_count = rd_count,
    .generate = rd_generate,
    .reference = rd_reference,
    .tolerance = {
        .kind = TOL_BOUND,
        .bound_c = 2.0,
        .terms = rd_terms,
        .why = "every float addition rounds and each kernel adds in its own order; "
               "Higham: any order is within gamma_(n-1) * sum|in[i]| of the exact sum "
               "(gamma_k = k*u/(1-k*u), u = 2^-24); c = 2 adds room for a final "
               "rounding and compensated schemes, and float atomics change the order "
               "from run to run, which the bound covers",
        .show_bits = 0,
    },
    /* Friendly: multiples of 1024 (any block size, two elements per thread),
     * at most 2^20 elements (one pass of 2048 blocks x 512 elements). */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 20}}),
    /* Empty, one element, sizes that are not multiples of a warp or a block,
     * 2^k +- 1, primes, sizes above one block and above one grid-stride
     * pass; every input family. The bound grows like n^2 * u * mean|x|, so
     * the small sizes are where a missing element or a stray read shows;
     * the large ones check that several grid passes are all summed. */
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {2}, .variant = 3},
                       {.dims = {31}}, {.dims = {33}, .variant = 4},
                       {.dims = {255}, .variant = 3}, {.dims = {257}, .variant = 1},
                       {.dims = {1000}, .variant = 4}, {.dims = {1025}, .variant = 2},
                       {.dims = {4099}}, {.dims = {65537}, .variant = 1},
                       {.dims = {100003}, .variant = 3}, {.dims = {300007}},
                       {.dims = {1000003}, .variant = 4}, {.dims = {(1 << 21) + 1}},
                       {.dims = {(1 << 22) - 1}, .variant = 2}),
    /* Small, for compute-sanitizer; 70001 makes grid-stride kernels with a
     * capped grid run several passes per block. */
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}, .variant = 4},
                          {.dims = {1000}, .variant = 1}, {.dims = {4099}},
                          {.dims = {70001}, .variant = 3}),
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    .misalign = 1,
    /* The reduction is the lesson; CUB and Thrust would do it for you. */
    .forbidden = {{"cub::", "CUB", "/cub/"}, {"thrust::", "Thrust", "/thrust/"}},
    .fast = {
        .timed = {.dims = {1 << 26}}, /* 256 MiB read per call: 5x the H100's L2 */
        /* gamma_n is infinite from n = 2^24 on (n*u >= 1: a serial float sum
         * of 2^25 ones really does stop at 2^24), so the re-check after
         * timing uses a size where the bound still means something. */
        .recheck = {.dims = {1000003}},
        .baseline = "v1 interleaved addressing with a divergent branch and %",
        .bytes = rd_bytes,
        .roof = ROOF_PARTS, /* reading d_in alone (trusted/lab.cu) */
        /* Calibrated on an H100 (INSTRUCTOR.md): against the bound, the
         * grader's own read of the same 256 MiB in the same run, the
         * shared-memory rungs 1-6 reach 16-75%, rung 7 (many elements per
         * thread) 89%, the float4 rungs 8-9 97-100% and CUB 98%; the
         * reference graded 96.2%. 85% passes rung 7 by 4 points and the
         * reference by 11, and fails every tree by 10 or more. (It was 80% of copy
         * before the bound was measured: 89% of the bound, since a read of
         * 256 MiB runs at 91.5% of the 1 GiB copy's bandwidth, which put
         * rung 7 on the line.) The reference is 6.2-6.4x rung 1 on the
         * H100, whose memory compresses the ladder, so the speedup gate
         * is 4x: a check that rung 1 is beaten, the bound does the
         * separating. */
        /* A sum of 2^26 values near 1 estimated from half of them is off by
         * about 1e-4 of it, inside the timed calls' agreement: spikes of
         * +-2^24 at random places make leaving out input visible (the sum
         * is 6.7e7, so they change no float's last place much). */
        .spike = 16777216.0,
        .min_roofline = 0.85,
        .min_speedup = 4.0,
        .max_speedup = 60, /* the reference: 6.3x */
        .calibration = "calibrated on an H100, see labs/04-reduction/INSTRUCTOR.md",
    },
    .counters = {
        COUNTER_ACTIVE_THREADS("a tree that keeps threads i % (2s) == 0 leaves most lanes of every warp idle; keeping the active threads together keeps warps full"),
        COUNTER_SHARED_LOAD_PASSES("strided indexing into shared memory makes threads of a warp share banks: each extra pass is a bank conflict"),
        COUNTER_DRAM("the sum only reads: near the roof the kernel is limited by DRAM, not by its tree"),
        COUNTER_WARP_INSTRUCTIONS("a tree step, a barrier and an index per element add up: fewer instructions per element leave the memory system as the limit"),
    },
    .hints = {
        .never_written = "d_out was never written: the last pass must store the "
                         "total in d_out[0], and n == 0 must store 0",
        .wrong_value = "the sum is off by more than rounding can explain: elements "
                       "dropped (the last partial block, later grid-stride passes), "
                       "counted twice, block sums never added up, or a race on "
                       "shared memory (a missing __syncthreads)",
        .special_values = "NaN or Inf: d_out holds garbage on entry (zero it with "
                          "cudaMemsetAsync on the stream before atomicAdd), or "
                          "elements past n or before the start were read",
        .write_before = "wrote in front of a buffer: a vector access rounded down "
                        "below the start of the array?",
        .write_after = "wrote past the end: d_out holds ONE float; per-block "
                       "partial sums belong in d_scratch (n + 1024 floats)",
        .input_changed = "d_in is read-only: reduce in shared memory, registers or "
                         "d_scratch, never in place in the input",
        .launch_error = "a launch was refused: at most 1024 threads per block, at "
                        "least one block, and no kernel at all when n == 0 (write "
                        "the 0 with cudaMemsetAsync)",
        .crash = "a fault in a kernel: an index past n, or a float4 load from an "
                 "address that is not 16-byte aligned (peel the first elements)",
        .timeout = "the kernel never finished: does every grid-stride loop step "
                   "forward, and does every thread reach every __syncthreads?",
        .too_slow = "read 16 bytes per load (float4 after peeling the unaligned "
                    "head), keep sums in registers over a grid-stride loop on a "
                    "grid the size of the GPU, and reduce warps with "
                    "__shfl_down_sync; see the ladder in the README",
    },
};
