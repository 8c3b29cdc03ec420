/* call.cu - one call of a lab function, made the same way whether the
 * grader checks its answer or times it.
 *
 * A submission that could tell a timed call from a checked one could do
 * less work when timed. So every call, of every stage, is prepared by the
 * same steps, on the same kind of stream, with events around it: the code
 * called sees the same state of its stream, of the default stream and of
 * the cache either way. (Every timed call is checked as well: verify.cu.)
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"

double runner_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

#ifndef CUDA_EMU
/* The gate, for a checked call with outputs in pinned host memory (lab 12).
 *
 * Such a call may queue its work on streams of its own, and the grader
 * reads its outputs the moment the stream it was given is done
 * (buffers_snapshot): work left on a stream the call never joined to that
 * stream shows as outputs written later. On a quick GPU that work has
 * often finished anyway by the time the call returns, and the bug would
 * go unseen. So before the call the gate fills every SM of the GPU with
 * blocks that wait (all of each SM's thread slots, on the stream of the
 * highest priority), and no kernel the call queues can start until the
 * call has returned and GATE_AFTER_NS more have passed: long enough for
 * the grader to see its stream done and read the outputs when nothing was
 * joined. Work that was joined is merely that much later. A call that
 * waits for its own work inside (a stream or device synchronisation)
 * waits for the gate too, which gives up after GATE_MOST_NS. */
enum { GATE_THREADS = 1024 };
static const unsigned long long GATE_AFTER_NS = 5000000, GATE_MOST_NS = 50000000;

__device__ static unsigned long long gate_clock(void)
{
    unsigned long long ns;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
    return ns;
}

__global__ static void gate(const volatile unsigned *returned, unsigned number)
{
    if (threadIdx.x == 0) {
        unsigned long long start = gate_clock(), seen = 0;
        for (;;) {
            unsigned long long now = gate_clock();
            if (!seen && *returned == number) seen = now;
            if ((seen && now - seen >= GATE_AFTER_NS) || now - start >= GATE_MOST_NS) break;
        }
    }
    __syncthreads();
}
#endif

