/* lab_spec.h - a lab described as data.
 *
 * Each lab has one trusted spec (labs/NN-name/trusted/spec.c, plain C11 with
 * designated initializers) that says everything the engine needs to know:
 * the buffers of the entry point, how inputs are generated, the CPU
 * reference, the tolerance, the sizes of every stage, the bytes moved for the
 * roofline and the thresholds of the fast stage. The engine itself holds no
 * lab-specific numbers.
 *
 * The CUDA side of a lab (labs/NN-name/trusted/lab.cu) is the other trusted half: it
 * turns a generic list of device buffers into a call of the student's entry
 * point, and it holds the naive baseline kernel. See lab_device below.
 *
 * This header is shared by the C11 parent process and the CUDA C++ runner.
 */
#ifndef LAB_SPEC_H
#define LAB_SPEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { LAB_MAX_DIMS = 4, LAB_MAX_BUFFERS = 8, LAB_MAX_CASES = 32 };

/* ELEM_F16 is IEEE binary16 (CUDA's __half), two bytes per element, for
 * inputs only: the spec's generator writes its bit patterns (uint16_t, e.g.
 * lab_f16_from_float), the reference reads them exactly (lab_f16_to_double)
 * and the runner only moves bytes. Outputs and scratch buffers are F32, F64,
 * I32 or U32 (tests/unit/test_spec.c checks). The fast stage's spikes skip
 * F16 inputs. */
typedef enum { ELEM_F32, ELEM_F64, ELEM_I32, ELEM_U32, ELEM_F16 } lab_elem;

/* Inputs are generated and must come back unchanged; outputs are poisoned
 * with NaN (or a sentinel integer) before every call and compared; scratch
 * buffers hold garbage on entry and are only checked for out-of-bounds
 * writes. */
typedef enum { BUF_INPUT, BUF_OUTPUT, BUF_SCRATCH } lab_role;

typedef enum {
    TOL_EXACT, /* bit-identical (any NaN matches any NaN)                  */
    TOL_ULP,   /* |got - round_to_float(exact)| <= ulps units in last place */
    TOL_BOUND  /* |got - exact| <= c * gamma_n * sum|terms| (Higham)        */
} lab_tol_kind;

typedef enum {
    ROOF_COPY,   /* bytes moved / same-run device-to-device copy bandwidth */
    ROOF_VENDOR, /* FLOP/s / a vendor library's same-run FLOP/s            */
    ROOF_NONE,   /* no roofline: the fast stage gates on the speedup only  */
    ROOF_PARTS   /* the slowest of the lab's trusted parts (lab_device.parts),
                    each timed alone in the same run: the time no call can
                    beat once the parts overlap perfectly                  */
} lab_roof;

typedef enum {
    PEAK_FP32,        /* FMA lanes: 2 FLOP per lane per clock            */
    PEAK_FP16_TENSOR  /* tensor cores, half inputs, float accumulation  */
} lab_peak;

typedef enum {
    SAN_MEMCHECK = 1,
    SAN_RACECHECK = 2,
    SAN_SYNCCHECK = 4,
    SAN_INITCHECK = 8
} lab_sanitizer;

/* One call of the entry point: the problem sizes and which input family to
 * draw from (0 = typical values; higher numbers are lab-defined adversarial
 * families, named in lab_spec.variant_names). */
typedef struct {
    int64_t dims[LAB_MAX_DIMS];
    int variant;
} lab_case;

typedef struct {
    int n;
    lab_case list[LAB_MAX_CASES];
} lab_case_list;

/* LAB_CASES({.dims = {1024}}, {.dims = {33}, .variant = 1}) counts itself. */
#define LAB_CASES(...)                                                       \
    {                                                                        \
        .n = (int)(sizeof((lab_case[]){__VA_ARGS__}) / sizeof(lab_case)),   \
        .list = {__VA_ARGS__}                                                \
    }

/* How close an output must be to the reference, and why (one sentence for
 * the report). */
typedef struct {
    lab_tol_kind kind;
    double ulps;    /* TOL_ULP */
    double bound_c; /* TOL_BOUND */
    const char *why;
    /* TOL_BOUND: how many terms each output sums (the n of gamma_n). */
    int64_t (*terms)(const int64_t *dims);
    /* Print the bits (sign | exponent | mantissa) of mismatching floats,
     * for labs where the last bit is the lesson. */
    int show_bits;
} lab_tolerance;

