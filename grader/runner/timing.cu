/* timing.cu - the fast stage's and the ladder's measurements.
 *
 * Every round times each item once, in the same order (for the fast stage:
 * baseline, submission, copy, [vendor]): alternating means a GPU that warms
 * up, throttles or is disturbed affects all items alike, so their ratios stay
 * honest. Every sample is one call prepared like any other (call.cu: the
 * L2 flushed, outputs poisoned, events around it), so no item is timed on
 * data a previous one left in the cache, and the submission's timed calls
 * look like its checked ones; each is then checked (verify.cu).
 *
 * Before every round every input in device memory is rearranged whole
 * (shuffle.cu), and one pair of elements of every input in pinned host
 * memory trades places (grader/swaps.h): no two timed calls see the same
 * inputs, nor inputs close to the last ones, so code that hands back an
 * answer remembered for "the same" inputs, or updates it where a few
 * elements changed, gains nothing.
 * A lab whose answer is one sum also gets two spikes per round at random
 * places (lab_spec.fast.spike): a call that estimates the sum from part of
 * the input misses one of them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "../rng.h"
#include "../fast_rules.h"
#include "../stats.h"

/* 512 MiB read and 512 MiB written: large enough to reach the asymptotic
 * device-to-device bandwidth. */
static const size_t COPY_HALF_BYTES = (size_t)512 << 20;

/* Warm-up: at least this long, and at least two calls of every item (the
 * first loads the module and maps pages; a slow baseline of 300 ms needs
 * no more calls than that to be warm). */
static const double WARMUP_MS = 200.0;
static const int WARMUP_MIN_CALLS = 2;

/* An item timed right after one this long gets an untimed copy in front.
 * On the H100 a memory-bound call made after about 100 ms in which the GPU
 * moved little memory (lab 05's baseline: 118 ms of atomics on one
 * address) ran 15-20 us slower, whatever the host and the cache flush did
 * in between. Lab 05's reference took 0.2005-0.2077 ms right after its
 * baseline and 0.1875-0.1876 ms with the copy in front (three gradings
 * each, alternated on one machine), as in the ladder, where it follows a
 * rung of 0.19 ms. The copy is a whole call, prepared like any other, so
 * the timed call's window and preparation stay as they are; it costs at
 * most 0.4 ms after an item of 10 ms or more. */
static const double WAKE_AFTER_MS = 10.0;

/* One thing to time: a lab call on a set of buffers of its own (outputs
 * and scratch; the inputs are shared), or the reference copy. */
typedef struct {
    const char *name;
    lab_call_fn call;
    buffer_set *set; /* NULL for the copy */
} timed_item;

typedef struct {
    call_env *env;
    buffer_set *inputs; /* the set that owns the inputs */
    const int64_t *dims;
    uint64_t swap_seed;
    void *copy[2]; /* destination, source */
    verifier *check; /* MODE_TIMING: items 0 and 1 are baseline and submission */
    double peak_dram; /* bytes/s, 0 when unknown */
    int first_part, n_parts; /* the lab's parts among the items (lab_device.parts) */
    shuffled_inputs shuffled;
} timing_env;

/* The reference copy, called like a lab function on copy[]. */
static int copy_call(void *const *ptr, const int64_t *, void *stream)
{
    return cudaMemcpyAsync(ptr[0], ptr[1], COPY_HALF_BYTES, cudaMemcpyDeviceToDevice,
                           (cudaStream_t)stream);
}

/* The copy as an item: timed in every round, and untimed after a long
 * item (WAKE_AFTER_MS). */
static const timed_item COPY_ITEM = {"copy", copy_call, NULL};

/* One call of an item; an error inside timing is the code's fault and is
 * reported as such, so the parent can explain it. */
static void sample(const timing_env *t, const timed_item *item, call_outcome *o)
{
    void *const *ptr = item->set ? item->set->ptr : t->copy;
    call_prepared(t->env, item->set, item->call, ptr, t->dims, o);
    cudaError_t e = o->entry != cudaSuccess  ? o->entry
                    : o->sync != cudaSuccess ? o->sync
                                             : o->device;
    if (e != cudaSuccess)
        rsp_fatal("%s failed while being timed: %s (%s)", item->name, cudaGetErrorName(e),
                  cudaGetErrorString(e));
    if (o->ms < 0) rsp_fatal("%s: the grader's events could not be read", item->name);
}

