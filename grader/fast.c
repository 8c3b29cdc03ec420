/* fast.c - the fast stage: speedup over the naive baseline and fraction of
 * the roofline, both measured in the same run on the same GPU, then the
 * answer re-checked on fresh inputs.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "isolate.h"
#include "stats.h"

/* A kernel may beat cudaMemcpy by a little; beating it by more than this
 * means work was skipped, cached or hidden on another stream. */
static const double PHYSICAL_SLACK = 1.10;

/* After the grader's stream finished a sample, waiting for the whole GPU
 * takes a few microseconds. Longer than this, and longer than half the
 * timed call itself, means the call left work running on a stream the
 * events never saw. */
static const double STRAGGLE_MIN_MS = 0.05;

const char *rate_unit(const lab_spec *spec)
{
    return spec->fast.rate_unit ? spec->fast.rate_unit : "GFLOP/s";
}

static void text_bar(double fraction, char *buf, size_t size)
{
    int width = 20, filled = (int)lround(fmin(fmax(fraction, 0), 1) * width);
    size_t at = 0;
    at += (size_t)snprintf(buf + at, size - at, "[");
    for (int i = 0; i < width && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, "%c", i < filled ? '#' : '.');
    snprintf(buf + at, size - at, "]");
}

static void figures(const grade_ctx *g, const proto_call *timed,
                    const response *rsp, fast_figures *f)
{
    const lab_spec *spec = g->spec;
    const proto_timing *t = &rsp->timing;
    size_t n = (size_t)t->n_rounds;
    double med[PROTO_MAX_ITEMS] = {0};
    for (int i = 0; i < t->n_items; i++) med[i] = stats_median(rsp->samples + i * n, n);
    f->baseline_ms = med[0];
    f->submission_ms = med[1];
    f->copy_ms = med[2];
    f->vendor_ms = t->n_items > 3 ? med[3] : NAN;
    f->straggle_ms = t->straggle_ms[1];
    f->samples = t->n_rounds;
    f->converged = t->converged;
    f->speedup = f->baseline_ms / f->submission_ms;
    f->gbps = spec->fast.bytes(timed->c.dims) / (f->submission_ms * 1e6);
    f->copy_gbps = t->copy_bytes / (f->copy_ms * 1e6);
    f->gflops = spec->fast.flops ? spec->fast.flops(timed->c.dims) / (f->submission_ms * 1e6)
                                 : NAN;
    f->roofline = spec->fast.roof == ROOF_VENDOR ? f->vendor_ms / f->submission_ms
                  : spec->fast.roof == ROOF_COPY ? f->gbps / f->copy_gbps
                                                 : NAN;
}

static int run_timing_child(const grade_ctx *g, proto_call *calls, response *rsp,
                            iso_result *ir, char *log_path, size_t log_size)
{
    const lab_spec *spec = g->spec;
    char req_path[512], rsp_path[512];
    snprintf(req_path, sizeof req_path, "%s/fast.req", g->scratch);
    snprintf(rsp_path, sizeof rsp_path, "%s/fast.rsp", g->scratch);
    snprintf(log_path, log_size, "%s/fast.log", g->scratch);
    unlink(rsp_path);
    unlink(log_path);
    proto_request req;
    request_init(&req, g, MODE_TIMING, TIMING_CALLS);
    if (write_request(req_path, &req, calls) != 0) return -1;
    char *argv[] = {(char *)g->runner, req_path, rsp_path, NULL};
    double limit = spec->time_limit_s.fast > 0 ? spec->time_limit_s.fast : 180;
    if (iso_run(argv, log_path, limit, ir) != 0) return -1;
    response_read(rsp_path, spec, calls, TIMING_CALLS, req.max_rounds, rsp);
    return 0;
}

/* The kernels' registers and spills, and the lab's limits on them. A
 * limit fails the stage even when the time is good: the lesson is the
 * registers. */
static void check_resources(const grade_ctx *g, stage_result *st)
{
    const lab_spec *spec = g->spec;
    if (!g->has_resources) return;
    if (g->resources.n == 0) {
        sb_printf(&st->details, "the compiler reported no kernels for your file\n");
        return;
    }
    res_describe(&g->resources, g->device.regs_per_sm, g->device.max_warps_per_sm,
                 &st->details);
    char why[400];
    if (res_check(&g->resources, spec->resources.max_registers, spec->resources.no_spills, why,
                  sizeof why))
        return;
    if (st->status == ST_PASS) {
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary, "%s", why);
    } else {
        sb_printf(&st->details, "also: %s\n", why);
    }
    sb_printf(&st->details, "hint: %s\n",
              hint_or(spec->hints.resources, "see the lab README on registers and occupancy"));
}

/* The two checked calls after timing (make_timing_calls): fresh inputs,
 * then the same inputs with a few elements exchanged, on the same buffers.
 * The second catches an answer remembered from the first. */
