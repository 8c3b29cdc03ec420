/* protocol.h - what the trusted parent and the runner child say to each other.
 *
 * The parent (grader/grade, plain C, never loads student code) writes a
 * request file; the runner (trusted harness linked with the student's file)
 * executes it and appends records to a response file, flushing each one, so
 * that a crash or a hang half-way still tells the parent which case was
 * running. All verdicts are computed by the parent from these records: the
 * runner only reports what happened and what the buffers held.
 *
 * Both sides are built by the same host compiler ABI on the same machine, so
 * records are plain structs written with fwrite.
 */
#ifndef PROTOCOL_H
#define PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "lab_spec.h"
#include "rng.h"
#include "swaps.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PROTO_MAGIC = 0x4c414231u, /* "LAB1" */
    /* 8: memory counts in the emulation; 7: a timing may stop on a sure
     * pass; 6: late writes, timed parts; 5: samples sent as measured; 4: a
     * timing may stop once decided */
    PROTO_VERSION = 9,
    PROTO_NAME_LEN = 64
};

/* MODE_LADDER: every rung of LAB_LADDER is checked on calls[1] (reported
 * with call_index = rung), then all rungs and a copy are timed on calls[0].
 * MODE_COUNTS (the CPU emulation): calls[0] made once with the memory
 * counters on (count_blocks, count_accesses), reported as REC_COUNTS. */
typedef enum { MODE_CASES = 1, MODE_TIMING = 2, MODE_LADDER = 3, MODE_COUNTS = 4 } proto_mode;

/* Outputs are filled with these before every call. The float ones are
 * signalling NaNs: any arithmetic turns them into quiet NaNs, so an output
 * that still holds these exact bits was never written. */
#define PROTO_POISON_F32 0x7fbadbadu
#define PROTO_POISON_F64 0x7ff4badbadbadbadull
#define PROTO_POISON_I32 0x7badbad7u

/* The poison of one element of this type, in the low bytes of the word
 * (4 or 8 of them; both sides are little-endian hosts of one ABI). */
static inline uint64_t proto_poison(lab_elem e)
{
    return e == ELEM_F64 ? PROTO_POISON_F64 : e == ELEM_F32 ? PROTO_POISON_F32 : PROTO_POISON_I32;
}
/* Guard bytes around every buffer in the right stage's plain run. Each
 * buffer of each call gets its own guard word (proto_guard_word), so a
 * kernel that copies the guard it read past one buffer into the guard past
 * another still changes it. Every word is a signalling NaN as a float and
 * a large negative number as an int, so a kernel that reads past its
 * buffer gets a loud wrong answer. */
enum { PROTO_GUARD_BYTES = 16384 };

/* How the buffers of a run are laid out. Guarded: guard bytes on both
 * sides, inside the allocation, for the stray-write check. Exact: each
 * allocation holds the buffer and nothing else (beyond the misalignment
 * gap in front), so compute-sanitizer reports one element read or written
 * past the end. */
typedef enum { LAYOUT_GUARDED = 0, LAYOUT_EXACT = 1 } proto_layout;

static inline uint32_t proto_guard_word(uint64_t call_seed, int b)
{
    uint32_t r = (uint32_t)rng_derive(call_seed, 0x6a09e667u + (uint64_t)b);
    /* sign and exponent all ones, quiet bit clear, mantissa never 0 */
    return 0xff800000u | (r & 0x003ffffeu) | 1u;
}

/* The guard's byte at this offset from the start of the allocation. */
static inline unsigned char proto_guard_byte(uint32_t word, size_t offset)
{
    return (unsigned char)(word >> (8 * (offset & 3)));
}

/* The most calls one request holds (the smaller-case search's list). */
enum { PROTO_MAX_CALLS = 4 * LAB_MAX_CASES };

/* One call to make: the case, the seed of its inputs, the byte offset (a
 * multiple of the element size, below 16) added to each buffer's pointer,
 * and how many pairs of input elements to exchange after generating them
 * (grader/swaps.h; 0 for none). */
typedef struct {
    lab_case c;
    uint64_t seed;
    int32_t misalign_bytes[LAB_MAX_BUFFERS];
    uint64_t swap_seed;
    int32_t n_swaps;
} proto_call;

/* Input buffer b of a call, made the same way by the runner (before the
 * upload) and the judge (before its CPU reference): generated from the
 * call's seed, then the call's pairs exchanged. */