typedef struct {
    const char *name; /* as in the entry point's signature, e.g. "d_c" */
    lab_role role;
    lab_elem elem;
    /* Outputs only, optional: this buffer's own tolerance, for labs whose
     * outputs are held to different standards. NULL: the lab's. */
    const lab_tolerance *tolerance;
    /* Inputs only, optional: an array of records of this many elements
     * (4 for float4 positions); the fast stage's swaps then exchange only
     * elements of the same field (grader/swaps.h). 0 or 1: plain elements. */
    int fields;
    /* 1: the buffer lives in pinned host memory (cudaHostAlloc, mapped, so
     * a kernel may also read or write it through the same pointer), not in
     * device memory; the entry point gets a host pointer. It keeps every
     * check a device buffer gets: guards on both sides, poison before every
     * call, inputs compared after it, an allocation of exactly its size
     * under compute-sanitizer. An output of this kind is read as it stood
     * the moment the call's stream was done (cudaStreamSynchronize on that
     * stream alone), before anything else is waited for: elements that
     * change after that moment were written by work the call left on
     * another stream, and fail the call (grader/runner/call.cu). */
    int pinned_host;
    /* Inputs in device memory only, optional: the fast stage draws this
     * many low bits of every element afresh before every timed round
     * (grader/runner/shuffle.cu), for inputs where a value that close to
     * one the generator made is as good an input: the mantissa's low bits
     * of a float that is finite and normal (its sign, exponent and class
     * stay), an integer's low bits. An output that depends on one element
     * of such an input alone could otherwise be looked up, by value, in a
     * table of the answers to earlier rounds. 0: values are kept. */
    int redrawn_bits;
} lab_buffer;

/* What the CPU reference produces for one output buffer: the exact value of
 * every element (computed in double) and, for TOL_BOUND, the sum of the
 * absolute values of the terms that make it up. */
typedef struct {
    double *value;
    double *abs_sum; /* may be left untouched unless the kind is TOL_BOUND */
} lab_expect;

/* Hints tied to the lesson, one per kind of failure; NULL falls back to the
 * engine's generic hint. */
typedef struct {
    const char *never_written;
    const char *wrong_value;
    const char *special_values; /* NaN/Inf in the wrong places */
    const char *write_before;   /* wrote in front of an output */
    const char *write_after;    /* wrote past the end of an output */
    const char *input_changed;
    const char *launch_error;
    const char *timeout;
    const char *crash;
    const char *too_slow;
    const char *resources; /* a kernel broke the register or spill limit */
    /* a pinned host output changed after the call's stream was done */
    const char *late_write;
} lab_hints;

/* A library the lab's lesson forbids (the student writes it instead),
 * recognised by the start of its symbols' demangled names. */
typedef struct {
    const char *prefix; /* "cub::", "cublas" */
    const char *library; /* "CUB", for the message */
    /* Part of the path of its headers ("/cub/"): including one rejects the
     * file whatever its symbols are called. */
    const char *header;
    /* Optional: why, for the message; NULL: writing that part yourself is
     * the lesson. (A call the lab's contract rules out is listed here too:
     * lab 12's cudaDeviceSynchronize.) */
    const char *why;
} lab_forbidden;

/* A hardware counter tied to the lesson, for `make profile` (grader/predict/
 * profile.sh): Nsight Compute measures it for one call of the student's
 * entry point and of the baseline at the timed size, and the table sets it
 * beside the reference's figure (labs/NN-name/slides/counters.txt). Only
 * ever information: no verdict reads it. */
typedef enum {
    COUNTER_RATIO,    /* sum of metric over the call's kernels / sum of per */
    COUNTER_AVERAGE,  /* metric per kernel, weighted by per (its requests,
                         say), or by each kernel's time when per is NULL */
    COUNTER_MILLIONS, /* sum of metric over the call's kernels, in millions */
} lab_counter_kind;

typedef struct {
    const char *label;  /* "stores: % of each sector's bytes used" */
    lab_counter_kind kind;
    const char *metric; /* as Nsight Compute names it */
    const char *per;    /* COUNTER_RATIO: the metric it is divided by;
                           COUNTER_AVERAGE: the weight, optional */
    const char *lesson; /* one sentence: what the figure says, tied to the lesson */
} lab_counter;
enum { LAB_MAX_COUNTERS = 4 };

