/* runner.h - the child process that calls the student's code.
 *
 * It is trusted code linked with the student's file: it sets up guarded,
 * poisoned device buffers, makes the calls the parent asked for, and writes
 * back what happened. It judges nothing; the parent does.
 */
#ifndef RUNNER_H
#define RUNNER_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "../protocol.h"

extern "C" const lab_device LAB_DEVICE;

/* One device buffer, with guard bytes on both sides in LAYOUT_GUARDED, and
 * a host image of the whole allocation (guards included), so a single copy
 * each way moves it. */
typedef struct {
    lab_role role;
    size_t elem_size, count, bytes; /* the buffer the student sees */
    size_t offset;                  /* guard + misalignment, in bytes */
    size_t alloc_bytes;
    uint32_t guard_word;     /* proto_guard_word of this call and buffer */
    int owned;               /* 0: another set's input, shared */
    unsigned char *host; /* image of the whole allocation */
    unsigned char *pristine; /* inputs: what was uploaded */
    unsigned char *device;   /* start of the allocation */
    /* lab_buffer.pinned_host: `device` is pinned host memory (cudaHostAlloc),
     * reached with memcpy; an output's data as it stood the moment the
     * call's stream was done is kept in `early` (buffers_snapshot). */
    int pinned;
    unsigned char *early;
    int early_taken;
} guarded_buffer;

typedef struct {
    int n;
    guarded_buffer buf[LAB_MAX_BUFFERS];
    void *ptr[LAB_MAX_BUFFERS]; /* what the entry point receives */
} buffer_set;

/* Response records: each is written at once, with one system call of the
 * runner's thread, so a crash loses nothing. */
void rsp_open(const char *path);
void rsp_write(proto_rec_kind kind, int call_index, const void *payload,
               size_t bytes, const void *extra, size_t extra_bytes);
[[noreturn]] void rsp_fatal(const char *fmt, ...);
/* A fatal record with this message, then exit with this code. */
[[noreturn]] void rsp_fatal_code(int code, const char *message);

/* Abort the run through REC_FATAL when the harness's own call fails. */
#define RUNNER_CHECK(call)                                                    \
    do {                                                                      \
        cudaError_t runner_err_ = (call);                                     \
        if (runner_err_ != cudaSuccess)                                       \
            rsp_fatal("%s failed: %s (%s)", #call,                            \
                      cudaGetErrorName(runner_err_),                          \
                      cudaGetErrorString(runner_err_));                       \
    } while (0)

/* lockdown.cu: close the sandbox around this process (seccomp) once CUDA
 * is up and before any student code runs. A call the sandbox stops ends
 * the run with a REC_FATAL whose message starts with LOCKDOWN_FATAL and
 * exit code RUNNER_EXIT_SANDBOX. Returns NULL, or why it could not.
 * lockdown_fence: the fenced thread's own, stricter filter (fence.cu). */
const char *lockdown(int response_fd);
const char *lockdown_fence(int watched_fd);
enum { RUNNER_EXIT_SANDBOX = 72, RUNNER_EXIT_FATAL = 71 };

/* fence.cu: the one thread that runs lab functions, graded or trusted.
 * fence_start starts it, before lockdown (it opens the file through which
 * the runner watches that thread); fence_open, after lockdown, closes its
 * filter (only when with_filter, which a profiler run by hand turns off);
 * fence_run runs job(arg) there and waits until the thread is idle again:
 * 0, or the exit code of a failure on that thread, with its message.
 * fence_fail, on that thread only, hands a failure over and stops;
 * fence_here tells whether this is that thread. */
const char *fence_start(void);
const char *fence_open(int with_filter);
int fence_run(void (*job)(void *), void *arg, char *message, size_t size);
[[noreturn]] void fence_fail(int code, const char *message);
int fence_here(void);

void buffers_create(buffer_set *set, const proto_call *call, proto_layout layout);
void buffers_fill(buffer_set *set, const proto_call *call);
/* The same with the inputs it generated last (a copy it keeps): cheaper
 * than generating them again, for the next trusted call on the same
 * inputs (a ladder's rungs). */
void buffers_refill(buffer_set *set, const proto_call *call);
/* The same as create and fill, in two steps: first in host memory only
 * (before CUDA starts: no GPU is touched), then on the device. With
 * `inputs`, the set has outputs and scratch of its own and that set's
 * inputs (which must outlive it, and be on the device first): two calls on
 * the same inputs never see each other's answers. */
void buffers_prepare(buffer_set *set, const buffer_set *inputs, const proto_call *call);
void buffers_to_device(buffer_set *set, const buffer_set *inputs);
void buffers_destroy(buffer_set *set);
/* Copy a buffer back and note guard damage and changed input elements;
 * for a pinned output whose snapshot was taken, the elements that changed
 * since, and the snapshot is what the host image then holds. */
void buffers_inspect(guarded_buffer *g, proto_buffer_report *r);
/* Keep what every pinned host output of the set holds now (call.cu takes
 * it the moment the call's stream is done). */
void buffers_snapshot(buffer_set *set);

/* Milliseconds on the monotonic clock (call.cu). */
double runner_now_ms(void);

/* call.cu: one call of a lab function, prepared the same way whether it is
 * checked or timed, so that the code called cannot tell which it is:
 * outputs poisoned, the device-wide settings a call may change put back,
 * persisting L2 lines released, the L2 flushed, the legacy default stream
 * held until the call's stream is done, events around the call. */