void call_env_open(call_env *env, cudaStream_t stream)
{
    memset(env, 0, sizeof *env);
    env->stream = stream;
#ifndef CUDA_EMU
    /* The driver starts its thread for host functions on the first one
     * (call.cu's hold is one): start it now, before the fence (fence.cu)
     * forbids new threads. */
    RUNNER_CHECK(cudaLaunchHostFunc(stream, [](void *) {}, NULL));
    RUNNER_CHECK(cudaStreamSynchronize(stream));
    /* Likewise the stream-ordered allocator (cudaMallocAsync), whose pool
     * the driver sets up on first use with calls the sandbox refuses. */
    void *pooled = NULL;
    if (cudaMallocAsync(&pooled, 1 << 20, stream) == cudaSuccess) cudaFreeAsync(pooled, stream);
    cudaGetLastError();
    RUNNER_CHECK(cudaStreamSynchronize(stream));
    /* The gate (above): the highest priority, so that its blocks take the
     * SMs before any kernel the call queues on a stream of its own. */
    int least = 0, greatest = 0, sms = 0, threads = 0;
    RUNNER_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    RUNNER_CHECK(cudaStreamCreateWithPriority(&env->gate_stream, cudaStreamNonBlocking, greatest));
    RUNNER_CHECK(cudaHostAlloc((void **)&env->returned, sizeof *env->returned, cudaHostAllocMapped));
    *env->returned = 0;
    RUNNER_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    RUNNER_CHECK(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
    env->gate_blocks = sms * (threads / GATE_THREADS);
#endif
    RUNNER_CHECK(cudaEventCreate(&env->start));
    RUNNER_CHECK(cudaEventCreate(&env->stop));
    RUNNER_CHECK(cudaDeviceGetAttribute(&env->l2_bytes, cudaDevAttrL2CacheSize, 0));
    /* Twice the L2 (at least 8 MiB) written over evicts what a call left. */
    env->flush_bytes = 2 * (size_t)(env->l2_bytes > (4 << 20) ? env->l2_bytes : (4 << 20));
    RUNNER_CHECK(cudaMalloc(&env->flush, env->flush_bytes));
    /* A setting this device cannot report is not put back either. */
    env->has_cache_config = cudaDeviceGetCacheConfig(&env->cache_config) == cudaSuccess;
    env->has_l2_fetch = cudaDeviceGetLimit(&env->l2_fetch_granularity,
                                           cudaLimitMaxL2FetchGranularity) == cudaSuccess;
    cudaGetLastError();
}

void call_env_close(call_env *env)
{
    cudaEventDestroy(env->start);
    cudaEventDestroy(env->stop);
    cudaFree(env->flush);
#ifndef CUDA_EMU
    cudaStreamDestroy(env->gate_stream);
    cudaFreeHost(env->returned);
#endif
}

/* Holding back the legacy default stream.
 *
 * The grader's stream is non-blocking, so work a submission puts on the
 * default stream (a cudaMemset, a launch without a stream) is not ordered
 * with the work on its own stream. On an idle GPU a small memset queued
 * first almost always runs first anyway, and the bug would go unseen. During
 * every call the runner therefore parks the default stream (a host function
 * that waits; it holds no GPU resources), as a busy program might, until the
 * call's own stream is done: work put there runs late, and a result that
 * depended on it comes out wrong. The hold gives up once the runner's
 * thread has run a few milliseconds inside the call since it began, so
 * code that synchronises the whole device inside the call (spinning there)
 * is slowed, never stuck; and after a tenth of a second whatever that
 * thread did. Only inside the call: once the entry point has returned, the
 * thread spins in the runner's own wait for the call's stream, which on a
 * GPU shared with other gradings waits for time slices (lab 06's
 * memset_on_default_stream passed work in the e2e part on an H100, and
 * failed in every grading alone or beside processes that only made
 * contexts). Its running time, not the wall clock: on a busy host (a class graded
 * in parallel) the runner's thread may wait milliseconds for a CPU between
 * queueing the hold and launching the call's kernels, and a hold on the
 * wall clock gave up before the call ran: a memset on the default stream
 * then came first (lab 05's blocking_memset_races_kernel passed work on an
 * H100 beside sixteen compilers). Correct code never waits for it. The CPU
 * emulation runs every stream in order, so there is nothing to hold. (First
 * written for lab 05, whose result must be zeroed on the right stream.)
 *
 * The driver's callback thread may wake up only after a short call is done
 * (0.1 ms on some hosts), and on a busy host (a class graded in parallel)
 * it may lose the CPU while it spins and see the release a millisecond
 * late. The clock for work left running on another stream (the straggle)
 * therefore starts once the hold has returned, so that neither delay is
 * counted as the submission's: a long call (the naive baseline) outlasts
 * its hold and never pays them, and the straggle rule compares the
 * submission with such calls. The call itself does not wait for
 * the hold: it is queued behind the cache flush as before, so its start
 * event fires when the GPU reaches it, not while the host is still
 * launching (a 5 us launch is 10% of lab 05's timed call). */
#ifndef CUDA_EMU
static const double HOLD_MAX_MS = 5.0;        /* of the runner's thread's CPU time */
static const double HOLD_WALL_MAX_MS = 100.0;  /* whatever that thread does */
static const double HOLD_START_MAX_MS = 2000.0;
/* The numbers of the last call whose hold began, whose entry point
 * returned, whose call is done and whose hold returned; written by one
 * thread, read by the other. */
static unsigned hold_started, call_returned, hold_released, hold_finished;
/* The CPU-time clock of the thread that makes the calls; without it the
 * hold counts the wall clock. */
static clockid_t caller_clock;
static int have_caller_clock;

static double clock_ms(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void CUDART_CB hold_default_stream(void *call_number)
{
    unsigned mine = (unsigned)(size_t)call_number;
    __atomic_store_n(&hold_started, mine, __ATOMIC_RELEASE);
    double t0 = runner_now_ms();
    double ran0 = have_caller_clock ? clock_ms(caller_clock) : -1;
    while ((int)(__atomic_load_n(&hold_released, __ATOMIC_ACQUIRE) - mine) < 0) {
        double waited = runner_now_ms() - t0;
        if (waited >= HOLD_WALL_MAX_MS) break;
        /* Once the entry point has returned, the thread spins in the
         * runner's own wait for the call's stream, which on a GPU shared
         * with other gradings may take milliseconds of time slices: that is
         * not graded code waiting for the hold. */
        if ((int)(__atomic_load_n(&call_returned, __ATOMIC_ACQUIRE) - mine) >= 0) continue;
        double ran = ran0 >= 0 ? clock_ms(caller_clock) - ran0 : waited;
        if (ran >= HOLD_MAX_MS) break;
    }
    __atomic_store_n(&hold_finished, mine, __ATOMIC_RELEASE);
}

static void hold_default_stream_for(unsigned number)
{
    if (!have_caller_clock)
        have_caller_clock = pthread_getcpuclockid(pthread_self(), &caller_clock) == 0 &&
                            clock_ms(caller_clock) >= 0;
    RUNNER_CHECK(cudaLaunchHostFunc(cudaStreamLegacy, hold_default_stream,
                                    (void *)(size_t)number));
}

/* Lets the hold go and waits until it has returned. */
static void release_hold(unsigned number)
{
    __atomic_store_n(&hold_released, number, __ATOMIC_RELEASE);
    double t0 = runner_now_ms();
    while (__atomic_load_n(&hold_finished, __ATOMIC_ACQUIRE) != number)
        if (runner_now_ms() - t0 > HOLD_START_MAX_MS)
            rsp_fatal("the grader's hold on the default stream did not %s within %.0f ms",
                      __atomic_load_n(&hold_started, __ATOMIC_ACQUIRE) == number ? "end" : "start",
                      HOLD_START_MAX_MS);
}

#endif

/* A persisting-L2 window set by an earlier call would keep its data in the
 * cache through the flush: release those lines and the carve-out, and
 * clear any window left on the grader's stream. The emulation has no cache
 * but keeps both settings, so it resets them too: a call then finds what
 * it would find on a GPU (labs/01-vector-add/tests/correct checks this). */
static void release_persisting_l2(cudaStream_t stream)
{
    size_t carve_out = 0;
    RUNNER_CHECK(cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize));
    if (carve_out) RUNNER_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
    RUNNER_CHECK(cudaCtxResetPersistingL2Cache());
    cudaStreamAttrValue none;
    memset(&none, 0, sizeof none);
    RUNNER_CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &none));
}

