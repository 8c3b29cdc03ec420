/* main.cu - the runner: runner REQUEST RESPONSE
 *
 * Reads what the parent asks for, makes the calls, appends the records.
 * Whatever the student's code prints goes to stdout/stderr, which the parent
 * keeps in a log; the verdict never depends on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

/* Defined only when the runner is linked with a solution ladder. */
extern "C" const lab_ladder LAB_LADDER __attribute__((weak));

/* Raw descriptors, not stdio: a FILE's buffer and descriptor sit in
 * memory graded code can reach, and the C library flushes them on its own. */
static int rsp_fd = -1;

void rsp_open(const char *path)
{
    rsp_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (rsp_fd < 0) {
        perror(path);
        _exit(70);
    }
}

static int write_all(const void *data, size_t bytes)
{
    const char *p = (const char *)data;
    while (bytes) {
        ssize_t n = write(rsp_fd, p, bytes);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        bytes -= (size_t)n;
    }
    return 1;
}

void rsp_write(proto_rec_kind kind, int call_index, const void *payload,
               size_t bytes, const void *extra, size_t extra_bytes)
{
    proto_rec_head h = {PROTO_MAGIC, (int32_t)kind, call_index, 0};
    if (!write_all(&h, sizeof h) || !write_all(payload, bytes) || !write_all(extra, extra_bytes)) {
        perror("runner: writing the response");
        _exit(70);
    }
}

/* Ends the run at once: no exit handler runs (graded code may have
 * registered one with atexit), and nothing is left buffered. */
[[noreturn]] static void end_run(int code) { _exit(code); }

void rsp_fatal(const char *fmt, ...)
{
    char message[sizeof(proto_fatal)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    if (fence_here()) fence_fail(RUNNER_EXIT_FATAL, message);
    rsp_fatal_code(RUNNER_EXIT_FATAL, message);
}

void rsp_fatal_code(int code, const char *message)
{
    proto_fatal f;
    memset(&f, 0, sizeof f);
    snprintf(f.message, sizeof f.message, "%s", message);
    dprintf(STDERR_FILENO, "runner: %s\n", f.message);
    rsp_write(REC_FATAL, -1, &f, sizeof f, NULL, 0);
    end_run(code);
}

static void read_request(const char *path, proto_request *req,
                         proto_call **calls)
{
    FILE *f = fopen(path, "rb");
    if (!f) rsp_fatal("cannot open the request %s", path);
    if (fread(req, sizeof *req, 1, f) != 1 || req->magic != PROTO_MAGIC ||
        req->version != PROTO_VERSION || req->n_calls < 0 ||
        req->n_calls > PROTO_MAX_CALLS ||
        req->exact_from < 0 || req->exact_from > req->n_calls ||
        (req->mode == MODE_COUNTS && (req->n_calls != 1 || req->count_blocks < 1 ||
                                      req->count_blocks > 1024 || req->count_accesses < 0)))
        rsp_fatal("malformed request %s", path);
    if (strcmp(req->lab_id, LAB_DEVICE.spec->id) != 0)
        rsp_fatal("request is for lab %s but this runner is %s", req->lab_id,
                  LAB_DEVICE.spec->id);
    *calls = (proto_call *)calloc((size_t)req->n_calls + 1, sizeof **calls);
    if (req->n_calls &&
        fread(*calls, sizeof **calls, (size_t)req->n_calls, f) != (size_t)req->n_calls)
        rsp_fatal("truncated request %s", path);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s REQUEST RESPONSE (run by the grader)\n", argv[0]);
        return 64;
    }
    /* What graded code prints reaches the log at once: the run ends with
     * _exit, which flushes nothing. */
    setvbuf(stdout, NULL, _IONBF, 0);
    rsp_open(argv[2]);
    proto_request req;
    proto_call *calls;
    read_request(argv[1], &req, &calls);

    if (req.mode == MODE_TIMING || req.mode == MODE_LADDER) {
        int want = req.mode == MODE_TIMING ? 3 : 2;
        if (req.n_calls != want) rsp_fatal("this mode needs %d calls, got %d", want, req.n_calls);
    }
    /* The fast stage and a ladder: make the inputs while another grading
     * may still be timing, touching no GPU, say so (one byte back on
     * stdin, a socket), then wait for the parent's word (one byte on
     * stdin, or its end) that the GPU is ours. Run by hand, give it
     * </dev/null. */
    timing_buffers prepared;
    ladder_buffers ladder;
    if (req.mode == MODE_TIMING || req.mode == MODE_LADDER) {
        if (req.mode == MODE_TIMING)
            timing_prepare(&prepared, calls);
        else
            ladder_prepare(&ladder, calls);
        char ready = 'r', go;
        if (write(STDIN_FILENO, &ready, 1) != 1) { /* not a socket: run by hand */
        }
        while (read(STDIN_FILENO, &go, 1) < 0 && errno == EINTR) {
        }
    }

    /* A non-blocking stream: work launched on the legacy default stream is
     * not silently ordered with it, so the timing sees what the entry point
     * really put on the stream it was given. */
    cudaStream_t stream;
    RUNNER_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    call_env env;
    call_env_open(&env, stream);
    /* Everything the runner itself needs from the system is open now (the
     * context, its helper threads, the response file): close the sandbox
     * before the first student instruction runs. */
    RUNNER_CHECK(cudaDeviceSynchronize());
    /* Run by hand under a profiler, which opens files and sockets of its
     * own: CUDALAB_PROFILING=1 leaves the sandbox open. The grader never
     * passes it: its children start with a clean environment
     * (ISO_KEPT_ENVIRONMENT in grader/isolate.c). */
    const char *profiling = getenv("CUDALAB_PROFILING");
    int sandboxed = !(profiling && !strcmp(profiling, "1"));
    if (!sandboxed)
        dprintf(STDERR_FILENO, "runner: CUDALAB_PROFILING=1: no sandbox, for a profiler run by "
                               "hand (the grader never runs it so)\n");
    const char *why = fence_start();
    if (!why && sandboxed) why = lockdown(rsp_fd);
    if (!why) why = fence_open(sandboxed);
    if (why) rsp_fatal("the grader's sandbox could not be closed: %s", why);

    if (req.mode == MODE_TIMING || req.mode == MODE_LADDER) {
        if (req.mode == MODE_TIMING)
            run_timing(&req, calls, &env, &prepared);
        else if (&LAB_LADDER == NULL)
            rsp_fatal("this file defines no LAB_LADDER");
        else
            run_ladder(&req, &LAB_LADDER, calls, &env, &ladder);
    } else if (req.mode == MODE_COUNTS) {
        count_and_report(&env, &calls[0], req.count_blocks, req.count_accesses);
    } else {
        for (int i = 0; i < req.n_calls; i++) {
            buffer_set set;
            buffers_create(&set, &calls[i], i < req.exact_from ? LAYOUT_GUARDED : LAYOUT_EXACT);
            buffers_fill(&set, &calls[i]);
            int context_ok = call_and_report(&env, &set, &calls[i], i, LAB_DEVICE.submission);
            if (!context_ok) break; /* a sticky error: nothing more can run */
            buffers_destroy(&set);
        }
    }
    call_env_close(&env);
    free(calls);
    end_run(0);
}
