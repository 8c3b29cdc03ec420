/* timing.cu - the fast stage's measurements.
 *
 * Every round times each item once, in the same order (baseline, submission,
 * copy, [vendor]): alternating means a GPU that warms up, throttles or is
 * disturbed affects all of them alike, so their ratio stays honest. Before
 * every sample the L2 cache is flushed by writing a buffer twice its size,
 * so no item is timed on data a previous one left in the cache. Times come
 * from CUDA events on the grader's stream.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "../stats.h"

enum { ITEM_BASELINE, ITEM_SUBMISSION, ITEM_COPY, ITEM_VENDOR };

/* 512 MiB read and 512 MiB written: large enough to reach the asymptotic
 * device-to-device bandwidth. */
static const size_t COPY_HALF_BYTES = (size_t)512 << 20;

static const double WARMUP_MS = 200.0;
static const int WARMUP_MIN_CALLS = 10;

typedef struct {
    buffer_set *set;
    const int64_t *dims;
    cudaStream_t stream;
    void *copy_src, *copy_dst;
} timed_items;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static cudaError_t run_item(const timed_items *it, int item)
{
    void *s = (void *)it->stream;
    switch (item) {
    case ITEM_BASELINE: return (cudaError_t)LAB_DEVICE.baseline(it->set->ptr, it->dims, s);
    case ITEM_SUBMISSION: return (cudaError_t)LAB_DEVICE.submission(it->set->ptr, it->dims, s);
    case ITEM_COPY:
        return cudaMemcpyAsync(it->copy_dst, it->copy_src, COPY_HALF_BYTES,
                               cudaMemcpyDeviceToDevice, it->stream);
    case ITEM_VENDOR: return (cudaError_t)LAB_DEVICE.vendor(it->set->ptr, it->dims, s);
    }
    return cudaErrorInvalidValue;
}

static const char *item_name(int item)
{
    static const char *names[] = {"baseline", "submission", "copy", "vendor"};
    return names[item];
}

/* An error inside timing is the submission's (or the baseline's) fault and
 * is reported like a failed call, so the parent can explain it. */
static void check_item(int item, cudaError_t launch, cudaStream_t stream)
{
    cudaError_t sync = cudaStreamSynchronize(stream);
    cudaError_t e = launch != cudaSuccess ? launch : sync;
    if (e != cudaSuccess)
        rsp_fatal("%s failed while being timed: %s (%s)", item_name(item),
                  cudaGetErrorName(e), cudaGetErrorString(e));
}

void run_timing(const proto_request *req, const proto_call *call,
                const proto_call *recheck, cudaStream_t stream)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    buffer_set set;
    buffers_create(&set, call);
    buffers_fill(&set, call);

    timed_items it = {&set, call->c.dims, stream, NULL, NULL};
    RUNNER_CHECK(cudaMalloc(&it.copy_src, COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMalloc(&it.copy_dst, COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMemset(it.copy_src, 1, COPY_HALF_BYTES));

    int l2 = 0;
    RUNNER_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    size_t flush_bytes = 2 * (size_t)(l2 > (4 << 20) ? l2 : (4 << 20));
    void *flush;
    RUNNER_CHECK(cudaMalloc(&flush, flush_bytes));

    int n_items = (spec->fast.roof == ROOF_VENDOR && LAB_DEVICE.vendor) ? 4 : 3;

    /* Warm-up: module load, clocks ramping up, first-touch page mapping. */
    double t0 = now_ms();
    for (int calls = 0; calls < WARMUP_MIN_CALLS || now_ms() - t0 < WARMUP_MS; calls++)
        for (int item = 0; item < n_items; item++)
            check_item(item, run_item(&it, item), stream);
    double warmup_ms = now_ms() - t0;

    cudaEvent_t start, stop;
    RUNNER_CHECK(cudaEventCreate(&start));
    RUNNER_CHECK(cudaEventCreate(&stop));
    int max_rounds = req->max_rounds;
    double *samples = (double *)calloc((size_t)n_items * max_rounds, sizeof(double));
    const double *series[PROTO_MAX_ITEMS];
    for (int item = 0; item < n_items; item++) series[item] = samples + (size_t)item * max_rounds;

    int rounds = 0, converged = 0;
    double s0 = now_ms();
    while (rounds < max_rounds && !converged &&
           now_ms() - s0 < req->max_seconds * 1e3) {
        for (int item = 0; item < n_items; item++) {
            RUNNER_CHECK(cudaMemsetAsync(flush, rounds & 0xff, flush_bytes, stream));
            RUNNER_CHECK(cudaEventRecord(start, stream));
            cudaError_t launch = run_item(&it, item);
            RUNNER_CHECK(cudaEventRecord(stop, stream));
            check_item(item, launch, stream);
            float ms = 0;
            RUNNER_CHECK(cudaEventElapsedTime(&ms, start, stop));
            samples[(size_t)item * max_rounds + rounds] = ms;
        }
        rounds++;
        converged = stats_converged(series, n_items, (size_t)rounds,
                                    (size_t)req->min_rounds, req->target_rse);
    }

    proto_timing t;
    memset(&t, 0, sizeof t);
    t.n_items = n_items;
    t.n_rounds = rounds;
    t.converged = converged;
    for (int item = 0; item < n_items; item++)
        snprintf(t.item_names[item], PROTO_NAME_LEN, "%s", item_name(item));
    t.copy_bytes = 2.0 * (double)COPY_HALF_BYTES;
    t.warmup_ms = warmup_ms;
    t.sampling_ms = now_ms() - s0;
    t.l2_bytes = l2;
    t.flush_bytes = (int64_t)flush_bytes;
    /* Samples travel item-major, rounds contiguous. */
    double *packed = (double *)malloc((size_t)n_items * rounds * sizeof(double) + 1);
    for (int item = 0; item < n_items; item++)
        memcpy(packed + (size_t)item * rounds, series[item], (size_t)rounds * sizeof(double));
    rsp_write(REC_TIMING, 0, &t, sizeof t, packed, (size_t)n_items * rounds * sizeof(double));
    free(packed);
    free(samples);
    cudaFree(flush);
    cudaFree(it.copy_src);
    cudaFree(it.copy_dst);

    /* Fresh inputs, in the very buffers that were timed when the sizes
     * allow: a kernel that remembers its last answer is caught here. */
    if (memcmp(recheck->c.dims, call->c.dims, sizeof call->c.dims) != 0) {
        buffers_destroy(&set);
        buffers_create(&set, recheck);
    }
    buffers_fill(&set, recheck);
    call_and_report(&set, recheck, 1, stream);
    buffers_destroy(&set);
}