/* Settings that hold for every kernel on the device, the grader's baseline
 * and copy included: a call that prefers shared memory to L1 device-wide,
 * or changes how much the L2 fetches, could slow the kernels it is
 * compared with. Each call starts from the settings the runner found. (A
 * call that needs them sets them each time, or per kernel with
 * cudaFuncSetCacheConfig / cudaFuncSetAttribute.) The stack, printf and
 * heap sizes are left alone: a kernel may need them from one call to the
 * next, and they do not make other kernels slower. */
static void restore_device_settings(const call_env *env)
{
    if (env->has_cache_config) {
        cudaFuncCache cache;
        RUNNER_CHECK(cudaDeviceGetCacheConfig(&cache));
        if (cache != env->cache_config) RUNNER_CHECK(cudaDeviceSetCacheConfig(env->cache_config));
    }
    if (env->has_l2_fetch) {
        size_t fetch = 0;
        RUNNER_CHECK(cudaDeviceGetLimit(&fetch, cudaLimitMaxL2FetchGranularity));
        if (fetch != env->l2_fetch_granularity)
            RUNNER_CHECK(
                cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, env->l2_fetch_granularity));
    }
}

static void prepared_on_fence(call_env *env, const buffer_set *poison, lab_call_fn fn,
                              void *const *ptr, const int64_t *dims, call_outcome *out)
{
    memset(out, 0, sizeof *out);
    RUNNER_CHECK(cudaDeviceSynchronize());
    unsigned number = ++env->rounds;
#ifndef CUDA_EMU
    if (poison) buffers_poison_outputs(poison, env->stream);
#else
    (void)poison;
#endif
    restore_device_settings(env);
    release_persisting_l2(env->stream);
#ifndef CUDA_EMU
    RUNNER_CHECK(cudaMemsetAsync(env->flush, number & 0xff, env->flush_bytes, env->stream));
    hold_default_stream_for(number);
    if (env->snapshot) {
        gate<<<env->gate_blocks, GATE_THREADS, 0, env->gate_stream>>>(env->returned, number);
        RUNNER_CHECK(cudaGetLastError());
    }
#endif
    RUNNER_CHECK(cudaEventRecord(env->start, env->stream));
    out->entry = (cudaError_t)fn(ptr, dims, (void *)env->stream);
#ifndef CUDA_EMU
    __atomic_store_n(&call_returned, number, __ATOMIC_RELEASE);
    if (env->snapshot) __atomic_store_n(env->returned, number, __ATOMIC_RELEASE);
#endif
    /* Not checked: after a faulting kernel this returns the fault, which
     * the caller reports as the call's. */
    cudaError_t stop = cudaEventRecord(env->stop, env->stream);
    out->sync = cudaStreamSynchronize(env->stream);
    /* Pinned host outputs are read now, when the call's stream alone is
     * done and nothing else has been waited for: a device-wide wait first
     * (or a copy on the legacy default stream) would let work the call
     * left on a stream of its own finish unseen. */
    if (env->snapshot) buffers_snapshot(env->snapshot);
#ifndef CUDA_EMU
    release_hold(number);
#endif
    double t0 = runner_now_ms();
    out->device = cudaDeviceSynchronize();
    out->straggle_ms = runner_now_ms() - t0;
    if (stop != cudaSuccess || out->sync != cudaSuccess || out->device != cudaSuccess ||
        cudaEventElapsedTime(&out->ms, env->start, env->stop) != cudaSuccess)
        out->ms = -1;
}

