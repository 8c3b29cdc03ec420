/* fast.c - the fast stage: speedup over the naive baseline and fraction of
 * the roofline, both measured in the same run on the same GPU. Every timed
 * call of the submission is checked against the baseline's answer on the
 * same inputs (grader/runner/verify.cu), and the answer is re-checked on
 * fresh inputs against the CPU reference after timing.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "fast.h"
#include "fast_rules.h"
#include "gpu_clock.h"
#include "gpu_lock.h"
#include "grade.h"
#include "isolate.h"
#include "judge.h"
#include "placement.h"
#include "report.h"
#include "requests.h"
#include "resources.h"
#include "response.h"
#include "stages.h"
#include "stats.h"

/* How far a timed float output may stray from the baseline's answer on the
 * same inputs: |got - expected| <= agreement * (|expected| + rms of the
 * baseline's output). Both are right to within the lab's tolerance, so
 * they differ by rounding (at most 1.6e-7 of the scale for the reference
 * solutions on the H100); an element skipped or half computed is off by
 * far more. The precise check is the re-check against the CPU. A lab may
 * loosen it (lab_spec.fast.timed_agreement) when its baseline is itself
 * less accurate. */
static const double TIMED_AGREEMENT = 1e-3;

static double timed_agreement(const lab_spec *spec)
{
    return spec->fast.timed_agreement > 0 ? spec->fast.timed_agreement : TIMED_AGREEMENT;
}

const char *rate_unit(const lab_spec *spec)
{
    return spec->fast.rate_unit ? spec->fast.rate_unit : "GFLOP/s";
}