static int rechecks_pass(const grade_ctx *g, const proto_call *calls, const response *rsp,
                         const iso_result *ir, stage_result *st)
{
    static const char *what[TIMING_CALLS] = {
        NULL, "on fresh inputs after timing",
        "after a few input elements were exchanged"};
    for (int i = 1; i < TIMING_CALLS; i++) {
        const call_record *rec = &rsp->calls[i];
        if (!rec->finished) {
            char how[96];
            iso_describe(ir, how, sizeof how);
            st->status = ST_FAIL;
            snprintf(st->summary, sizeof st->summary, "the re-check %s did not finish (%s)",
                     what[i], how);
            return 0;
        }
        if (!judge_call(g, &calls[i], rec, i, st)) {
            char first[sizeof st->summary];
            snprintf(first, sizeof first, "%s", st->summary);
            snprintf(st->summary, sizeof st->summary, "wrong %s: %s", what[i], first);
            if (i == 2)
                sb_printf(&st->details,
                          "hint: the call before had the same buffers and almost the same inputs "
                          "(%d pairs of elements of every input exchanged); an answer kept from "
                          "an earlier call is stale: compute it on every call\n",
                          calls[i].n_swaps);
            return 0;
        }
    }
    return 1;
}

void stage_fast(const grade_ctx *g, stage_result *st)
{
    const lab_spec *spec = g->spec;
    proto_call calls[TIMING_CALLS];
    make_timing_calls(g, 4000, calls);

    response rsp;
    iso_result ir;
    char log_path[512];
    if (run_timing_child(g, calls, &rsp, &ir, log_path, sizeof log_path) != 0) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary, "cannot run the timing in %s", g->scratch);
        return;
    }
    if (response_malformed(&rsp, st) || sandbox_stopped(&rsp, st, "the timing")) {
        response_free(&rsp);
        return;
    }
    if (!rsp.has_timing) {
        char how[96];
        iso_describe(&ir, how, sizeof how);
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary, "the timing run stopped (%s)%s%s", how,
                 rsp.has_fatal ? ": " : "", rsp.has_fatal ? rsp.fatal.message : "");
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(spec->hints.timeout, "the fast stage calls your code hundreds "
                                               "of times on a large input"));
        response_free(&rsp);
        return;
    }
    /* Correctness first: a fast wrong answer is not fast. */
    if (!rechecks_pass(g, calls, &rsp, &ir, st)) {
        response_free(&rsp);
        return;
    }

    fast_figures *f = &st->fast;
    figures(g, &calls[0], &rsp, f);
    st->has_fast = 1;
    response_free(&rsp);

    char bar[32];
    text_bar(spec->fast.roof == ROOF_NONE ? f->baseline_ms / f->submission_ms / 10 : f->roofline,
             bar, sizeof bar);
    char figs[200];
    if (spec->fast.roof == ROOF_VENDOR)
        snprintf(figs, sizeof figs, "%.0f %s = %.1f%% of the vendor library", f->gflops,
                 rate_unit(spec), 100 * f->roofline);
    else if (spec->fast.roof == ROOF_COPY)
        snprintf(figs, sizeof figs, "%.0f GB/s = %.1f%% of copy (%.0f GB/s)", f->gbps,
                 100 * f->roofline, f->copy_gbps);
    else if (spec->fast.flops)
        snprintf(figs, sizeof figs, "%.1f %s", f->gflops, rate_unit(spec));
    else
        snprintf(figs, sizeof figs, "%.4f ms per call", f->submission_ms);
    sb_printf(&st->details, "%s %s; %.4f ms per call, baseline (%s) %.4f ms\n", bar, figs,
              f->submission_ms, spec->fast.baseline ? spec->fast.baseline : "naive",
              f->baseline_ms);
    sb_printf(&st->details, "median of %d samples, %s; thresholds: %s\n", f->samples,
              f->converged ? "converged (each median within 0.5%)"
                           : "NOT converged: the GPU may be busy or throttling",
              spec->fast.calibration ? spec->fast.calibration : "see the lab README");

    if (f->straggle_ms > fmax(STRAGGLE_MIN_MS, 0.5 * f->submission_ms)) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary,
                 "your code kept the GPU busy %.3f ms after the timed stream was done "
                 "(timed: %.3f ms): is work launched on another stream?",
                 f->straggle_ms, f->submission_ms);
        sb_printf(&st->details, "hint: launch every kernel and copy on the stream you are "
                                "given (or make that stream wait for yours with an event)\n");
        return;
    }
    /* Whatever the lab's roof, no call can move its bytes faster than the
     * memory can: that catches skipped work and work on another stream in
     * speedup-only labs too. */
    if (f->gbps > PHYSICAL_SLACK * f->copy_gbps) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary,
                 "%.0f GB/s is faster than the GPU can move memory (copy: %.0f GB/s): "
                 "is work skipped, cached, or launched on another stream?",
                 f->gbps, f->copy_gbps);
        sb_printf(&st->details, "hint: launch on the stream you are given, and do "
                                "the whole computation on every call\n");
        return;
    }
    int gated_roof = spec->fast.roof != ROOF_NONE;
    int fast_enough = (!gated_roof || f->roofline >= spec->fast.min_roofline) &&
                      f->speedup >= spec->fast.min_speedup;
    st->status = fast_enough ? ST_PASS : ST_FAIL;
    char needs[48] = "";
    if (gated_roof) snprintf(needs, sizeof needs, " (needs >= %.0f%%)", 100 * spec->fast.min_roofline);
    snprintf(st->summary, sizeof st->summary, "%s%s, %.2fx over %s (needs >= %.3gx)", figs, needs,
             f->speedup, spec->fast.baseline ? spec->fast.baseline : "the baseline",
             spec->fast.min_speedup);
    if (!fast_enough)
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(spec->hints.too_slow, "profile it (see the lab README) "
                                                "and compare with the solution ladder"));
    check_resources(g, st);
}
