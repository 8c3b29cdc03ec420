/* timing.cu - the fast stage's and the ladder's measurements.
 *
 * Every round times each item once, in the same order (for the fast stage:
 * baseline, submission, copy, [vendor]): alternating means a GPU that warms
 * up, throttles or is disturbed affects all items alike, so their ratios stay
 * honest. Before every sample the L2 cache is flushed by writing a buffer
 * twice its size, so no item is timed on data a previous one left in the
 * cache. Times come from CUDA events on the grader's stream.
 *
 * Before every round one pair of elements of every input buffer trades
 * places (grader/swaps.h): no two timed calls see the same inputs, so code
 * that hands back an answer remembered for "the same" inputs gains nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "../stats.h"

/* 512 MiB read and 512 MiB written: large enough to reach the asymptotic
 * device-to-device bandwidth. */
static const size_t COPY_HALF_BYTES = (size_t)512 << 20;

static const double WARMUP_MS = 200.0;
static const int WARMUP_MIN_CALLS = 10;

/* One thing to time: a lab call, or (call == NULL) the reference copy. */
typedef struct {
    const char *name;
    lab_call_fn call;
} timed_item;

typedef struct {
    buffer_set *set;
    const int64_t *dims;
    uint64_t swap_seed;
    cudaStream_t stream;
    void *copy_src, *copy_dst, *flush;
    size_t flush_bytes;
    int l2_bytes;
} timing_env;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static cudaError_t run_item(const timing_env *env, const timed_item *item)
{
    if (!item->call)
        return cudaMemcpyAsync(env->copy_dst, env->copy_src, COPY_HALF_BYTES,
                               cudaMemcpyDeviceToDevice, env->stream);
    return (cudaError_t)item->call(env->set->ptr, env->dims, (void *)env->stream);
}

/* Wait for the item; an error inside timing is the code's fault and is
 * reported as such, so the parent can explain it. Returns how long the
 * rest of the GPU still ran once the grader's stream was done: the events
 * only see that stream, so anything still running elsewhere was hidden
 * from them. */
static double check_item(const timed_item *item, cudaError_t launch, cudaStream_t stream)
{
    cudaError_t sync = cudaStreamSynchronize(stream);
    double t0 = now_ms();
    cudaError_t rest = cudaDeviceSynchronize();
    double straggle_ms = now_ms() - t0;
    cudaError_t e = launch != cudaSuccess ? launch : sync != cudaSuccess ? sync : rest;
    if (e != cudaSuccess)
        rsp_fatal("%s failed while being timed: %s (%s)", item->name,
                  cudaGetErrorName(e), cudaGetErrorString(e));
    return straggle_ms;
}