/* How the sampling ended, for the report. */
static const char *sampling(const fast_figures *f)
{
    static char sure[200];
    if (f->decided == DECIDED_PASS && !f->converged && f->samples < f->min_rounds) {
        snprintf(sure, sizeof sure, "stopped early: after %d rounds every rule met %g times "
                                    "over, more samples could not change the verdict",
                 f->samples, FAST_DECIDE_MARGIN);
        return sure;
    }
    if (f->decided == DECIDED_PASS && !f->converged) {
        snprintf(sure, sizeof sure, "stopped early: every median within %g%% and every rule "
                                    "met with %g%% to spare, more samples could not change the "
                                    "verdict", 100 * FAST_SURE_RSE, 100 * (FAST_SURE_MARGIN - 1));
        return sure;
    }
    if (f->converged) return "converged (each median within 0.5%)";
    switch (f->decided) {
    case DECIDED_FAR_BELOW:
        return "stopped early: far below a bar, more samples could not change the verdict";
    case DECIDED_IMPOSSIBLE:
        return "stopped early: far beyond what the GPU can do";
    case DECIDED_STRAGGLE:
        return "stopped early: work kept running far longer than allowed after the timed stream";
    default:
        return "NOT converged: the GPU may be busy or throttling";
    }
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

static void figures(const grade_ctx *g, const fast_runner *r, const response *rsp,
                    fast_figures *f)
{
    const proto_call *timed = &r->calls[0];
    const lab_spec *spec = g->spec;
    const proto_timing *t = &rsp->timing;
    size_t n = (size_t)t->n_rounds;
    double med[PROTO_MAX_ITEMS] = {0};
    for (int i = 0; i < t->n_items; i++) med[i] = stats_median(rsp->samples + i * n, n);
    f->baseline_ms = med[0];
    f->submission_ms = med[1];
    f->copy_ms = med[2];
    /* Items: baseline, submission, copy, then the vendor library if the lab
     * has one, then its parts if it has any. */
    int before_parts = t->n_parts > 0 ? t->first_part : t->n_items;
    f->vendor_ms = before_parts > 3 ? med[3] : NAN;
    /* Beyond the trusted items' (all but item 1, the submission). */
    double harness = fast_harness_straggle_ms(t->straggle_ms, t->n_items);
    f->straggle_ms = fmax(0.0, t->straggle_ms[1] - harness);
    f->harness_straggle_ms = harness;
    f->samples = t->n_rounds;
    f->min_rounds = r->min_rounds;
    f->converged = t->converged;
    f->decided = t->decided;
    const double *series[PROTO_MAX_ITEMS];
    for (int i = 0; i < t->n_items; i++) series[i] = rsp->samples + i * n;
    f->sure_precise = stats_converged(series, t->n_items, n, 1, FAST_SURE_RSE);
    f->speedup = f->baseline_ms / f->submission_ms;
    f->gbps = spec->fast.bytes(timed->c.dims) / (f->submission_ms * 1e6);
    f->copy_gbps = t->copy_bytes / (f->copy_ms * 1e6);
    f->gflops = spec->fast.flops ? spec->fast.flops(timed->c.dims) / (f->submission_ms * 1e6)
                                 : NAN;
    f->peak_flops = fast_peak_checked(spec) ? t->peak_flops : 0;
    f->n_parts = t->n_parts;
    for (int p = 0; p < t->n_parts; p++) {
        f->parts_ms[p] = med[t->first_part + p];
        snprintf(f->part_names[p], PROTO_NAME_LEN, "%s", t->item_names[t->first_part + p]);
    }
    f->bound_ms = stats_slowest(f->parts_ms, (size_t)f->n_parts);
    f->issue_roof_ms = issue_roof_ms(g, timed->c.dims);
    f->issue_fraction = f->issue_roof_ms > 0 ? f->issue_roof_ms / f->submission_ms : NAN;
    f->roofline = spec->fast.roof == ROOF_VENDOR ? f->vendor_ms / f->submission_ms
                  : spec->fast.roof == ROOF_COPY ? f->gbps / f->copy_gbps
                  : spec->fast.roof == ROOF_PARTS ? f->bound_ms / f->submission_ms
                                                 : NAN;
}

double issue_roof_ms(const grade_ctx *g, const int64_t *dims)
{
    const lab_spec *spec = g->spec;
    double per_second = (double)g->device.sm_count * SM_SCHEDULERS * g->device.clock_mhz * 1e6;
    if (!spec->fast.warp_instructions || per_second <= 0) return 0;
    return spec->fast.warp_instructions(dims) / per_second * 1e3;
}

void issue_roof_text(const grade_ctx *g, const int64_t *dims, char *buf, size_t size)
{
    snprintf(buf, size,
             "the reference's %.1f million warp instructions at the issue roof (%d SMs x %d "
             "schedulers x %d MHz) %.4f ms",
             g->spec->fast.warp_instructions(dims) / 1e6, g->device.sm_count, SM_SCHEDULERS,
             g->device.clock_mhz, issue_roof_ms(g, dims));
}

void bound_text(const char (*names)[PROTO_NAME_LEN], const double *ms, int n, char *buf,
                size_t size)
{
    if (n == 1) { /* no max() of one */
        snprintf(buf, size, "%s alone %.4f ms", names[0], ms[0]);
        return;
    }
    size_t at = (size_t)snprintf(buf, size, "max(");
    for (int p = 0; p < n && at < size; p++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s %.4f ms", p ? ", " : "", names[p], ms[p]);
    if (at < size) snprintf(buf + at, size - at, ") = %.4f ms", stats_slowest(ms, (size_t)n));
}

/* The fast stage's time limit: the lab's, or 180 s. */
static double fast_limit_s(const lab_spec *spec)
{
    return spec->time_limit_s.fast > 0 ? spec->time_limit_s.fast : 180;
}

int fast_start(const grade_ctx *g, fast_runner *r)
{
    const lab_spec *spec = g->spec;
    r->waiting = 0;
    const char *name = r->second ? "fast-second" : "fast";
    snprintf(r->req_path, sizeof r->req_path, "%s/%s.req", g->scratch, name);
    snprintf(r->rsp_path, sizeof r->rsp_path, "%s/%s.rsp", g->scratch, name);
    snprintf(r->log_path, sizeof r->log_path, "%s/%s.log", g->scratch, name);
    unlink(r->rsp_path);
    unlink(r->log_path);
    make_timing_calls(g, r->second ? 4500 : 4000,
                      r->second ? &spec->fast.second.timed : &spec->fast.timed, r->calls);
    proto_request req;
    request_init(&req, g, MODE_TIMING, TIMING_CALLS);
    req.agreement = timed_agreement(spec);
    r->min_rounds = req.min_rounds;
    r->max_rounds = req.max_rounds;
    if (write_request(r->req_path, &req, r->calls) != 0) return -1;
    char *argv[] = {(char *)g->runner, r->req_path, r->rsp_path, NULL};
    iso_limits limits = {fast_limit_s(spec), iso_memory_limit(), 0, 0};
    /* Both ways: the runner says when its inputs are made, we say go. */
    if (iso_start_waiting(&r->job, argv, r->log_path, &limits, &r->go) != 0) return -1;
    r->waiting = 1;
    /* The CPU computes the re-checks' answers while the GPU is busy. */
    for (int i = 1; i < TIMING_CALLS; i++)
        if (!r->ahead[i]) r->ahead[i] = judge_ahead_start(spec, &r->calls[i]);
    /* Starting NVML takes a moment: not while holding the GPU. */
    gpu_clock warm;
    gpu_clock_read(g->device.pci_bus_id, &warm);
    return 0;
}

void fast_abandon(fast_runner *r)
{
    for (int i = 0; i < TIMING_CALLS; i++) {
        judge_ahead_free(r->ahead[i]);
        r->ahead[i] = NULL;
    }
    if (!r->waiting) return;
    close(r->go);
    iso_cancel(&r->job, 1);
    r->waiting = 0;
}

double fast_run_alone(const grade_ctx *g, iso_job *job, int word, gpu_clock *before,
                      gpu_clock *after)
{
    gpu_lock lock;
    double waited = g->gpu_lock_dir ? gpu_lock_wait(g->gpu_lock_dir, GPU_EXCLUSIVE, &lock) : 0;
    if (before) gpu_clock_read(g->device.pci_bus_id, before);
    iso_go(job, word);
    iso_wait(job, 1, 0);
    if (after) gpu_clock_read(g->device.pci_bus_id, after);
    if (g->gpu_lock_dir) gpu_lock_release(&lock);
    return waited;
}

/* One timing run, with the GPU to ourselves only while it uses it: the
 * runner (started by fast_start) has made its inputs on the CPU while this
 * grading waited for the GPU (other gradings may be timing), then the
 * clocks are read, the runner is told to go (a byte on its stdin; its time
 * limit counts from then), and after it ended the clocks are read again
 * and the GPU is let go, before any judging. */
static int run_timing_child(const grade_ctx *g, fast_runner *r, response *rsp, iso_result *ir,
                            gpu_clock *before, gpu_clock *after, stage_result *st)
{
    const lab_spec *spec = g->spec;
    if (!r->waiting && fast_start(g, r) != 0) return -1;
    /* Only a runner ready to time takes the GPU from the others. */
    double inputs = iso_now_s();
    iso_wait_ready(r->go, fast_limit_s(spec));
    report_add_time(st, "inputs", iso_now_s() - inputs);
    double waited = fast_run_alone(g, &r->job, r->go, before, after);
    r->waiting = 0;
    *ir = r->job.result;
    report_add_wait(st, waited); /* its seconds are counted by the caller */
    response_read(r->rsp_path, spec, r->calls, TIMING_CALLS, r->max_rounds, rsp);
    /* The runner's own clock splits its run: warm-up and samples, and the
     * rest (starting CUDA, uploading the inputs, the re-checks). */
    double timing_s = rsp->has_timing ? (rsp->timing.warmup_ms + rsp->timing.sampling_ms) / 1e3 : 0;
    if (!(timing_s >= 0 && timing_s <= ir->wall_s)) timing_s = 0; /* the student's process wrote it */
    report_add_time(st, "setup", ir->wall_s - timing_s);
    report_add_time(st, "timing", timing_s);
    return 0;
}

/* The copy's median far below the memory's peak (fast_rules.h): the memory
 * was shared with something nvidia-smi does not show. */
static int copy_disturbed(const response *rsp, char *why, size_t size)
{
    const proto_timing *t = &rsp->timing;
    if (!rsp->has_timing || t->n_rounds < 1) return 0;
    for (int i = 0; i < t->n_items; i++) {
        if (strcmp(t->item_names[i], "copy") != 0) continue;
        double ms = stats_median(rsp->samples + (size_t)i * t->n_rounds, (size_t)t->n_rounds);
        double rate = ms > 0 ? t->copy_bytes / (ms * 1e-3) : 0;
        if (!fast_copy_disturbed(rate, t->peak_dram)) return 0;
        snprintf(why, size, "a copy moved %.0f GB/s, %.0f%% of the memory's peak of %.0f GB/s",
                 rate / 1e9, 100 * rate / t->peak_dram, t->peak_dram / 1e9);
        return 1;
    }
    return 0;
}

/* Run the timing child with the GPU's clocks read before and after; when
 * the GPU was throttled or shared (another process seen, or a copy far
 * slower than the memory can go), once more, then give up with
 * "unreliable timing" (the stage is then neither passed nor failed). */
static int timed_on_a_quiet_gpu(const grade_ctx *g, fast_runner *r, response *rsp,
                                iso_result *ir, gpu_clock *before, gpu_clock *after,
                                stage_result *st)
{
    char why[256] = "";
    for (int attempt = 1; attempt <= 2; attempt++) {
        if (attempt > 1) response_free(rsp);
        if (run_timing_child(g, r, rsp, ir, before, after, st) != 0) {
            st->status = ST_ERROR;
            snprintf(st->summary, sizeof st->summary, "cannot run the timing in %s",
                     g->scratch);
            return 0;
        }
        if (!gpu_clock_disturbed(before, after, why, sizeof why) &&
            !copy_disturbed(rsp, why, sizeof why))
            return 1;
    }
    response_free(rsp);
    char b[200], a[200];
    gpu_clock_describe(before, b, sizeof b);
    gpu_clock_describe(after, a, sizeof a);
    st->status = ST_ERROR;
    st->unreliable = 1;
    snprintf(st->summary, sizeof st->summary,
             "unreliable timing: the GPU was disturbed (%s) in two runs; grade again on a quiet "
             "GPU", why);
    sb_printf(&st->details, "GPU before timing: %s\nGPU after timing: %s\n", b, a);
    return 0;
}

/* Where a slow kernel's reasons are: the lab's counters (make profile,
 * grader/predict/profile.sh), run by the student on their own file. */
static void suggest_profile(const lab_spec *spec, stage_result *st)
{
    if (!spec->counters[0].label) return;
    sb_printf(&st->details,
              "why: `make profile LAB=%.2s` shows the GPU's counters for your kernels beside the "
              "baseline's and the reference's (%s, ...), each with what it says\n",
              spec->id, spec->counters[0].label);
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
static int rechecks_pass(const grade_ctx *g, const fast_runner *r, const response *rsp,
                         const iso_result *ir, stage_result *st)
{
    static const char *what[TIMING_CALLS] = {
        NULL, "on fresh inputs after timing",
        "after a few input elements were exchanged"};
    const proto_call *calls = r->calls;
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
        if (!judge_call_ahead(g, &calls[i], rec, i, r->ahead[i], st)) {
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

/* The first wrong element of a float output is within 1% of the
 * baseline's: the arithmetic, not the indexing, differs. */
static int close_but_not_float(const lab_spec *spec, const proto_timed_check *c)
{
    lab_elem e = spec->buffers[c->first_buffer].elem;
    return !c->first_unwritten && (e == ELEM_F32 || e == ELEM_F64) && isfinite(c->got) &&
           isfinite(c->expected) && fabs(c->got - c->expected) <= 1e-2 * fabs(c->expected);
}

/* Every timed call of the submission, checked by the runner's trusted
 * kernels against the baseline on the same inputs: all written, all
 * agreeing, inputs untouched. */
static int timed_calls_right(const grade_ctx *g, const proto_timing *t, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const proto_timed_check *c = &t->check;
    if (c->rounds_checked != t->n_rounds) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary,
                 "only %d of the %d timed calls were checked: the grader's run was disturbed",
                 c->rounds_checked, t->n_rounds);
        return 0;
    }
    if (c->rounds_wrong > 0) {
        const char *name = spec->buffers[c->first_buffer].name;
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary,
                 "the timed calls computed a wrong answer: %d of %d timed calls differ from "
                 "the baseline's answer on the same inputs",
                 c->rounds_wrong, c->rounds_checked);
        sb_printf(&st->details,
                  "in timed call %d: %lld element(s) never written, %lld written but wrong; "
                  "first: %s[%lld] = ",
                  c->first_wrong_round + 1, (long long)c->unwritten, (long long)c->disagreeing,
                  name, (long long)c->first_index);
        if (c->first_unwritten)
            sb_printf(&st->details, "never written");
        else
            sb_printf(&st->details, "%.9g", c->got);
        sb_printf(&st->details, ", the baseline's answer %.9g", c->expected);
        double ulps = fast_timed_ulps(lab_buffer_tolerance(spec, c->first_buffer));
        int f32 = spec->buffers[c->first_buffer].elem == ELEM_F32;
        if (ulps >= 0 && !c->first_unwritten)
            sb_printf(&st->details, " (%.0f ulp apart; two right answers are at most %.0f)",
                      f32 ? cmp_ulps_f32((float)c->got, (float)c->expected)
                          : cmp_ulps_f64(c->got, c->expected),
                      ulps);
        sb_printf(&st->details, "\n");
        if (close_but_not_float(spec, c))
            sb_printf(&st->details,
                      "hint: so close an answer is lower precision, not a bug in the "
                      "indexing: TF32, half or bfloat16 arithmetic (tensor cores) or a "
                      "fast, less accurate intrinsic at the timed size, where the lab "
                      "asks for float throughout\n");
        sb_printf(&st->details,
                  "hint: every timed call is checked, at the timed size, on inputs that "
                  "change between calls: do the whole computation on every call, whatever "
                  "the size, the pointers or how often you are called\n");
        return 0;
    }
    if (c->rounds_inputs_changed > 0) {
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary,
                 "the timed calls changed the inputs (%d of %d, first in timed call %d)",
                 c->rounds_inputs_changed, c->rounds_checked, c->first_changed_round + 1);
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(spec->hints.input_changed,
                          "inputs are read-only: keep partial results in your own memory"));
        return 0;
    }
    return 1;
}