static inline void proto_make_input(const lab_spec *spec, int b, const proto_call *call,
                                    void *data, size_t count)
{
    spec->generate(b, &call->c, rng_derive(call->seed, (uint64_t)b), data, count);
    swaps_apply((unsigned char *)data, count, lab_elem_size(spec->buffers[b].elem),
                spec->buffers[b].fields, call->swap_seed, b, call->n_swaps);
}

typedef struct {
    uint32_t magic, version;
    int32_t mode;
    /* MODE_CASES: the calls that follow. MODE_TIMING: 3, the timed call, the
     * re-check on fresh inputs and the same with a few elements exchanged
     * (make_timing_calls). MODE_LADDER: 2, the timed call and the check. */
    int32_t n_calls;
    char lab_id[PROTO_NAME_LEN];
    /* MODE_TIMING and MODE_LADDER only */
    double max_seconds;    /* stop sampling after this long */
    int32_t min_rounds, max_rounds;
    double target_rse;     /* relative standard error of each median */
    /* MODE_CASES: the calls before this index have guarded buffers
     * (LAYOUT_GUARDED), the others exact ones (LAYOUT_EXACT). */
    int32_t exact_from;
    int32_t pad;
    /* MODE_TIMING: how far a timed float output may stray from the
     * baseline's answer on the same inputs, relative to the element's size
     * plus the output's root mean square (grader/fast.c owns the value). */
    double agreement;
    /* MODE_COUNTS: the memory accesses of at most count_blocks blocks and
     * count_accesses loads and stores of each launch are counted, and no
     * block runs past those (the outputs are not judged). Information for
     * the student, never part of a verdict: graded code shares the
     * runner's memory. */
    int32_t count_blocks, count_accesses;
} proto_request;

/* Record kinds in the response file. */
typedef enum {
    REC_BEGIN = 1,  /* a call is about to run (written before the call) */
    REC_RESULT = 2, /* a call finished; outputs follow */
    REC_TIMING = 3, /* samples follow */
    REC_FATAL = 4,  /* the harness itself could not go on */
    REC_SAMPLE = 5, /* one timed sample, sent as soon as it was measured */
    REC_COUNTS = 6  /* MODE_COUNTS: the memory counts of calls[0] */
} proto_rec_kind;

typedef struct {
    uint32_t magic;
    int32_t kind;
    int32_t call_index;
    int32_t pad;
} proto_rec_head;

/* Where a buffer was touched that it should not have been. -1 = nowhere. */
typedef struct {
    int64_t guard_before; /* first byte written in the guard before it */
    int64_t guard_after;  /* first byte written in the guard after it  */
    int64_t changed_first;   /* inputs: first element changed by the call */
    int64_t changed_count;
    /* Pinned host outputs (lab_buffer.pinned_host): elements that changed
     * after the call's stream was done; -1 and 0 when none. */
    int64_t late_first;
    int64_t late_count;
} proto_buffer_report;

typedef struct {
    /* cudaError_t values and their names: what the entry point returned, what
     * synchronizing the stream and the device returned, and the error that
     * cudaGetLastError() still held afterwards. */
    int32_t entry_status, sync_status, last_status;
    int32_t sticky; /* the context is broken; no later call can run */
    char entry_name[PROTO_NAME_LEN];
    char sync_name[PROTO_NAME_LEN];
    char last_name[PROTO_NAME_LEN];
    char sync_text[2 * PROTO_NAME_LEN];
    proto_buffer_report buf[LAB_MAX_BUFFERS];
    int32_t outputs_follow; /* raw output elements follow, buffer order */
    int32_t pad;
} proto_result;

enum { PROTO_MAX_ITEMS = 16 };

/* Timing: n_items series of n_rounds samples each follow (item-major). */
/* What the timed calls of the submission computed, measured by trusted
 * kernels after every sample (grader/runner/verify.cu): each output
 * against the baseline's output for the same inputs in the same round,
 * and the inputs against what they held before the call. */
typedef struct {
    int32_t rounds_checked;
    int32_t rounds_wrong;         /* some element unwritten or not agreeing */
    int32_t first_wrong_round;    /* -1 when none */
    int32_t rounds_inputs_changed;
    int32_t first_changed_round;  /* -1 when none */
    int32_t first_buffer;         /* the first bad element of first_wrong_round */
    int32_t first_unwritten;      /* 1: that element still held the poison */
    int32_t pad;
    int64_t first_index;
    int64_t unwritten;            /* in first_wrong_round */
    int64_t disagreeing;          /* in first_wrong_round, written but wrong */
    double got, expected;         /* the first bad element, as doubles */
    double worst_ratio;           /* largest |got - expected| / (|expected| + rms), any round */
} proto_timed_check;

