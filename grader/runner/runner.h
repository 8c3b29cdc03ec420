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

/* One device buffer with guard bytes on both sides and a host image of the
 * whole allocation (guards included), so a single copy each way moves it. */
typedef struct {
    lab_role role;
    size_t elem_size, count, bytes; /* the buffer the student sees */
    size_t offset;                  /* guard + misalignment, in bytes */
    size_t alloc_bytes;
    unsigned char *host; /* image of the whole allocation */
    unsigned char *pristine; /* inputs: what was uploaded */
    unsigned char *device;   /* start of the allocation */
} guarded_buffer;

typedef struct {
    int n;
    guarded_buffer buf[LAB_MAX_BUFFERS];
    void *ptr[LAB_MAX_BUFFERS]; /* what the entry point receives */
} buffer_set;

/* Response records: each is flushed at once so a crash loses nothing. */
void rsp_open(const char *path);
void rsp_write(proto_rec_kind kind, int call_index, const void *payload,
               size_t bytes, const void *extra, size_t extra_bytes);
[[noreturn]] void rsp_fatal(const char *fmt, ...);

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
 * exit code RUNNER_EXIT_SANDBOX. Returns NULL, or why it could not. */
const char *lockdown(FILE *response);
enum { RUNNER_EXIT_SANDBOX = 72 };

void buffers_create(buffer_set *set, const proto_call *call);
void buffers_fill(buffer_set *set, const proto_call *call);
void buffers_destroy(buffer_set *set);

/* Make one call of fn (the submission, or a ladder rung) on buffers already
 * filled, then report it (REC_BEGIN before, REC_RESULT after). Returns 0 if
 * the context broke. */
int call_and_report(buffer_set *set, const proto_call *call, int index,
                    cudaStream_t stream, lab_call_fn fn);

/* Exchange the k-th pair of elements (grader/swaps.h, seed) in every input
 * buffer, on the device and in the saved copy. */
void buffers_swap(buffer_set *set, uint64_t seed, uint64_t k);

/* Time the items of the fast stage on calls[0], then make the two reported
 * calls after timing: calls[1] on fresh inputs, calls[2] on the same
 * buffers with a few input elements exchanged (call indices 1 and 2). */
void run_timing(const proto_request *req, const proto_call *calls, cudaStream_t stream);

/* Check every rung on `check`, then time them all (and a copy) on `timed`. */
void run_ladder(const proto_request *req, const lab_ladder *ladder,
                const proto_call *timed, const proto_call *check, cudaStream_t stream);

#endif