/* Figures no GPU can reach mean the grader did not measure the work. */
static int impossible(stage_result *st, const char *what)
{
    st->status = ST_ERROR;
    snprintf(st->summary, sizeof st->summary,
             "faster than the hardware can go (%s): the grader could not have measured the "
             "work", what);
    sb_printf(&st->details, "hint: launch every kernel on the stream you are given, and do "
                            "the whole computation on every call\n");
    return 1;
}

static int physically_impossible(const lab_spec *spec, const fast_figures *f, stage_result *st)
{
    char what[200];
    /* Whatever the lab's roof, no call can move its bytes faster than the
     * memory can: that catches skipped work and work on another stream in
     * speedup-only labs too. */
    if (f->gbps > FAST_PHYSICAL_SLACK * f->copy_gbps) {
        snprintf(what, sizeof what, "%.0f GB/s, while a copy moves %.0f GB/s", f->gbps,
                 f->copy_gbps);
        return impossible(st, what);
    }
    if (f->peak_flops > 0 && f->gflops * 1e9 > FAST_PEAK_FLOPS_SLACK * f->peak_flops) {
        snprintf(what, sizeof what, "%.0f GFLOP/s, while this GPU's %s peak is %.0f GFLOP/s",
                 f->gflops, lab_peak_name(spec->fast.peak), f->peak_flops / 1e9);
        return impossible(st, what);
    }
    if (spec->fast.max_speedup > 0 && f->speedup > spec->fast.max_speedup) {
        snprintf(what, sizeof what, "%.2fx over the baseline, past this lab's ceiling of %.0fx",
                 f->speedup, spec->fast.max_speedup);
        return impossible(st, what);
    }
    return 0;
}