/* sample(), after the untimed copy when the call before took
 * WAKE_AFTER_MS or more; *last_ms is that call's time, then this one's. */
static void sample_next(const timing_env *t, const timed_item *item, double *last_ms,
                        call_outcome *o)
{
    if (*last_ms >= WAKE_AFTER_MS) sample(t, &COPY_ITEM, o);
    sample(t, item, o);
    *last_ms = o->ms;
}

static double peak_dram(void)
{
    int khz = 0, bits = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess)
        return 0;
    return 2.0 * khz * 1e3 * bits / 8.0;
}

static void timing_open(timing_env *t, call_env *env, buffer_set *inputs,
                        const proto_call *call)
{
    memset(t, 0, sizeof *t);
    t->env = env;
    t->inputs = inputs;
    t->dims = call->c.dims;
    t->swap_seed = call->swap_seed;
    RUNNER_CHECK(cudaMalloc(&t->copy[0], COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMalloc(&t->copy[1], COPY_HALF_BYTES));
    RUNNER_CHECK(cudaMemset(t->copy[1], 1, COPY_HALF_BYTES));
    t->peak_dram = peak_dram();
    shuffle_open(&t->shuffled, inputs);
}

static void timing_close(timing_env *t)
{
    cudaFree(t->copy[0]);
    cudaFree(t->copy[1]);
    shuffle_close(&t->shuffled);
}

/* FP32 lanes per SM by compute capability (the CUDA C++ Programming Guide's
 * table of arithmetic throughput); 0 when not known. */
static int fp32_lanes_per_sm(int major, int minor)
{
    if (major == 8 && minor == 0) return 64;
    if (major >= 8) return 128;
    if (major == 7) return 64;
    return 0;
}

/* Dense half-precision tensor-core FLOP per SM per clock with float
 * accumulation, from NVIDIA's published peaks (V100 125, A100 312, H100
 * SXM 989 TFLOP/s at their SM counts and boost clocks); an upper bound
 * for the other parts of a family (the GeForce parts accumulate in float
 * at half that or less); 0 when not known. */
static int fp16_tensor_flop_per_sm(int major, int minor)
{
    if (major == 9) return 4096;
    if (major == 8 && minor == 0) return 2048;
    if (major == 8 || major == 7) return 1024;
    return 0;
}

static double peak_flops(lab_peak kind)
{
    int sms = 0, khz = 0, major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess)
        return 0;
    double per_clock = kind == PEAK_FP16_TENSOR ? fp16_tensor_flop_per_sm(major, minor)
                                                : 2.0 * fp32_lanes_per_sm(major, minor);
    return (double)sms * khz * 1e3 * per_clock;
}

/* The fast stage's verdict, once it cannot change (fast_rules.h): after
 * `rounds` rounds of baseline, submission, copy [, vendor], a failure by a
 * wide margin, a sure pass, or DECIDED_NOT. */