/* Why a timing stopped before its medians converged: more samples could
 * not change the verdict (fast_rules.h). */
typedef enum {
    DECIDED_NOT = 0,
    DECIDED_WRONG,      /* a timed call was wrong or changed the inputs */
    DECIDED_FAR_BELOW,  /* far below a bar */
    DECIDED_IMPOSSIBLE, /* far beyond what the GPU can do */
    DECIDED_STRAGGLE,   /* work left running far longer than allowed */
    DECIDED_PASS,       /* every rule met with room to spare (fast_rules.h) */
} proto_decided;

typedef struct {
    int32_t n_items, n_rounds, converged;
    int32_t decided; /* proto_decided */
    char item_names[PROTO_MAX_ITEMS][PROTO_NAME_LEN];
    double copy_bytes;   /* bytes moved (read + write) by one copy sample */
    double warmup_ms;
    double sampling_ms;
    int64_t l2_bytes;
    int64_t flush_bytes;
    /* Per item: the median time the rest of the GPU still needed once the
     * grader's stream had finished a sample. Near zero unless the item
     * launched work on a stream of its own that the events cannot see. */
    double straggle_ms[PROTO_MAX_ITEMS];
    /* MODE_TIMING: item 1 (the submission), checked after every sample. */
    proto_timed_check check;
    /* The device's peak FP32 rate: SMs x clock x 2 FLOP per FMA x FP32
     * lanes per SM, in FLOP/s; 0 when unknown. */
    double peak_flops;
    /* The memory's theoretical bandwidth: memory clock x bus width x 2
     * (double data rate), in bytes/s; 0 when unknown. */
    double peak_dram;
    /* The lab's trusted parts (lab_device.parts), items first_part to
     * first_part + n_parts - 1; n_parts 0 when it has none. */
    int32_t first_part, n_parts;
} proto_timing;

/* REC_SAMPLE: one sample of a timing, written the moment it is measured
 * (for the submission, once its outputs have been checked), before any
 * graded code runs again. The REC_TIMING summary at the end must agree
 * with these: graded code shares the runner's memory, and a sample it
 * rewrote there after it was sent is caught (grader/SECURITY.md). */
typedef struct {
    int32_t item, round;
    double ms, straggle_ms;
    int32_t checked;        /* item 1 of MODE_TIMING: its outputs were checked */
    int32_t wrong;          /* ... and some element was unwritten or disagreed */
    int32_t inputs_changed; /* ... or the call changed its inputs */
    int32_t pad;
} proto_sample;

/* REC_COUNTS: each kernel the counted call launched, as the CPU emulation
 * counts what a GPU's counters would (common/emu/include/emu/emu_counters.h):
 * per kind of access (global load, global store, shared load, shared
 * store), the warp requests, their units (32-byte sectors for global
 * memory, passes through the banks for shared) and the bytes the lanes
 * asked for. */
enum { PROTO_MAX_KERNELS = 8, PROTO_ACCESS_KINDS = 4 };
typedef struct {
    char name[PROTO_NAME_LEN];
    uint64_t launches, blocks_run;
    uint64_t requests[PROTO_ACCESS_KINDS], units[PROTO_ACCESS_KINDS], bytes[PROTO_ACCESS_KINDS];
} proto_kernel_count;

typedef struct {
    int32_t n_kernels;    /* at most PROTO_MAX_KERNELS of them, by name */
    int32_t more_kernels; /* kernels beyond those */
    proto_kernel_count kernel[PROTO_MAX_KERNELS];
} proto_counts;

typedef struct {
    char message[512];
} proto_fatal;

/* A fatal record written when the runner's sandbox stopped a system call
 * starts with LOCKDOWN_FATAL, and one for any other rule graded code broke
 * inside the runner with LOCKDOWN_YOUR_CODE; reports drop the LOCKDOWN_TAG. */
#define LOCKDOWN_TAG "sandbox: "
#define LOCKDOWN_YOUR_CODE LOCKDOWN_TAG "your code "
#define LOCKDOWN_FATAL LOCKDOWN_YOUR_CODE "made the system call "

#ifdef __cplusplus
}
#endif

#endif