/* One timing run, judged for what it must have before any figure counts:
 * a well-formed response, no call stopped by the sandbox, a timing record,
 * every timed call and both re-checks right. 1 with *rsp to free; 0 with
 * the stage's verdict set. */
static int timed_and_right(const grade_ctx *g, fast_runner *r, stage_result *st, response *rsp,
                           iso_result *ir, gpu_clock *before, gpu_clock *after)
{
    const lab_spec *spec = g->spec;
    if (!timed_on_a_quiet_gpu(g, r, rsp, ir, before, after, st)) return 0;
    if (response_malformed(rsp, st) || sandbox_stopped(rsp, ir, st, "the timing")) {
        response_free(rsp);
        return 0;
    }
    if (!rsp->has_timing) {
        char how[96];
        iso_describe(ir, how, sizeof how);
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary, "the timing run stopped (%s)%s%s", how,
                 rsp->has_fatal ? ": " : "", rsp->has_fatal ? rsp->fatal.message : "");
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(spec->hints.timeout, "the fast stage calls your code hundreds "
                                               "of times on a large input"));
        response_free(rsp);
        return 0;
    }
    /* Correctness first: a fast wrong answer is not fast. */
    double judging = iso_now_s();
    int right = timed_calls_right(g, &rsp->timing, st) && rechecks_pass(g, r, rsp, ir, st);
    report_add_time(st, "checks", iso_now_s() - judging);
    if (!right) response_free(rsp);
    return right;
}