static proto_decided decided(const timing_env *env, const proto_request *req,
                             const double *const *series, const double *straggles,
                             int max_rounds, int n_items, int rounds)
{
    if (rounds < FAST_DECIDE_ROUNDS) return DECIDED_NOT;
    if (verify_failed(env->check)) return DECIDED_WRONG;
    const lab_spec *spec = LAB_DEVICE.spec;
    const double margin = FAST_DECIDE_MARGIN;
    double med[PROTO_MAX_ITEMS], straggle[PROTO_MAX_ITEMS];
    for (int i = 0; i < n_items; i++) {
        med[i] = stats_median(series[i], (size_t)rounds);
        straggle[i] = stats_median(straggles + (size_t)i * max_rounds, (size_t)rounds);
    }
    double base = med[0], mine = med[1], copy = med[2];
    double speedup = base / mine;
    double gbps = spec->fast.bytes(env->dims) / (mine * 1e6);
    double copy_gbps = 2.0 * (double)COPY_HALF_BYTES / (copy * 1e6);
    double harness = fast_harness_straggle_ms(straggle, n_items);
    /* A copy slowed by something else on the GPU decides nothing. */
    if (fast_copy_disturbed(copy_gbps * 1e9, env->peak_dram)) return DECIDED_NOT;
    if (gbps > margin * FAST_PHYSICAL_SLACK * copy_gbps ||
        (spec->fast.max_speedup > 0 && speedup > margin * spec->fast.max_speedup))
        return DECIDED_IMPOSSIBLE;
    if (straggle[1] - harness > margin * fast_straggle_allowed_ms(mine))
        return DECIDED_STRAGGLE;
    /* The spec's second size (fast.second) has its own bar, a speedup. */
    int second = lab_case_given(&spec->fast.second.timed) &&
                 memcmp(env->dims, spec->fast.second.timed.dims, sizeof spec->fast.timed.dims) == 0;
    double roof = second                                          ? INFINITY
                  : spec->fast.roof == ROOF_COPY                   ? gbps / copy_gbps
                  : spec->fast.roof == ROOF_VENDOR && n_items > 3 ? med[3] / mine
                  : spec->fast.roof == ROOF_PARTS && env->n_parts > 0
                      ? stats_slowest(med + env->first_part, (size_t)env->n_parts) / mine
                      : INFINITY;
    double min_speedup = second ? spec->fast.second.min_speedup : spec->fast.min_speedup;
    double roof_bar = second ? 0 : lab_roof_bar(spec);
    if (speedup * margin < min_speedup || roof * margin < roof_bar) return DECIDED_FAR_BELOW;
    int precise = rounds >= req->min_rounds &&
                  stats_converged(series, n_items, (size_t)rounds, (size_t)req->min_rounds, FAST_SURE_RSE);
    double peak = fast_peak_checked(spec) ? peak_flops(spec->fast.peak) : 0;
    double of_peak = peak > 0 ? spec->fast.flops(env->dims) / (mine * 1e-3) / peak : 0;
    double headroom = fast_headroom(speedup, min_speedup, spec->fast.max_speedup, roof, roof_bar,
                                    gbps / copy_gbps, of_peak, straggle[1] - harness, mine);
    return fast_sure_pass(rounds, precise, headroom) ? DECIDED_PASS : DECIDED_NOT;
}

/* Warm up, then sample rounds until every median has converged, the
 * verdict is decided (MODE_TIMING) or a cap is reached; write one
 * REC_TIMING record. */