typedef struct {
    cudaStream_t stream;
    /* Device-wide settings as they were before any call (call.cu). */
    int has_cache_config, has_l2_fetch;
    cudaFuncCache cache_config;
    size_t l2_fetch_granularity;
    cudaEvent_t start, stop;
    void *flush;
    size_t flush_bytes;
    int l2_bytes;
    unsigned rounds; /* calls made: the flush's byte changes each time */
    /* Set by call_and_report for one call: its pinned host outputs are
     * read the moment the call's stream is done (buffers_snapshot). */
    buffer_set *snapshot;
    /* The gate that keeps every SM busy while such a call is queued
     * (call.cu): its stream, and the number of the last call that
     * returned, in mapped host memory the gate reads. */
    cudaStream_t gate_stream;
    unsigned *returned;
    int gate_blocks;
} call_env;

typedef struct {
    cudaError_t entry, sync, device; /* returned, stream sync, device sync */
    float ms;                        /* between the events */
    /* How long the rest of the GPU still ran once the stream was done: the
     * events only see that stream, so anything still running elsewhere was
     * hidden from them. */
    double straggle_ms;
} call_outcome;

void call_env_open(call_env *env, cudaStream_t stream);
void call_env_close(call_env *env);
/* poison: the set whose outputs are poisoned first (NULL: none). */
void call_prepared(call_env *env, const buffer_set *poison, lab_call_fn fn,
                   void *const *ptr, const int64_t *dims, call_outcome *out);

/* Make one call of fn (the submission, or a ladder rung) on buffers already
 * filled, then report it (REC_BEGIN before, REC_RESULT after). Returns 0 if
 * the context broke. */
int call_and_report(call_env *env, buffer_set *set, const proto_call *call, int index,
                    lab_call_fn fn);

/* counts.cu: one call of the submission with the CPU emulation's memory
 * counters on, counting at most max_blocks blocks and max_accesses loads
 * and stores of each launch, reported as REC_COUNTS (nothing on a GPU, or
 * when it fails). */
void count_and_report(call_env *env, const proto_call *call, int max_blocks, int max_accesses);

/* Poison every output of the set again (on the stream, not waited for). */
void buffers_poison_outputs(const buffer_set *set, cudaStream_t stream);

/* verify.cu: what the timed calls computed (protocol.h, proto_timed_check). */
typedef struct verifier verifier;
verifier *verify_open(const buffer_set *inputs, double agreement, uint64_t key,
                      cudaStream_t stream);
/* After the baseline's sample: fingerprint the inputs, and mask the
 * baseline's outputs and scratch with a key of this run's until they are
 * compared. */
void verify_after_baseline(verifier *v, const buffer_set *baseline);
/* After the submission's sample: its outputs against the baseline's, and
 * the inputs against the fingerprint. */
void verify_after_submission(verifier *v, const buffer_set *submission,
                             const buffer_set *baseline, int round);
/* 1 once a timed call was wrong or changed the inputs. */
int verify_failed(const verifier *v);
/* What has been checked so far. */
proto_timed_check verify_counts(const verifier *v);
void verify_close(verifier *v, proto_timed_check *out);

/* The trusted kernels' keyed hash of one word (a SplitMix64-style
 * finaliser): verify.cu's masks and fingerprints, shuffle.cu's orders. */
__device__ inline unsigned long long runner_mix64(unsigned long long x)
{
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 32);
}

/* Exchange the k-th pair of elements (grader/swaps.h, seed) in every input
 * buffer in pinned host memory, and in its saved copy; inputs in device
 * memory are rearranged whole instead (shuffle_round). */
void buffers_swap(buffer_set *set, uint64_t seed, uint64_t k);

/* shuffle.cu: before every timed round, every input in device memory
 * rebuilt from the copy taken when timing began (shuffle_open), each
 * record in a new place drawn from the seed and the round. The inputs are
 * left rearranged: whatever uses them next fills them afresh. */
typedef struct {
    void *origin[LAB_MAX_BUFFERS];
} shuffled_inputs;
void shuffle_open(shuffled_inputs *s, const buffer_set *inputs);
void shuffle_round(const shuffled_inputs *s, buffer_set *inputs, uint64_t seed, uint64_t round,
                   cudaStream_t stream);
void shuffle_close(shuffled_inputs *s);

/* The k-th round's spikes (lab_spec.fast.spike) on the device: elements
 * at[0] and at[1] of every float input, drawn from the seed. The saved
 * copy keeps the real values; buffers_unspike uploads them again. at[0] ==
 * at[1] means nothing was spiked. */
void buffers_spike(buffer_set *set, double spike, uint64_t seed, uint64_t k, size_t at[2]);
void buffers_unspike(buffer_set *set, const size_t at[2]);

typedef struct {
    buffer_set mine, baseline, vendor;
    int with_vendor;
} timing_buffers;
/* Before CUDA starts: the timed call's buffers in host memory, inputs
 * generated (the slow part), so that a runner waiting for the GPU has
 * done it already. */
void timing_prepare(timing_buffers *tb, const proto_call *calls);
/* Time the items of the fast stage on calls[0], checking every timed call
 * of the submission, then make the two reported calls after timing:
 * calls[1] on fresh inputs, calls[2] on the same buffers with a few input
 * elements exchanged (call indices 1 and 2). */
void run_timing(const proto_request *req, const proto_call *calls, call_env *env,
                timing_buffers *tb);

/* A ladder's buffers: the timed call's (calls[0]) and the check's
 * (calls[1], the lab's smaller re-check size). */
typedef struct {
    buffer_set timed, check;
} ladder_buffers;
/* Before CUDA starts: both sets in host memory, inputs generated, as
 * timing_prepare does. */
void ladder_prepare(ladder_buffers *lb, const proto_call *calls);
/* Check every rung on calls[1], each on the same inputs, then time them
 * all (and a copy) on calls[0], with the buffers ladder_prepare made. */
void run_ladder(const proto_request *req, const lab_ladder *ladder, const proto_call *calls,
                call_env *env, ladder_buffers *lb);

#endif