typedef struct lab_spec {
    const char *id;           /* "01-vector-add": the folder under labs/ */
    const char *title;        /* "vector add" */
    const char *student_file; /* "vector_add.cu" */
    const char *entry;        /* "vector_add" */
    const char *signature;    /* the C prototype, for messages */

    int n_dims;
    const char *dim_names[LAB_MAX_DIMS];
    /* The dims that are sizes (bit d for dims[d]): when a call comes back
     * wrong, the grader halves them again and again to show the smallest
     * case that still fails. Not a parameter such as a metric or a bin
     * width. 0: no search. */
    unsigned shrink_dims;
    int n_buffers;
    lab_buffer buffers[LAB_MAX_BUFFERS];
    const char *variant_names[8];

    /* Elements in buffer `buf` for these sizes. */
    size_t (*buffer_count)(int buf, const int64_t *dims);
    /* Optional: the buffer seen as rows x cols, so reports give (row, col). */
    void (*buffer_shape)(int buf, const int64_t *dims, int64_t *rows,
                         int64_t *cols);
    /* Fill an input (or scratch) buffer deterministically from the seed. */
    void (*generate)(int buf, const lab_case *c, uint64_t seed, void *host,
                     size_t count);
    /* The CPU reference: inputs[b] is NULL unless buffer b is an input;
     * out[b] is filled for every output buffer b. */
    void (*reference)(const lab_case *c, const void *const *inputs,
                      lab_expect *out);

    lab_tolerance tolerance;

    lab_case_list work;     /* friendly sizes */
    lab_case_list right;    /* odd sizes, adversarial inputs */
    lab_case_list sanitize; /* small sizes run under compute-sanitizer */
    /* Optional, for the CPU emulation: lists used instead of work and right
     * where the GPU's sizes would take too long on one core (the right
     * stage should stay under 10 s there). Keep the odd and adversarial
     * sizes. n == 0 keeps the GPU's lists. */
    struct {
        lab_case_list work, right;
    } emulated;
    unsigned sanitizers;    /* lab_sanitizer bits; memcheck is always run */
    /* Offsets (in bytes) added to every pointer in the right stage so that
     * kernels assuming 16-byte alignment are caught; 0 keeps pointers
     * 256-byte aligned everywhere. */
    int misalign;

    struct {
        lab_case timed;      /* the size that is timed */
        lab_case recheck;    /* fresh inputs after timing; dims 0 = timed */
        /* Optional: the size `make profile` measures at; dims 0 = timed
         * (a baseline of thousands of launches takes minutes under
         * Nsight Compute at the timed size). */
        lab_case profiled;
        const char *baseline;    /* name of the naive baseline, for reports */
        /* Optional: name of the vendor library's call (lab_device.vendor),
         * for reports; "the vendor library" when NULL. */
        const char *vendor;
        double (*bytes)(const int64_t *dims); /* fewest bytes moved per call */
        double (*flops)(const int64_t *dims); /* optional: work per call */
        /* What flops() counts, as a rate of 1e9 per second: "GFLOP/s" when
         * NULL; e.g. "Gpairs/s" for a lab that counts pairs. */
        const char *rate_unit;
        lab_roof roof;
        /* Fraction of the roof the fast stage requires, e.g. 0.80; unused for
         * ROOF_NONE. 0 with a roof: the fraction is shown, and only the
         * speedup is required (lab_roof_bar). */
        double min_roofline;
        double min_speedup;  /* median(baseline) / median(submission) */
        /* A speedup above this cannot have been measured honestly (about
         * ten times the reference solution's on the fastest GPU it was
         * calibrated on): the fast stage reports it as impossible. */
        double max_speedup;
        /* Optional: how far a timed float output may stray from the
         * baseline's answer on the same inputs, relative to the output's
         * scale (grader/fast.c); 0 keeps the grader's default. Only for a
         * lab whose baseline is itself less accurate than that. */
        double timed_agreement;
        /* Optional, for a lab whose answer is one number made from many
         * (a sum): an estimate from part of a large input can come closer
         * to the true answer than rounding does, so comparing it with the
         * baseline cannot catch it. Before every timed round two elements
         * of every float input get this magnitude, at random places: at
         * the first every input is +spike, at the second the last input is
         * -spike (x +s, y +s there and x +s, y -s here: products +s^2 and
         * -s^2), so the answer stays of its usual size while a call that
         * leaves out part of the input misses one of them about as often
         * as it leaves out half, and is off by far more than rounding.
         * Each spike is the old value again before the next round. 0: none. */
        double spike;
        const char *calibration; /* where the thresholds come from */
        /* Optional: a second size, timed the same way after the first has
         * passed and judged on its speedup over the baseline at that size
         * (lab 11: radius 1, where memory bounds the work, then radius 7,
         * where arithmetic does). timed.dims all 0: none. */
        struct {
            lab_case timed;
            const char *what;   /* the size in words, "radius 7", for reports */
            double min_speedup; /* median(baseline) / median(submission) there */
        } second;
        /* Which arithmetic peak bounds a believable FLOP/s (a rate beyond
         * it is reported as impossible) and names the fraction the report
         * shows: the FP32 lanes (0, the default), or the tensor cores with
         * half inputs and float accumulation. */
        lab_peak peak;
        /* Optional, for a lab that computes far more than it moves (02,
         * 08): the warp instructions the reference executes per call, as
         * Nsight Compute counts them on it (the lab's INSTRUCTOR.md). The
         * fast report and the ladder show the time those take at the issue
         * roof, every scheduler of every SM issuing one warp instruction
         * per clock, as a fraction of each call's time: information, never
         * a bar (a kernel that executes fewer instructions may pass it). */
        double (*warp_instructions)(const int64_t *dims);
    } fast;

    /* Optional: what the compiled kernels use, read from the device
     * compiler's report (GPU builds only). The fast stage lists every
     * kernel of the submission with its registers per thread, spills and
     * the occupancy its registers allow; a limit set here fails the fast
     * stage when a kernel breaks it (for labs whose lesson is registers). */
    struct {
        int report;        /* list the kernels in the fast stage */
        int max_registers; /* per thread; 0 = no limit */
        int no_spills;     /* 1: a kernel that spills registers fails */
    } resources;

    /* Libraries a submission may not use; any symbol of theirs in the
     * compiled file rejects it before it runs. */
    lab_forbidden forbidden[4];

    /* Extra libraries the runner links with (e.g. "-lcublas" for a vendor
     * comparison in lab.cu or a ladder); NULL-terminated. */
    const char *link_flags[4];

    /* Seconds before a stage's child is stopped; 0 takes the default. */
    struct { double work, right, sanitize, fast; } time_limit_s;

    lab_hints hints;
    /* What `make profile` measures; none: the lab's lesson is not in the
     * counters of its kernels (counters_none says why). */
    lab_counter counters[LAB_MAX_COUNTERS];
    const char *counters_none;
} lab_spec;

