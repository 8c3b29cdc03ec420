/* spec.c - lab 12, a copy/compute pipeline with streams, as data. Trusted:
 * students do not edit it.
 *
 *     h_out[i] = f(h_in[i]), 0 <= i < n,
 *
 * with f the lab's per-element function (pipeline_f.h: 1024 steps of
 * y <- x - y^2/4, each one fmaf). h_in and h_out are pinned host memory
 * (lab_buffer.pinned_host); d_work is device memory of work_elems floats,
 * usually far fewer than n, so the data must go through it in chunks. Every
 * n >= 0 and work_elems >= 1 must work, n < work_elems too.
 *
 * The grader reads h_out the moment the stream it passed is done, and
 * nothing else has been waited for (grader/runner/call.cu): work the call
 * left on a stream of its own, not joined to that stream, has not landed
 * yet, and elements that change after that moment fail the call by name.
 * d_work holds random bits on entry, so a chunk copied back before its
 * kernel finished brings back the chunk's input or garbage, never f(x).
 */
#include <math.h>

#include "counters.h"
#include "lab_spec.h"
#include "pipeline_f.h"
#include "rng.h"

/* The buffers, in the order of the entry point's parameters. */
enum { BUF_IN, BUF_OUT, BUF_WORK };
enum { DIM_N, DIM_WORK };

enum { V_TYPICAL, V_EDGES };

static size_t pipeline_count(int buf, const int64_t *dims)
{
    return (size_t)(buf == BUF_WORK ? dims[DIM_WORK] : dims[DIM_N]);
}

/* Values IEEE-754 treats specially, and the ends of the typical range. */
static const uint32_t EDGES[] = {
    0x00000000u, 0x80000000u, /* +0, -0: f(+-0) = +-0 */
    0x00000001u, 0x807fffffu, /* subnormals: f(x) = x (x^2 / 4 is far below an ulp) */
    0x00800000u, 0x9e3ce508u, /* FLT_MIN and -1e-20: f(x) = x too */
    0x7fc00000u,              /* NaN: NaN */
    0x7f800000u, 0xff800000u, /* +Inf: Inf - Inf = NaN; -Inf: -Inf */
    0xbf400000u, 0x3fc00000u, /* -0.75, 1.5: the ends of the typical range */
};
enum { N_EDGES = sizeof EDGES / sizeof EDGES[0] };

/* Typical values: -0.75 to -0.25 and 0.25 to 1.5, where f(x) is 5% to
 * 33% away from x, so a chunk copied back before its kernel ran (it still
 * holds x) is wrong in every element, by millions of ulps. */
static float typical(rng_t *r)
{
    return rng_below(r, 3) == 0 ? rng_float(r, -0.75f, -0.25f) : rng_float(r, 0.25f, 1.5f);
}

static void pipeline_generate(int buf, const lab_case *c, uint64_t seed, void *host,
                              size_t count)
{
    (void)buf; /* h_in, the only input */
    float *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++)
        x[i] = c->variant == V_EDGES && rng_below(&r, 4) == 0
                   ? rng_bits_to_float(EDGES[rng_below(&r, N_EDGES)])
                   : typical(&r);
}

/* The loop of f replayed on the CPU, operation for operation: the exact
 * float answer (pipeline_f.h says why), as a double. */
static void pipeline_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const float *x = inputs[BUF_IN];
    size_t n = (size_t)c->dims[DIM_N];
    for (size_t i = 0; i < n; i++) out[BUF_OUT].value[i] = (double)pipeline_f(x[i]);
}

/* Every element crosses the host link twice: n floats in, n floats out. */
static double pipeline_bytes(const int64_t *dims)
{
    return 2.0 * sizeof(float) * (double)dims[DIM_N];
}