static void env_open(timing_env *env, buffer_set *set, const proto_call *call,
                     cudaStream_t stream)
{
    memset(env, 0, sizeof *env);
    env->set = set;
    env->dims = call->c.dims;
    env->swap_seed = call->swap_seed;
    env->stream = stream;
    RUNNER_CHECK(cudaMalloc(&env->copy_src, COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMalloc(&env->copy_dst, COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMemset(env->copy_src, 1, COPY_HALF_BYTES));
    RUNNER_CHECK(cudaDeviceGetAttribute(&env->l2_bytes, cudaDevAttrL2CacheSize, 0));
    env->flush_bytes = 2 * (size_t)(env->l2_bytes > (4 << 20) ? env->l2_bytes : (4 << 20));
    RUNNER_CHECK(cudaMalloc(&env->flush, env->flush_bytes));
}

static void env_close(timing_env *env)
{
    cudaFree(env->copy_src);
    cudaFree(env->copy_dst);
    cudaFree(env->flush);
}

/* Warm up, then sample rounds until every median has converged or a cap is
 * reached; write one REC_TIMING record. */
static void time_items(const proto_request *req, const timing_env *env,
                       const timed_item *items, int n_items)
{
    if (n_items > PROTO_MAX_ITEMS) rsp_fatal("too many items to time: %d", n_items);
    /* Warm-up: module load, clocks ramping up, first-touch page mapping. */
    double t0 = now_ms();
    for (int calls = 0; calls < WARMUP_MIN_CALLS || now_ms() - t0 < WARMUP_MS; calls++)
        for (int i = 0; i < n_items; i++)
            check_item(&items[i], run_item(env, &items[i]), env->stream);
    double warmup_ms = now_ms() - t0;

    cudaEvent_t start, stop;
    RUNNER_CHECK(cudaEventCreate(&start));
    RUNNER_CHECK(cudaEventCreate(&stop));
    int max_rounds = req->max_rounds;
    double *samples = (double *)calloc((size_t)n_items * max_rounds, sizeof(double));
    double *straggles = (double *)calloc((size_t)n_items * max_rounds, sizeof(double));
    if (!samples || !straggles) rsp_fatal("out of host memory for the samples");
    const double *series[PROTO_MAX_ITEMS];
    for (int i = 0; i < n_items; i++) series[i] = samples + (size_t)i * max_rounds;

    int rounds = 0, converged = 0;
    double s0 = now_ms();
    while (rounds < max_rounds && !converged && now_ms() - s0 < req->max_seconds * 1e3) {
        buffers_swap(env->set, env->swap_seed, (uint64_t)rounds);
        for (int i = 0; i < n_items; i++) {
            RUNNER_CHECK(cudaMemsetAsync(env->flush, rounds & 0xff, env->flush_bytes,
                                         env->stream));
            RUNNER_CHECK(cudaEventRecord(start, env->stream));
            cudaError_t launch = run_item(env, &items[i]);
            RUNNER_CHECK(cudaEventRecord(stop, env->stream));
            straggles[(size_t)i * max_rounds + rounds] =
                check_item(&items[i], launch, env->stream);
            float ms = 0;
            RUNNER_CHECK(cudaEventElapsedTime(&ms, start, stop));
            samples[(size_t)i * max_rounds + rounds] = ms;
        }
        rounds++;
        converged = stats_converged(series, n_items, (size_t)rounds,
                                    (size_t)req->min_rounds, req->target_rse);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);

    proto_timing t;
    memset(&t, 0, sizeof t);
    t.n_items = n_items;
    t.n_rounds = rounds;
    t.converged = converged;
    for (int i = 0; i < n_items; i++)
        snprintf(t.item_names[i], PROTO_NAME_LEN, "%s", items[i].name);
    t.copy_bytes = 2.0 * (double)COPY_HALF_BYTES;
    t.warmup_ms = warmup_ms;
    t.sampling_ms = now_ms() - s0;
    t.l2_bytes = env->l2_bytes;
    t.flush_bytes = (int64_t)env->flush_bytes;
    for (int i = 0; i < n_items; i++)
        t.straggle_ms[i] = stats_median(straggles + (size_t)i * max_rounds, (size_t)rounds);
    /* Samples travel item-major, rounds contiguous. */
    size_t n = (size_t)n_items * rounds;
    double *packed = (double *)malloc(n * sizeof(double) + 1);
    for (int i = 0; i < n_items; i++)
        memcpy(packed + (size_t)i * rounds, series[i], (size_t)rounds * sizeof(double));
    rsp_write(REC_TIMING, 0, &t, sizeof t, packed, n * sizeof(double));
    free(packed);
    free(samples);
    free(straggles);
}

/* Fill the buffers for each check in turn and make one reported call per
 * check (call indices first_index, first_index + 1, ...). Every check has
 * the same size; the timed buffers are reused when that is the timed size,
 * and all checks share one set of buffers, so a kernel that remembers an
 * earlier answer instead of computing is caught. */
static void check_calls(buffer_set *set, const proto_call *timed, const proto_call *checks,
                        int n_checks, int first_index, lab_call_fn fn, cudaStream_t stream)
{
    int same = memcmp(checks[0].c.dims, timed->c.dims, sizeof timed->c.dims) == 0;
    buffer_set fresh;
    buffer_set *use = set;
    if (!same) {
        buffers_create(&fresh, &checks[0]);
        use = &fresh;
    }
    for (int i = 0; i < n_checks; i++) {
        buffers_fill(use, &checks[i]);
        if (!call_and_report(use, &checks[i], first_index + i, stream, fn)) break;
    }
    if (!same) buffers_destroy(&fresh);
}

void run_timing(const proto_request *req, const proto_call *calls, cudaStream_t stream)
{
    const proto_call *timed = &calls[0];
    const lab_spec *spec = LAB_DEVICE.spec;
    buffer_set set;
    buffers_create(&set, timed);
    buffers_fill(&set, timed);
    timing_env env;
    env_open(&env, &set, timed, stream);
    timed_item items[4] = {{"baseline", LAB_DEVICE.baseline},
                           {"submission", LAB_DEVICE.submission},
                           {"copy", NULL},
                           {"vendor", LAB_DEVICE.vendor}};
    int n_items = (spec->fast.roof == ROOF_VENDOR && LAB_DEVICE.vendor) ? 4 : 3;
    time_items(req, &env, items, n_items);
    env_close(&env);
    check_calls(&set, timed, &calls[1], 2, 1, LAB_DEVICE.submission, stream);
    buffers_destroy(&set);
}

void run_ladder(const proto_request *req, const lab_ladder *ladder,
                const proto_call *timed, const proto_call *check, cudaStream_t stream)
{
    if (ladder->n + 1 > PROTO_MAX_ITEMS) rsp_fatal("a ladder has at most %d rungs", PROTO_MAX_ITEMS - 1);
    buffer_set set;
    buffers_create(&set, timed);
    /* Every rung must be right before its time means anything. */
    for (int r = 0; r < ladder->n; r++)
        check_calls(&set, timed, check, 1, r, ladder->rungs[r].call, stream);
    buffers_fill(&set, timed);
    timing_env env;
    env_open(&env, &set, timed, stream);
    timed_item items[PROTO_MAX_ITEMS];
    for (int r = 0; r < ladder->n; r++) items[r] = {ladder->rungs[r].name, ladder->rungs[r].call};
    items[ladder->n] = {"copy", NULL};
    time_items(req, &env, items, ladder->n + 1);
    env_close(&env);
    buffers_destroy(&set);
}