static void time_items(const proto_request *req, timing_env *env,
                       const timed_item *items, int n_items)
{
    if (n_items > PROTO_MAX_ITEMS) rsp_fatal("too many items to time: %d", n_items);
    call_outcome o;
    double last_ms = 0;
    /* Warm-up: module load, clocks ramping up, first-touch page mapping. */
    double t0 = runner_now_ms();
    for (int calls = 0; calls < WARMUP_MIN_CALLS || runner_now_ms() - t0 < WARMUP_MS; calls++)
        for (int i = 0; i < n_items; i++) sample_next(env, &items[i], &last_ms, &o);
    double warmup_ms = runner_now_ms() - t0;

    int max_rounds = req->max_rounds;
    double *samples = (double *)calloc((size_t)n_items * max_rounds, sizeof(double));
    double *straggles = (double *)calloc((size_t)n_items * max_rounds, sizeof(double));
    if (!samples || !straggles) rsp_fatal("out of host memory for the samples");
    const double *series[PROTO_MAX_ITEMS];
    for (int i = 0; i < n_items; i++) series[i] = samples + (size_t)i * max_rounds;

    int rounds = 0, converged = 0;
    proto_decided verdict = DECIDED_NOT;
    double spike = LAB_DEVICE.spec->fast.spike;
    size_t spiked[2] = {0, 0};
    double s0 = runner_now_ms();
    while (rounds < max_rounds && !converged && verdict == DECIDED_NOT &&
           runner_now_ms() - s0 < req->max_seconds * 1e3) {
        buffers_unspike(env->inputs, spiked);
        shuffle_round(&env->shuffled, env->inputs, env->swap_seed, (uint64_t)rounds,
                      env->env->stream);
        buffers_swap(env->inputs, env->swap_seed, (uint64_t)rounds);
        if (spike != 0)
            buffers_spike(env->inputs, spike, env->swap_seed, (uint64_t)rounds, spiked);
        for (int i = 0; i < n_items; i++) {
            sample_next(env, &items[i], &last_ms, &o);
            samples[(size_t)i * max_rounds + rounds] = o.ms;
            straggles[(size_t)i * max_rounds + rounds] = o.straggle_ms;
            proto_sample sent = {i, rounds, o.ms, o.straggle_ms, 0, 0, 0, 0};
            if (env->check && i == 0) verify_after_baseline(env->check, items[0].set);
            if (env->check && i == 1) {
                proto_timed_check before = verify_counts(env->check);
                verify_after_submission(env->check, items[1].set, items[0].set, rounds);
                proto_timed_check after = verify_counts(env->check);
                sent.checked = 1;
                sent.wrong = after.rounds_wrong > before.rounds_wrong;
                sent.inputs_changed = after.rounds_inputs_changed > before.rounds_inputs_changed;
            }
            /* Sent before any graded code runs again (protocol.h). */
            rsp_write(REC_SAMPLE, 0, &sent, sizeof sent, NULL, 0);
        }
        rounds++;
        converged = stats_converged(series, n_items, (size_t)rounds,
                                    (size_t)req->min_rounds, req->target_rse);
        if (env->check && !converged)
            verdict = decided(env, req, series, straggles, max_rounds, n_items, rounds);
    }
    buffers_unspike(env->inputs, spiked);

    proto_timing t;
    memset(&t, 0, sizeof t);
    t.n_items = n_items;
    t.n_rounds = rounds;
    t.converged = converged;
    t.decided = verdict;
    for (int i = 0; i < n_items; i++)
        snprintf(t.item_names[i], PROTO_NAME_LEN, "%s", items[i].name);
    t.copy_bytes = 2.0 * (double)COPY_HALF_BYTES;
    t.warmup_ms = warmup_ms;
    t.sampling_ms = runner_now_ms() - s0;
    t.l2_bytes = env->env->l2_bytes;
    t.flush_bytes = (int64_t)env->env->flush_bytes;
    t.peak_flops = peak_flops(LAB_DEVICE.spec->fast.peak);
    t.peak_dram = env->peak_dram;
    for (int i = 0; i < n_items; i++)
        t.straggle_ms[i] = stats_median(straggles + (size_t)i * max_rounds, (size_t)rounds);
    t.first_part = env->first_part;
    t.n_parts = env->n_parts;
    if (env->check) {
        verify_close(env->check, &t.check);
        env->check = NULL;
    }
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
static void check_calls(call_env *env, buffer_set *set, const proto_call *timed,
                        const proto_call *checks, int n_checks, int first_index, lab_call_fn fn)
{
    int same = memcmp(checks[0].c.dims, timed->c.dims, sizeof timed->c.dims) == 0;
    buffer_set fresh;
    buffer_set *use = set;
    if (!same) {
        buffers_create(&fresh, &checks[0], LAYOUT_GUARDED);
        use = &fresh;
    }
    for (int i = 0; i < n_checks; i++) {
        buffers_fill(use, &checks[i]);
        if (!call_and_report(env, use, &checks[i], first_index + i, fn)) break;
    }
    if (!same) buffers_destroy(&fresh);
}

void timing_prepare(timing_buffers *tb, const proto_call *calls)
{
    const proto_call *timed = &calls[0];
    /* The submission's set owns the inputs; the baseline and the vendor
     * library share them and write outputs of their own. */
    buffers_prepare(&tb->mine, NULL, timed);
    buffers_prepare(&tb->baseline, &tb->mine, timed);
    /* Timed wherever the lab has one: the roof of a ROOF_VENDOR lab, a
     * figure to compare with for the others. */
    tb->with_vendor = LAB_DEVICE.vendor != NULL;
    if (tb->with_vendor) buffers_prepare(&tb->vendor, &tb->mine, timed);
}

/* ROOF_PARTS: the lab's trusted parts, timed after the other items. */
static int add_parts(timing_env *t, timed_item *items, int n_items, buffer_set *set)
{
    t->first_part = n_items;
    t->n_parts = LAB_DEVICE.parts ? LAB_DEVICE.n_parts : 0;
    if (n_items + t->n_parts > PROTO_MAX_ITEMS) rsp_fatal("too many parts to time: %d", t->n_parts);
    for (int p = 0; p < t->n_parts; p++)
        items[n_items++] = {LAB_DEVICE.parts[p].name, LAB_DEVICE.parts[p].call, set};
    if (t->n_parts == 0) t->first_part = 0;
    return n_items;
}

void run_timing(const proto_request *req, const proto_call *calls, call_env *env,
                timing_buffers *tb)
{
    const proto_call *timed = &calls[0];
    buffers_to_device(&tb->mine, NULL);
    buffers_to_device(&tb->baseline, &tb->mine);
    if (tb->with_vendor) buffers_to_device(&tb->vendor, &tb->mine);
    timing_env t;
    timing_open(&t, env, &tb->mine, timed);
    /* The masking key: from this run's seeds, never the same twice. */
    t.check = verify_open(&tb->mine, req->agreement, rng_derive(timed->swap_seed, 0x6d61736bull),
                          env->stream);
    timed_item items[PROTO_MAX_ITEMS] = {{"baseline", LAB_DEVICE.baseline, &tb->baseline},
                                         {"submission", LAB_DEVICE.submission, &tb->mine},
                                         COPY_ITEM,
                                         {"vendor", LAB_DEVICE.vendor, &tb->vendor}};
    int n_items = tb->with_vendor ? 4 : 3;
    /* The lab's parts work on the submission's buffers, after its sample
     * was checked (an output they write is poisoned again before its next
     * call). */
    n_items = add_parts(&t, items, n_items, &tb->mine);
    time_items(req, &t, items, n_items);
    timing_close(&t);
    buffers_destroy(&tb->baseline);
    if (tb->with_vendor) buffers_destroy(&tb->vendor);
    check_calls(env, &tb->mine, timed, &calls[1], 2, 1, LAB_DEVICE.submission);
    buffers_destroy(&tb->mine);
}

void ladder_prepare(ladder_buffers *lb, const proto_call *calls)
{
    buffers_prepare(&lb->timed, NULL, &calls[0]);
    buffers_prepare(&lb->check, NULL, &calls[1]);
}

void run_ladder(const proto_request *req, const lab_ladder *ladder, const proto_call *calls,
                call_env *env, ladder_buffers *lb)
{
    if (ladder->n + 1 + (LAB_DEVICE.parts ? LAB_DEVICE.n_parts : 0) > PROTO_MAX_ITEMS) rsp_fatal("a ladder has at most %d rungs", PROTO_MAX_ITEMS - 1);
    buffers_to_device(&lb->check, NULL);
    /* Every rung must be right before its time means anything: each on the
     * same inputs, its outputs poisoned again. */
    for (int r = 0; r < ladder->n; r++) {
        if (r > 0) buffers_refill(&lb->check, &calls[1]);
        if (!call_and_report(env, &lb->check, &calls[1], r, ladder->rungs[r].call)) break;
    }
    buffers_destroy(&lb->check);
    buffer_set *set = &lb->timed;
    buffers_to_device(set, NULL);
    timing_env t;
    timing_open(&t, env, set, &calls[0]);
    timed_item items[PROTO_MAX_ITEMS];
    for (int r = 0; r < ladder->n; r++) items[r] = {ladder->rungs[r].name, ladder->rungs[r].call, set};
    items[ladder->n] = COPY_ITEM;
    int n_items = add_parts(&t, items, ladder->n + 1, set);
    time_items(req, &t, items, n_items);
    timing_close(&t);
    buffers_destroy(set);
}