/* Work left running after the timed stream was done: an error, not a
 * verdict (1 when it was so). */
static int straggled(const fast_figures *f, stage_result *st)
{
    if (f->straggle_ms <= fast_straggle_allowed_ms(f->submission_ms)) return 0;
    st->status = ST_ERROR;
    snprintf(st->summary, sizeof st->summary,
             "your code kept the GPU busy %.3f ms after the timed stream was done "
             "(timed: %.3f ms): is work launched on another stream?",
             f->straggle_ms, f->submission_ms);
    sb_printf(&st->details, "hint: launch every kernel and copy on the stream you are "
                            "given (or make that stream wait for yours with an event)\n");
    return 1;
}

/* Whether a timing that stopped on a sure pass (fast_sure_pass in
 * fast_rules.h) shows one in the samples the grader was sent. A runner
 * that claims more was not the grader's own. */
static int sure_pass_shown(const lab_spec *spec, const fast_figures *f, double speedup_bar,
                           double roof_bar)
{
    double of_peak = f->peak_flops > 0 ? f->gflops * 1e9 / f->peak_flops : 0;
    double headroom = fast_headroom(f->speedup, speedup_bar, spec->fast.max_speedup, f->roofline,
                                    roof_bar, f->gbps / f->copy_gbps, of_peak, f->straggle_ms,
                                    f->submission_ms);
    return fast_sure_pass(f->samples, f->samples >= f->min_rounds && f->sure_precise, headroom);
}