typedef struct {
    call_env *env;
    const buffer_set *poison;
    lab_call_fn fn;
    void *const *ptr;
    const int64_t *dims;
    call_outcome *out;
} prepared_job;

static void run_prepared(void *arg)
{
    prepared_job *j = (prepared_job *)arg;
    prepared_on_fence(j->env, j->poison, j->fn, j->ptr, j->dims, j->out);
}

/* The C library's stdout and stderr as the runner found them: the CUDA
 * driver writes a kernel's printf through stdout, on whichever thread
 * synchronises, so a descriptor swapped in there would reach the
 * runner's. */
static FILE *const *const STD_STREAMS[] = {&stdout, &stderr};
static FILE *std_found[2];

static void check_std_streams(void)
{
    for (int i = 0; i < 2; i++) {
        if (!std_found[i]) std_found[i] = *STD_STREAMS[i];
        if (*STD_STREAMS[i] != std_found[i] || fileno(std_found[i]) != i + 1)
            rsp_fatal_code(RUNNER_EXIT_SANDBOX,
                           LOCKDOWN_YOUR_CODE "changed the C library's stdout or stderr, "
                                              "which the grader's own output goes through: "
                                              "graded code may only compute");
    }
}

void call_prepared(call_env *env, const buffer_set *poison, lab_call_fn fn,
                   void *const *ptr, const int64_t *dims, call_outcome *out)
{
    check_std_streams();
    prepared_job job = {env, poison, fn, ptr, dims, out};
    char message[sizeof(proto_fatal)];
    int failed = fence_run(run_prepared, &job, message, sizeof message);
    if (failed) rsp_fatal_code(failed, message);
    check_std_streams();
}

static void name_error(char *dst, cudaError_t e)
{
    snprintf(dst, PROTO_NAME_LEN, "%s", cudaGetErrorName(e));
}

int call_and_report(call_env *env, buffer_set *set, const proto_call *call, int index,
                    lab_call_fn fn)
{
    proto_result res;
    memset(&res, 0, sizeof res);
    rsp_write(REC_BEGIN, index, NULL, 0, NULL, 0);
    call_outcome o;
    env->snapshot = set;
    call_prepared(env, set, fn, set->ptr, call->c.dims, &o);
    env->snapshot = NULL;
    cudaError_t entry = o.entry;
    cudaError_t sync = o.sync != cudaSuccess ? o.sync : o.device;
    cudaError_t last = cudaGetLastError();
    /* A sticky error (a kernel fault) survives cudaGetLastError(). */
    res.sticky = cudaPeekAtLastError() != cudaSuccess ||
                 cudaDeviceSynchronize() != cudaSuccess;

    res.entry_status = entry;
    res.sync_status = sync;
    res.last_status = last;
    name_error(res.entry_name, entry);
    name_error(res.sync_name, sync);
    name_error(res.last_name, last);
    snprintf(res.sync_text, sizeof res.sync_text, "%s", cudaGetErrorString(sync));
    for (int b = 0; b < LAB_MAX_BUFFERS; b++)
        res.buf[b].guard_before = res.buf[b].guard_after =
            res.buf[b].changed_first = res.buf[b].late_first = -1;

    if (res.sticky) {
        rsp_write(REC_RESULT, index, &res, sizeof res, NULL, 0);
        return 0;
    }
    size_t out_bytes = 0;
    for (int b = 0; b < set->n; b++) {
        buffers_inspect(&set->buf[b], &res.buf[b]);
        if (set->buf[b].role == BUF_OUTPUT) out_bytes += set->buf[b].bytes;
    }
    /* Outputs travel packed, in buffer order. */
    unsigned char *outputs = (unsigned char *)malloc(out_bytes + 1);
    if (!outputs) rsp_fatal("out of host memory for %zu bytes", out_bytes);
    size_t at = 0;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->role != BUF_OUTPUT) continue;
        memcpy(outputs + at, g->host + g->offset, g->bytes);
        at += g->bytes;
    }
    res.outputs_follow = 1;
    rsp_write(REC_RESULT, index, &res, sizeof res, outputs, out_bytes);
    free(outputs);
    return 1;
}