const lab_spec LAB_12_STREAMS = {
    .id = "12-streams",
    .title = "streams: a copy/compute pipeline",
    .student_file = "pipeline.cu",
    .entry = "pipeline",
    .signature = "cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work, "
                 "size_t work_elems, cudaStream_t stream)",
    .n_dims = 2,
    .dim_names = {"n", "work_elems"},
    .shrink_dims = 1u << DIM_N, /* work_elems is a size too, but the bug is rarely in it */
    .n_buffers = 3,
    .buffers = {
        {"h_in", BUF_INPUT, ELEM_F32, .pinned_host = 1},
        {"h_out", BUF_OUTPUT, ELEM_F32, .pinned_host = 1},
        {"d_work", BUF_SCRATCH, ELEM_F32},
    },
    .variant_names = {"typical values", "with +-0, subnormals, Inf and NaN"},
    .buffer_count = pipeline_count,
    .generate = pipeline_generate,
    .reference = pipeline_reference,
    .tolerance = {
        .kind = TOL_ULP,
        .ulps = 4,
        .why = "f is defined bit for bit (one fmaf per step) and the CPU replays it; the "
               "iteration contracts by |y|/2 <= 0.6 per step, so a formulation that rounds "
               "differently (y*y first, then the fmaf) ends within 1/(1 - 0.6) = 2.5 ulps: 4 "
               "is room for it; half or bfloat16 arithmetic is thousands of ulps away",
    },
    /* Friendly: n a multiple of work_elems, a few chunks; and one n below
     * work_elems (a single chunk, smaller than d_work). */
    .work = LAB_CASES({.dims = {262144, 65536}}, {.dims = {196608, 16384}},
                      {.dims = {65536, 131072}}),
    /* Nothing to do (n = 0); one element; d_work of a single float (n
     * chunks of one: a pipeline that splits d_work into slots must still
     * make progress); sizes work_elems does not divide, so the last chunk
     * is short (the first such case, 4099 with slots of 256, comes before
     * any n smaller than a chunk, so a lost tail is reported as a lost
     * tail); many chunks (a copy that races its kernel is seen in every one
     * of them); n far below work_elems; the edge values. */
    .right = LAB_CASES({.dims = {0, 1}}, {.dims = {0, 4096}}, {.dims = {1, 1}},
                       {.dims = {31, 7}}, {.dims = {1000, 1}},
                       {.dims = {4099, 1024}, .variant = V_EDGES}, {.dims = {33, 2}},
                       {.dims = {1, 1000}}, {.dims = {65537, 4096}},
                       {.dims = {100003, 9973}, .variant = V_EDGES}, {.dims = {20011, 3}},
                       {.dims = {20000, 262144}}, {.dims = {131072, 131071}},
                       {.dims = {262147, 65536}}),
    /* Small, for compute-sanitizer (memcheck: a copy or a kernel past the
     * end of d_work, which has exactly work_elems floats there). */
    .sanitize = LAB_CASES({.dims = {0, 1}}, {.dims = {1, 1}}, {.dims = {33, 2}},
                          {.dims = {1000, 333}, .variant = V_EDGES}, {.dims = {4097, 1024}},
                          {.dims = {3000, 8192}}),
    /* One core runs every CUDA thread as a fiber, each 1024 steps long: the
     * same kinds of sizes, about ten times smaller. */
    .emulated = {
        .work = LAB_CASES({.dims = {16384, 4096}}, {.dims = {12288, 1024}},
                          {.dims = {4096, 8192}}),
        .right = LAB_CASES({.dims = {0, 1}}, {.dims = {0, 4096}}, {.dims = {1, 1}},
                           {.dims = {31, 7}}, {.dims = {300, 1}},
                           {.dims = {4099, 1024}, .variant = V_EDGES}, {.dims = {33, 2}},
                           {.dims = {1, 1000}}, {.dims = {10007, 997}, .variant = V_EDGES},
                           {.dims = {3001, 3}}, {.dims = {2000, 16384}}, {.dims = {8192, 8191}}),
    },
    .sanitizers = 0, /* no shared memory, no barriers: memcheck alone */
    .misalign = 1,
    .fast = {
        /* 2^26 floats, 256 MiB each way across the host link, through a
         * d_work of 2^24 floats (64 MiB). The re-check runs at a ragged
         * size the CPU checks in about a second. */
        .timed = {.dims = {1 << 26, 1 << 24}},
        .recheck = {.dims = {300007, 65521}},
        .baseline = "serial chunks of work_elems on the stream: copy in, kernel, copy out",
        .bytes = pipeline_bytes,
        .roof = ROOF_PARTS,
        /* Measured on the H100 (tests/calibrate.sh 12 and make ladder LAB=12,
         * 2^26 floats, f of 1024 steps): the bound is the kernel, 5.20 ms
         * (copy in 4.91, copy out 4.88); the reference 85.8% of it and
         * 2.49-2.51x in two gradings; zero-copy 81.5% and 2.35x; two streams
         * 64.3% and 1.85x; blocking streams 47.0% and 1.35x; the serial
         * baseline as a submission 37.6% and 1.09x. The bars sit between
         * two streams, which must fail, and the reference: 75% of the
         * bound, and 2x.
         * What stands between the reference and the bound, measured on
         * an H200 (2026-12-02, one program, medians of 7 calls, the same
         * sizes): the kernel alone 5.241 ms (the bound), each copy alone
         * 4.853 / 4.860 ms; the two copies side by side 5.602 ms (the two
         * directions share the link); all three parts side by side, whole
         * data, 5.833 ms = 89.9% of the bound, the most any pipeline can
         * reach as the bound is measured; the kernel cut into 64 launches
         * of 2^20 one after another 5.622 ms (each launch ends in a
         * partial wave). Pipelines of chunks of 2^20: two slots 61.5%,
         * three 78.2%, four (the reference) 86.9%, eight 89.1% of the
         * bound, within 1% of all three side by side: more streams let one
         * chunk's kernel fill the last wave of another's. */
        .min_roofline = 0.75,
        .min_speedup = 2.0,
        .max_speedup = 8, /* no pipeline of three parts gains more than 3x */
        .calibration = "H100, 2026-11-27: reference 86% of the bound and 2.5x, two streams 64% "
                       "and 1.85x, serial 38% and 1.1x (labs/12-streams/INSTRUCTOR.md)",
    },
    /* The contract: the call returns with its work joined to the stream it
     * was given, and does not wait for the device. A device-wide wait
     * inside the call would hide both (everything is done when it returns)
     * and, on an idle GPU, costs little: it is refused at build. */
    .forbidden = {{"cudaDeviceSynchronize", "cudaDeviceSynchronize", NULL,
                   "the call must not wait for the whole GPU: join your streams to the one "
                   "you are given with events (cudaEventRecord, cudaStreamWaitEvent) and "
                   "return"}},
    .time_limit_s = {.work = 60, .right = 90},
    .counters_none = "the lesson is overlap in time (copies on both engines beside the kernel), which the counters of one kernel do not show: Nsight Systems' timeline does (README, how to profile)",
    .hints = {
        .never_written = "every h_out[i] must be written: does your loop over chunks cover the "
                         "last, shorter chunk (n not a multiple of the chunk), and does the "
                         "stream you were given wait for all of your work before you return?",
        .wrong_value = "h_out[i] must be f(h_in[i]) with f exactly as given: is each chunk "
                       "copied back only after its kernel finished (the same stream, or an "
                       "event recorded after the kernel), and does every chunk use a slot of "
                       "d_work no other chunk in flight is using?",
        .special_values = "NaN or Inf where f gives none (or the other way round): h_out holds "
                          "NaN on entry and d_work random bits, so a chunk never copied back, "
                          "copied back from the wrong place, or copied back before its kernel "
                          "finished shows as NaN or Inf",
        .write_after = "only d_work[0 .. work_elems) is yours: a slot of d_work past its end "
                       "(slots of (work_elems + 1) / 2, or a last slot not cut short), or a "
                       "copy of a chunk longer than its slot",
        .write_before = "a negative offset into a buffer",
        .input_changed = "h_in is an input: copy it to d_work and compute there; never use it "
                         "as a staging area",
        .launch_error = "a call failed: at most 1024 threads per block, no launch with zero "
                        "blocks (a chunk of 0 elements, n == 0), a copy that fits in d_work, "
                        "and streams and events created before use",
        .crash = "a fault in a kernel: an index past the chunk (guard it with i < count), "
                 "a pointer into d_work past its end, or a float4 access through a pointer "
                 "that is only 4-byte aligned (the right stage gives such pointers)",
        .timeout = "the call never finished: a chunk size of 0 (work_elems smaller than your "
                   "number of slots) makes a loop that never advances",
        .too_slow = "the three parts must overlap: each chunk's copy in, kernel and copy out "
                    "on a stream of its own (three or four streams, taking turns), in chunks "
                    "small enough (a few MiB) that filling and draining the pipeline costs "
                    "little; non-blocking streams (cudaStreamNonBlocking), since a blocking "
                    "stream waits for the legacy default stream; and no cudaMemcpy, "
                    "cudaDeviceSynchronize or default-stream launch inside the call",
        .late_write = "work left on a stream you did not join to the stream you were given: "
                      "record an event on each stream of yours after its last copy and make "
                      "the given stream wait for it (cudaStreamWaitEvent) before returning; "
                      "the grader reads h_out as soon as the given stream is done",
    },
};