int fast_stop_contradicts(const lab_spec *spec, const fast_figures *f, int passes,
                          double speedup_bar, double roof_bar)
{
    if (f->decided == DECIDED_NOT) return 0;
    if (f->decided == DECIDED_PASS)
        return !passes || !sure_pass_shown(spec, f, speedup_bar, roof_bar);
    return passes;
}

/* The spec's second size, once the first has passed: timed and checked
 * the same way, judged on its speedup alone (its figures are a line of
 * the details; a failure there fails the stage). */
static void second_size(const grade_ctx *g, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const char *what = spec->fast.second.what ? spec->fast.second.what : "the second size";
    fast_runner r;
    memset(&r, 0, sizeof r);
    r.second = 1;
    response rsp;
    iso_result ir;
    gpu_clock before, after;
    stage_result at;
    memset(&at, 0, sizeof at);
    int ok = timed_and_right(g, &r, &at, &rsp, &ir, &before, &after);
    fast_abandon(&r);
    fast_figures f;
    memset(&f, 0, sizeof f);
    if (ok) {
        figures(g, &r, &rsp, &f);
        response_free(&rsp);
        ok = !straggled(&f, &at) && !physically_impossible(spec, &f, &at);
        if (ok) {
            char rate[120] = "";
            if (spec->fast.flops && isfinite(f.gflops)) {
                int n = snprintf(rate, sizeof rate, "%.0f %s", f.gflops, rate_unit(spec));
                if (f.peak_flops > 0 && n > 0 && (size_t)n < sizeof rate)
                    snprintf(rate + n, sizeof rate - (size_t)n, " (%.0f%% of the %s peak)",
                             100 * f.gflops * 1e9 / f.peak_flops, lab_peak_name(spec->fast.peak));
            } else {
                snprintf(rate, sizeof rate, "%.0f GB/s", f.gbps);
            }
            at.status = f.speedup >= spec->fast.second.min_speedup ? ST_PASS : ST_FAIL;
            snprintf(at.summary, sizeof at.summary, "%s, %.2fx over the baseline (needs >= %.3gx)",
                     rate, f.speedup, spec->fast.second.min_speedup);
            if (fast_stop_contradicts(spec, &f, at.status == ST_PASS, spec->fast.second.min_speedup,
                                      0)) { /* not the runner's own */
                at.status = ST_ERROR;
                snprintf(at.summary, sizeof at.summary,
                         "the timing stopped early for a verdict its figures do not show");
            }
        }
    }
    /* Its seconds join the stage's, part by part. */
    for (int i = 0; i < at.n_parts; i++) report_add_time(st, at.parts[i].name, at.parts[i].seconds);
    sb_printf(&st->details, "at %s: %s; %.4f ms per call, baseline %.4f ms, median of %d samples, "
                            "%s\n", what, at.summary, f.submission_ms, f.baseline_ms, f.samples,
              ok ? sampling(&f) : "not timed");
    if (at.details.s && at.details.s[0]) sb_printf(&st->details, "%s", at.details.s);
    if (at.status != ST_PASS) {
        st->status = at.status == ST_ERROR ? ST_ERROR : ST_FAIL;
        st->unreliable = at.unreliable;
        st->malformed = at.malformed;
        snprintf(st->summary, sizeof st->summary, "at %s: %s", what, at.summary);
        if (at.status == ST_FAIL) {
            sb_printf(&st->details, "hint: %s\n",
                      hint_or(spec->hints.too_slow, "profile it at that size too"));
            suggest_profile(spec, st);
        }
    }
    sb_free(&at.details);
}