/* The CUDA half of a lab, defined in labs/NN-name/trusted/lab.cu. Each call gets the
 * device pointers in the order of lab_spec.buffers and launches on stream. */
typedef int (*lab_call_fn)(void *const *d_buffers, const int64_t *dims,
                           void *stream);

/* A named trusted call: a rung of a solution ladder (below) or a part of
 * the work (lab_device.parts). */
typedef struct {
    const char *name; /* "v3_sequential_addressing" */
    lab_call_fn call;
} lab_rung;

typedef struct {
    const lab_spec *spec;
    lab_call_fn submission; /* the student's entry point */
    lab_call_fn baseline;   /* the naive rung, for the speedup */
    lab_call_fn vendor;     /* optional: CUB/cuBLAS, for ROOF_VENDOR */
    /* ROOF_PARTS: trusted calls that each do one part of the work alone on
     * the timed call's buffers (lab 12: the whole input copied to the
     * device, the kernel over it, the whole output copied back). They are
     * timed in the same run as the submission, and the roof is the median
     * of the slowest: work whose parts overlap perfectly takes that long. */
    const lab_rung *parts;
    int n_parts;
} lab_device;

/* The part of a lab whose work is to read its inputs once (labs 04, 05):
 * the runner's trusted kernel reads n (at most READ_ALONE_MAX) device
 * buffers of the given sizes, in one launch on stream, and does nothing
 * else (grader/runner/read_alone.cu). A cudaError_t. */
#define READ_ALONE_MAX 4
int read_alone(const void *const *buffers, const size_t *bytes, int n, void *stream);

/* A solution ladder (labs/NN-name/solution/ladder.cu) defines LAB_LADDER: every
 * rung (lab_rung, above) of the lesson, slowest first, each called like the entry point's
 * binding. The file also defines the entry point itself (its best rung), so
 * it links like any submission. `make ladder LAB=NN` checks and times them
 * all in one run. */
typedef struct {
    int n;
    const lab_rung *rungs;
} lab_ladder;

/* "FP32", "FP16 tensor-core": the peak's name for reports. */
const char *lab_peak_name(lab_peak p);
size_t lab_elem_size(lab_elem e);
const char *lab_elem_name(lab_elem e);
/* IEEE binary16 bits to their exact value (every half is a double), and
 * a float to the nearest half (round to nearest, ties to even; overflow to
 * Inf, NaN stays NaN), for specs with ELEM_F16 inputs. */
double lab_f16_to_double(uint16_t h);
uint16_t lab_f16_from_float(float f);
/* Output buffer b's own tolerance, or the lab's. */
const lab_tolerance *lab_buffer_tolerance(const lab_spec *spec, int b);
/* An optional case (fast.recheck, fast.second.timed) the spec gives: one
 * whose dims are not all 0. */
int lab_case_given(const lab_case *c);
/* The fraction of its roof the fast stage requires: min_roofline, or 0
 * where there is no roof or the roof is only shown. */
double lab_roof_bar(const lab_spec *spec);
/* The work stage's case with the most elements in all its buffers (NULL
 * when it has none): the size the memory counts are taken at. */
const lab_case *lab_largest_work_case(const lab_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