void stage_fast(const grade_ctx *g, fast_runner *r, stage_result *st)
{
    const lab_spec *spec = g->spec;
    response rsp;
    iso_result ir;
    gpu_clock before, after;
    if (!timed_and_right(g, r, st, &rsp, &ir, &before, &after)) return;

    fast_figures *f = &st->fast;
    figures(g, r, &rsp, f);
    st->has_fast = 1;
    f->timed_checked = rsp.timing.check.rounds_checked;
    f->timed_worst_difference = rsp.timing.check.worst_ratio;
    f->clock_before = before;
    f->clock_after = after;
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
    else if (spec->fast.roof == ROOF_PARTS)
        snprintf(figs, sizeof figs, "%.0f GB/s, %.4f ms = %.1f%% of the bound (%.4f ms)", f->gbps,
                 f->submission_ms, 100 * f->roofline, f->bound_ms);
    else if (spec->fast.flops)
        snprintf(figs, sizeof figs, "%.1f %s", f->gflops, rate_unit(spec));
    else
        snprintf(figs, sizeof figs, "%.4f ms per call", f->submission_ms);
    sb_printf(&st->details, "%s %s; %.4f ms per call, baseline (%s) %.4f ms\n", bar, figs,
              f->submission_ms, spec->fast.baseline ? spec->fast.baseline : "naive",
              f->baseline_ms);
    /* A vendor library that is not the roof: a figure to compare with. */
    if (spec->fast.roof != ROOF_VENDOR && isfinite(f->vendor_ms) && f->vendor_ms > 0) {
        const char *who = spec->fast.vendor ? spec->fast.vendor : "the vendor library";
        if (spec->fast.roof == ROOF_COPY)
            sb_printf(&st->details, "%s on the same inputs: %.4f ms per call, %.1f%% of copy; "
                      "yours runs at %.0f%% of its speed\n", who, f->vendor_ms,
                      100 * f->roofline * f->submission_ms / f->vendor_ms,
                      100 * f->vendor_ms / f->submission_ms);
        else
            sb_printf(&st->details, "%s on the same inputs: %.4f ms per call; yours runs at "
                      "%.0f%% of its speed\n", who, f->vendor_ms,
                      100 * f->vendor_ms / f->submission_ms);
    }
    if (f->issue_roof_ms > 0) {
        char roof[200];
        issue_roof_text(g, r->calls[0].c.dims, roof, sizeof roof);
        sb_printf(&st->details, "%s: yours runs at %.0f%% of that (information, not a bar)\n",
                  roof, 100 * f->issue_fraction);
    }
    if (spec->fast.roof == ROOF_PARTS) {
        char parts[400];
        bound_text(f->part_names, f->parts_ms, f->n_parts, parts, sizeof parts);
        sb_printf(&st->details, "the bound, timed in this run: %s; the copy %.0f GB/s\n", parts,
                  f->copy_gbps);
    }
    ladder_times ladder;
    if (g->ladder_dir && ladder_times_for(g->ladder_dir, g->device.name, &ladder) == 0) {
        char where[400];
        ladder_place(&ladder, g->device.name, f->submission_ms, where, sizeof where);
        sb_printf(&st->details, "on the lab's ladder: %s\n", where);
        if (strcmp(ladder.device, g->device.name)) {
            char file[160];
            ladder_model_file(g->device.name, file, sizeof file);
            sb_printf(&st->details, "    (`make ladder LAB=%.2s RESULTS=labs/%s/slides/%s` times "
                                    "it on this GPU model, for placements here)\n",
                      spec->id, spec->id, file);
        }
    }
    sb_printf(&st->details, "median of %d samples, %s; thresholds: %s\n", f->samples,
              sampling(f), spec->fast.calibration ? spec->fast.calibration : "see the lab README");
    sb_printf(&st->details, "all %d timed calls checked against the baseline on the same inputs: "
                            "every element written, largest difference %.2g of the output's "
                            "scale (allowed %.0e)",
              f->timed_checked, f->timed_worst_difference, timed_agreement(spec));
    for (int b = 0; b < spec->n_buffers; b++) {
        double ulps = fast_timed_ulps(lab_buffer_tolerance(spec, b));
        if (spec->buffers[b].role == BUF_OUTPUT && ulps >= 0)
            sb_printf(&st->details, "; %s within %.0f ulp of it", spec->buffers[b].name, ulps);
    }
    sb_printf(&st->details, "\n");
    char clock_before[200], clock_after[200];
    gpu_clock_describe(&before, clock_before, sizeof clock_before);
    gpu_clock_describe(&after, clock_after, sizeof clock_after);
    sb_printf(&st->details, "GPU before timing: %s; after: %s\n", clock_before, clock_after);

    if (straggled(f, st) || physically_impossible(spec, f, st)) return;
    double roof_bar = lab_roof_bar(spec);
    int fast_enough = (roof_bar <= 0 || f->roofline >= roof_bar) &&  /* NaN without a roof */
                      f->speedup >= spec->fast.min_speedup;
    st->status = fast_enough ? ST_PASS : ST_FAIL;
    char needs[48] = "";
    if (roof_bar > 0) snprintf(needs, sizeof needs, " (needs >= %.0f%%)", 100 * roof_bar);
    snprintf(st->summary, sizeof st->summary, "%s%s, %.2fx over %s (needs >= %.3gx)", figs, needs,
             f->speedup, spec->fast.baseline ? spec->fast.baseline : "the baseline",
             spec->fast.min_speedup);
    if (!fast_enough) {
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(spec->hints.too_slow, "profile it (see the lab README) "
                                                "and compare with the solution ladder"));
        suggest_profile(spec, st);
    }
    if (fast_stop_contradicts(spec, f, fast_enough, spec->fast.min_speedup, roof_bar)) {
        /* the runner's record was not its own */
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary,
                 "the timing stopped early for a verdict its figures do not show");
        return;
    }
    check_resources(g, st);
    if (st->status == ST_PASS && lab_case_given(&spec->fast.second.timed)) second_size(g, st);
}
