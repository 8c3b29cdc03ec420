/* stages.c - the work and right stages, and running the runner on a list
 * of calls (the requests come from requests.c).
 *
 * work:  friendly sizes, typical inputs; every output written and right.
 * right: odd sizes, adversarial inputs, pointers off 16-byte alignment; also
 *        no writes outside the buffers and inputs unchanged; then the small
 *        sizes again under compute-sanitizer (memcheck, and racecheck or
 *        synccheck where the lab uses shared memory or barriers).
 * Each runs the runner in a child with a time limit.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counts.h"
#include "gpu_lock.h"
#include "grade.h"
#include "isolate.h"
#include "judge.h"
#include "report.h"
#include "requests.h"
#include "stages.h"

enum { SANITIZER_ERROR_EXIT = 85 };

static double limit_or(double spec_s, double default_s)
{
    return spec_s > 0 ? spec_s : default_s;
}

/* A runner that has not begun its first call this long after it started
 * (or work's limit, if longer) is stuck in its setup: CUDA's context,
 * loading the submission, a static constructor of the submission's. That
 * takes well under a second, a few on a loaded machine. */
#define RUNNER_SETUP_LIMIT_S 10.0

/* Hazards racecheck reported, warnings included: its --error-exitcode
 * may count only errors, but an intra-warp race (a severity WARNING) is a
 * real bug on every GPU since Volta. */
long racecheck_hazards(const char *log)
{
    char *text = iso_log_tail(log, 64 * 1024);
    if (!text) return 0;
    long hazards = 0;
    const char *at = strstr(text, "RACECHECK SUMMARY: ");
    if (at) hazards = strtol(at + strlen("RACECHECK SUMMARY: "), NULL, 10);
    free(text);
    return hazards;
}

/* The sanitizer's own lines from the log, which name the kernel, the
 * access and the thread. */
static void sanitizer_excerpt(const char *log, stage_result *st)
{
    char *text = iso_log_tail(log, 64 * 1024);
    if (!text) return;
    int shown = 0;
    for (char *line = strtok(text, "\n"); line && shown < 25; line = strtok(NULL, "\n"))
        if (strncmp(line, "=========", 9) == 0) {
            sb_printf(&st->details, "%s\n", line);
            shown++;
        }
    free(text);
}

static void log_excerpt(const char *log, stage_result *st)
{
    char *tail = iso_log_tail(log, 2000);
    if (tail && *tail) {
        sb_printf(&st->details, "last output of the run:\n");
        sb_indent(&st->details, tail, "  ");
    }
    free(tail);
}

/* The CPU emulation reports a kernel fault (an out-of-bounds access, a
 * misaligned vector, barriers at different call sites) on one line that
 * starts with "emulator:" and names the thread and block. */
static int emulator_fault(const char *log, char *summary, size_t size, const char *where)
{
    char *text = iso_log_tail(log, 16 * 1024);
    if (!text) return 0;
    char *line = strstr(text, "emulator: ");
    if (line) {
        line[strcspn(line, "\n")] = 0;
        snprintf(summary, size, "the kernel faulted at %s: %s", where, line + 10);
    }
    free(text);
    return line != NULL;
}

int sandbox_stopped(const response *rsp, const iso_result *ir, stage_result *st,
                    const char *where)
{
    int recorded = rsp->has_fatal && strncmp(rsp->fatal.message, LOCKDOWN_YOUR_CODE,
                                             strlen(LOCKDOWN_YOUR_CODE)) == 0;
    /* The sandbox's signal, while the code that made the call had blocked
     * every signal (as starting a thread does): the kernel ends the process
     * before the sandbox can say which call it was. */
    int unnamed = !recorded && ir->signaled && ir->signal == SIGSYS;
    if (!recorded && !unnamed) return 0;
    st->status = ST_FAIL;
    if (recorded)
        snprintf(st->summary, sizeof st->summary, "stopped at %s: %s", where,
                 rsp->fatal.message + strlen(LOCKDOWN_TAG));
    else
        snprintf(st->summary, sizeof st->summary,
                 "stopped at %s: your code made a system call the grader's sandbox forbids "
                 "(such as starting a thread), with signals blocked, so the sandbox could not "
                 "name it: graded code may only compute",
                 where);
    sb_printf(&st->details, "hint: the entry point launches kernels and may use the CUDA runtime, "
                            "the C math library, malloc/free, memcpy/memset and printf\n");
    return 1;
}

/* A call that began and never finished: the student's code hung or
 * crashed inside it. Returns 1 for a crash (a fault, a launch error that
 * ended the run), which a smaller case may show too; 0 for a hang or a
 * sandbox stop, which a smaller case would only repeat. */
static int stopped_during(const grade_ctx *g, const proto_call *call,
                          const iso_result *ir, const response *rsp, const char *log,
                          stage_result *st)
{
    const lab_hints *h = &g->spec->hints;
    char where[200], how[96];
    describe_call(g, call, where, sizeof where);
    iso_describe(ir, how, sizeof how);
    st->status = ST_FAIL;
    if (sandbox_stopped(rsp, ir, st, where)) {
        return 0; /* the summary names the call */
    } else if (ir->timed_out) {
        snprintf(st->summary, sizeof st->summary, "%s at %s: a loop that never ends?",
                 how, where);
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(h->timeout, "check that every loop's index moves towards "
                                      "its end, and that no thread waits forever"));
        return 0;
    } else if (emulator_fault(log, st->summary, sizeof st->summary, where)) {
        /* the summary holds the emulator's own words; the hint is the
         * lab's for a kernel fault, as a GPU's report would give it */
        sb_printf(&st->details, "hint: %s\n", kernel_fault_hint(h));
    } else {
        snprintf(st->summary, sizeof st->summary, "the run crashed (%s) at %s", how, where);
        log_excerpt(log, st);
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(h->crash, "your entry point must not exit, abort or "
                                    "touch host memory through device pointers"));
    }
    return 1;
}

/* One run of the runner: a list of calls, maybe under a sanitizer. The
 * calls before right_from are judged for the work stage (leniently: a
 * stray write is a note there), the others for right (strictly). One plain
 * run holds work's calls and then right's, because on a GPU every run
 * costs a CUDA context, and the driver makes contexts one at a time for
 * every grading on the GPU. */
typedef struct {
    const char *tag;  /* names its files in the scratch directory */
    const char *tool; /* compute-sanitizer's tool, or NULL */
    const proto_call *calls;
    int n, right_from;
    stage_result *work, *right; /* the stages its calls are judged for */
    double limit_s;
    /* work's calls, which right's follow in the same run, must have ended
     * this many seconds after the first of them began (watch_work) */
    double work_limit_s;
    char req[512], rsp[512], log[512];
    double work_judged_s; /* iso_now_s() once work's verdict was known */
    /* How it failed (start_run resets both): the stage (NULL: it passed),
     * and the call that failed in a way a smaller case may show again (it
     * finished with a wrong answer, or crashed), or -1. */
    stage_result *failed;
    int failed_call;
} calls_run;

static stage_result *stage_of_call(const calls_run *r, int i)
{
    return i < r->right_from ? r->work : r->right;
}

static double setup_limit(const calls_run *r)
{
    return r->work_limit_s > RUNNER_SETUP_LIMIT_S ? r->work_limit_s : RUNNER_SETUP_LIMIT_S;
}

/* Write the request for one run and start the runner on it (under
 * compute-sanitizer's `tool` if given), without waiting. */
static int start_run(const grade_ctx *g, calls_run *r, iso_job *job)
{
    r->failed = NULL;
    r->failed_call = -1;
    stage_result *st = stage_of_call(r, 0);
    /* work.req, right-memcheck.req, ... */
    const char *dash = r->tool ? "-" : "", *tool = r->tool ? r->tool : "";
    snprintf(r->req, sizeof r->req, "%s/%s%s%s.req", g->scratch, r->tag, dash, tool);
    snprintf(r->rsp, sizeof r->rsp, "%s/%s%s%s.rsp", g->scratch, r->tag, dash, tool);
    snprintf(r->log, sizeof r->log, "%s/%s%s%s.log", g->scratch, r->tag, dash, tool);
    unlink(r->rsp);
    unlink(r->log);

    proto_request req;
    request_init(&req, g, MODE_CASES, r->n);
    /* Under compute-sanitizer every allocation is exactly its buffer, so
     * one element past the end is reported; the plain runs keep the guards
     * that show stray writes. The emulator is its own sanitizer: it fences
     * every allocation, so right's calls have exact buffers there too
     * (work's keep the guards, as on the GPU, so that a stray write fails
     * right there as well). */
    req.exact_from = r->tool ? 0 : g->emulated ? r->right_from : r->n;
    if (write_request(r->req, &req, r->calls) != 0) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary, "cannot write %s", r->req);
        r->failed = st;
        return 0;
    }
    char exit_code[8];
    snprintf(exit_code, sizeof exit_code, "%d", SANITIZER_ERROR_EXIT);
    char *plain[] = {(char *)g->runner, r->req, r->rsp, NULL};
    char *sanitized[] = {(char *)g->sanitizer, "--tool", (char *)r->tool,
                         "--error-exitcode", exit_code, "--print-limit", "10",
                         (char *)g->runner, r->req, r->rsp, NULL};
    /* The plain run's limits count from its first call (watch_work): its
     * setup before that has a limit of its own. */
    double setup_s = r->tool ? 0 : setup_limit(r);
    iso_limits lim = {r->limit_s + setup_s, iso_memory_limit(), 0, 0};
    if (iso_start(job, r->tool ? sanitized : plain, r->log, &lim) != 0) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary, "cannot start %s", g->runner);
        r->failed = st;
        return 0;
    }
    return 1;
}

/* Judge calls [from, to) of a run from its response. Returns 1 if all
 * passed; else r->failed is the stage that failed, and r->failed_call the
 * call when a smaller case may show it again. */
static int judge_calls(const grade_ctx *g, calls_run *r, const response *rsp,
                       const iso_result *ir, int from, int to)
{
    int unfinished = from;
    while (unfinished < to - 1 && rsp->calls[unfinished].finished) unfinished++;
    if (response_malformed(rsp, stage_of_call(r, unfinished))) {
        r->failed = stage_of_call(r, unfinished);
        return 0;
    }
    for (int i = from; i < to; i++) {
        const call_record *rec = &rsp->calls[i];
        stage_result *st = stage_of_call(r, i);
        int ok = 0;
        if (rec->finished) {
            ok = judge_call(g, &r->calls[i], rec, i >= r->right_from, st);
            if (!ok) r->failed_call = i;
        } else if (rec->begun) {
            if (stopped_during(g, &r->calls[i], ir, rsp, r->log, st)) r->failed_call = i;
        } else {
            char how[96];
            iso_describe(ir, how, sizeof how);
            st->status = ST_FAIL;
            /* counted within its stage: right's first call is its call 1 */
            int number = i - (i >= r->right_from ? r->right_from : 0) + 1;
            snprintf(st->summary, sizeof st->summary, "the runner stopped before call %d (%s)%s%s",
                     number, how, rsp->has_fatal ? ": " : "",
                     rsp->has_fatal ? rsp->fatal.message : "");
            log_excerpt(r->log, st);
        }
        if (!ok) {
            r->failed = st;
            return 0;
        }
    }
    return 1;
}

/* Judge a finished run: its calls from `from` on (those before were judged
 * while it ran), then how the runner and the sanitizer ended. Returns 1
 * if all passed; else r->failed is the stage it failed. */
static int judge_run(const grade_ctx *g, calls_run *r, const iso_result *ir, int from)
{
    /* A run's time is its first stage's: work's, for work's and right's
     * calls (right's own parts are the sanitizers and the counts). */
    report_add_time(stage_of_call(r, 0), r->tool ? r->tool : "run", ir->wall_s);
    response rsp;
    response_read(r->rsp, g->spec, r->calls, r->n, 0, &rsp);
    int ok = judge_calls(g, r, &rsp, ir, from, r->n);
    /* How the run ended is the verdict of the stage whose calls came last:
     * work's may have passed before it ended (watch_work). */
    stage_result *whole = stage_of_call(r, r->n > 0 ? r->n - 1 : 0);
    int sanitizer_found = r->tool && ir->exited &&
                          (ir->exit_code == SANITIZER_ERROR_EXIT ||
                           (!strcmp(r->tool, "racecheck") && racecheck_hazards(r->log) > 0));
    if (ok && sanitizer_found) {
        whole->status = ST_FAIL;
        snprintf(whole->summary, sizeof whole->summary,
                 "compute-sanitizer %s found errors (outputs were right)", r->tool);
        sanitizer_excerpt(r->log, whole);
        sb_printf(&whole->details, "hint: each report names the kernel, the kind of "
                                   "access, the thread and block; build with -lineinfo "
                                   "for source lines\n");
        ok = 0;
        r->failed = whole;
    } else if (ok && !(ir->exited && ir->exit_code == 0)) {
        char how[96];
        iso_describe(ir, how, sizeof how);
        whole->status = ST_FAIL;
        snprintf(whole->summary, sizeof whole->summary,
                 "every call was right, but the run ended badly (%s)", how);
        log_excerpt(r->log, whole);
        ok = 0;
        r->failed = whole;
    }
    response_free(&rsp);
    return ok;
}

/* Wait for the first run (work's calls, then right's) until work's calls
 * are judged, as soon as they have all ended, while right's go on: a
 * failure there stops the run (right's answers would not be read). Each
 * stage's calls have its own time limit, as in runs of their own: work's
 * must end within work's from the moment the first call began, and
 * right's then have right's from there. The runner's setup before it
 * (CUDA's context, loading the submission), which takes seconds on a
 * loaded machine, is no call's time: it has setup_limit(). A run
 * that ends first is judged whole. Returns 1 when work's calls passed;
 * *judged is how many calls were judged (r->n: all). */
static int watch_work(const grade_ctx *g, calls_run *r, iso_job *job, int *judged)
{
    double begun_s = 0; /* when the first call began */
    while (!iso_wait_for(job, 1, 0, 0.01)) {
        if (r->right_from < r->n &&
            response_calls_done(r->rsp, g->spec, r->calls, r->right_from) == r->right_from) {
            response rsp;
            response_read(r->rsp, g->spec, r->calls, r->n, 0, &rsp);
            int ok = judge_calls(g, r, &rsp, &job->result, 0, r->right_from);
            response_free(&rsp);
            *judged = ok ? r->right_from : r->n;
            r->work_judged_s = iso_now_s();
            if (ok) { /* right's calls have right's limit from now */
                job->limits.time_s = r->work_judged_s - job->t0 + (r->limit_s - r->work_limit_s);
            } else {
                iso_cancel(job, 1);
                report_add_time(r->work, "run", job->result.wall_s);
            }
            return ok;
        }
        double now = iso_now_s();
        if (!begun_s && response_started(r->rsp)) {
            begun_s = now;
            job->limits.time_s = begun_s - job->t0 + r->limit_s;
        }
        if (begun_s ? now - begun_s > r->work_limit_s : now - job->t0 > setup_limit(r))
            iso_time_out(job);
    }
    iso_wait(job, 1, 0);
    *judged = r->n;
    int ok = judge_run(g, r, &job->result, 0);
    r->work_judged_s = iso_now_s();
    return ok;
}

/* The GPU, shared with other gradings' checks (gpu_lock.h), held only
 * while runs go: a grading waiting to time it waits for runs to end, not
 * for the CPU's judging or for the next smaller case to be chosen. No lock
 * in the emulation. */
static void share_gpu(const grade_ctx *g, gpu_lock *l, stage_result *st)
{
    l->fd = -1;
    if (g->emulated || !g->gpu_lock_dir) return;
    report_add_wait(st, gpu_lock_wait(g->gpu_lock_dir, GPU_SHARED, l));
}

/* Start runs up to `upto` (at most 8 in all), from `started`. */
static int start_runs(const grade_ctx *g, calls_run *runs, int upto, iso_job *jobs, int started)
{
    while (started < upto && started < 8 && start_run(g, &runs[started], &jobs[started]))
        started++;
    return started;
}

/* Judge the runs in order as each ends; the first that fails stops the
 * rest, whose verdicts would not be read. Returns how many passed, from
 * the first. The first run (work's calls, then right's) starts alone, the
 * sanitizers once work's calls passed, beside right's: most wrong
 * submissions fail work, and a context for a sanitizer whose verdict
 * would not be read is time taken from every grading on the GPU (the
 * driver makes CUDA contexts one at a time, about 0.2 s each on an H100,
 * however many processes ask at once). */
static int run_all(const grade_ctx *g, calls_run *runs, int n)
{
    gpu_lock gpu;
    share_gpu(g, &gpu, runs[0].work);
    iso_job jobs[8];
    int started = start_runs(g, runs, 1, jobs, 0), passed = 0, judged = 0;
    if (started && watch_work(g, &runs[0], &jobs[0], &judged)) {
        started = start_runs(g, runs, n, jobs, started);
        for (int i = 0; i < started; i++) {
            int ok = 1;
            if (i > 0 || judged < runs[0].n) {
                iso_wait(jobs, started, i);
                ok = judge_run(g, &runs[i], &jobs[i].result, i == 0 ? judged : 0);
            }
            if (!ok) break;
            passed++;
        }
    }
    iso_cancel(jobs, started);
    gpu_lock_release(&gpu);
    return passed;
}

/* How big a case is for a person reading it: the elements of its largest
 * input or output (scratch space is the grader's gift, not the problem). */
static int64_t case_elements(const lab_spec *spec, const lab_case *c)
{
    int64_t most = 0;
    for (int b = 0; b < spec->n_buffers; b++) {
        if (spec->buffers[b].role == BUF_SCRATCH) continue;
        int64_t count = (int64_t)spec->buffer_count(b, c->dims);
        if (count > most) most = count;
    }
    return most;
}

/* Run the calls (smallest first) in one more run of the runner, judged
 * as strictly as the failed call was; the first that fails (a wrong
 * answer, or a crash, which ends the run) is the one returned, its report
 * in *shown. -1 when none failed. */
static int first_failing(const grade_ctx *g, const calls_run *failed, const proto_call *calls,
                         int n, stage_result *st, stage_result *shown)
{
    int strict = failed->failed_call >= failed->right_from;
    stage_result scratch = {0};
    calls_run r = {.tag = "smaller", .calls = calls, .n = n, .right_from = strict ? 0 : n,
                   .work = &scratch, .right = &scratch,
                   .limit_s = failed->work_limit_s < 10 ? failed->work_limit_s : 10};
    iso_job job;
    int found = -1;
    gpu_lock gpu;
    share_gpu(g, &gpu, st);
    if (!start_run(g, &r, &job)) {
        gpu_lock_release(&gpu);
        sb_free(&scratch.details);
        return -1;
    }
    iso_wait(&job, 1, 0);
    gpu_lock_release(&gpu);
    report_add_time(st, "smaller", job.result.wall_s);
    response rsp;
    response_read(r.rsp, g->spec, calls, n, 0, &rsp);
    for (int i = 0; i < n && !rsp.malformed && found < 0; i++) {
        const call_record *rec = &rsp.calls[i];
        stage_result s = {0};
        int failing = rec->finished ? !judge_call(g, &calls[i], rec, strict, &s)
                      : rec->begun  ? stopped_during(g, &calls[i], &job.result, &rsp, r.log, &s)
                                    : 0;
        if (failing) {
            found = i;
            sb_free(&shown->details);
            *shown = s;
            continue;
        }
        sb_free(&s.details);
        if (!rec->finished) break; /* a call that began and did not finish ended the run */
    }
    response_free(&rsp);
    sb_free(&scratch.details);
    return found;
}

/* The product of a case's sizes (the lab's shrink_dims). */
static int64_t case_volume(const lab_spec *spec, const lab_case *c)
{
    int64_t volume = 1;
    for (int d = 0; d < spec->n_dims; d++)
        if (spec->shrink_dims & (1u << d)) volume *= c->dims[d];
    return volume;
}

/* Whether case a is larger than case b: more elements in its largest
 * buffer, or as many and a larger product of sizes (lab 11's filter gives
 * many cases one element count; the smaller image is the smaller case). */
static int larger_case(const lab_spec *spec, const lab_case *a, const lab_case *b)
{
    int64_t x = case_elements(spec, a), y = case_elements(spec, b);
    return x != y ? x > y : case_volume(spec, a) > case_volume(spec, b);
}

/* A few cases, smallest first (an insertion sort, stable). The staircase,
 * whose every step shrinks a size, comes out reversed. */
static void smallest_first(const lab_spec *spec, proto_call *list, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && larger_case(spec, &list[j - 1].c, &list[j].c); j--) {
            proto_call t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
}

/* Whether two calls are the same case. */
static int same_case(const lab_spec *spec, const proto_call *a, const proto_call *b)
{
    for (int d = 0; d < spec->n_dims; d++)
        if (a->c.dims[d] != b->c.dims[d]) return 0;
    return 1;
}

/* Add t to the list unless it is there or the list is full. */
static int add_case(const lab_spec *spec, proto_call *list, int n, int most, const proto_call *t)
{
    for (int i = 0; i < n; i++)
        if (same_case(spec, &list[i], t)) return n;
    if (n < most) list[n++] = *t;
    return n;
}

/* How many times v can be halved (v /= 2) before it is 1. */
static int halvings_to_one(int64_t v)
{
    int k = 0;
    for (; v > 1; v /= 2) k++;
    return k;
}

/* Every case whose sizes are c's (the lab's shrink_dims) each halved any
 * number of times down to 1, c itself aside, with at most `elements`,
 * into list from n (at most `most` in all); returns the new n. */
static int small_halvings(const lab_spec *spec, const proto_call *c, int64_t elements,
                          proto_call *list, int n, int most)
{
    int halvings[LAB_MAX_DIMS] = {0}, deepest[LAB_MAX_DIMS] = {0};
    for (int d = 0; d < spec->n_dims; d++)
        if (spec->shrink_dims & (1u << d)) deepest[d] = halvings_to_one(c->c.dims[d]);
    for (;;) {
        proto_call t = *c;
        int halved = 0;
        for (int d = 0; d < spec->n_dims; d++)
            for (int k = 0; k < halvings[d]; k++, halved = 1) t.c.dims[d] /= 2;
        if (halved && case_elements(spec, &t.c) <= elements) n = add_case(spec, list, n, most, &t);
        int d = 0; /* the next combination, like an odometer */
        while (d < spec->n_dims && halvings[d] == deepest[d]) halvings[d++] = 0;
        if (d == spec->n_dims) return n;
        halvings[d]++;
    }
}

/* The smallest failing case. A call that failed (a wrong answer, a stray
 * write, a changed input, a crash) is tried again at smaller sizes, same
 * seed, variant and alignment, in one more run of the runner (one CUDA
 * context), smallest case first, so that a crash, which ends the run,
 * still names the smallest, and a run cut short by its time limit has
 * tried the small ones. The cases are its sizes (the lab's shrink_dims)
 * halved:
 * - one at a time down to 1, like a staircase, which takes in the
 *   lopsided shapes (one tile of rows, two of columns) that halving every
 *   size at once jumps over; where that needs more calls than a list
 *   holds, every size is halved at each step;
 * - and every combination of halvings that leaves at most SMALL_CASE
 *   elements (or as few as any halving leaves, where the lab's other
 *   sizes keep every case larger), so that a small failing case is found
 *   wherever it lies.
 * The smallest failing case found is shown under the failure with its
 * first wrong elements or its crash; nothing when none fails (a bug that
 * needs a large size), and the verdict is the same either way. The stage
 * records how many elements the case it shows has (the failing one, or
 * the smaller one found). With --no-smallest no search is made (the
 * header says so). */
enum { SMALL_CASE = 64 };
static void show_smallest_failure(const grade_ctx *g, const calls_run *failed, stage_result *st)
{
    const lab_spec *spec = g->spec;
    if (failed->failed_call < 0) return;
    proto_call c = failed->calls[failed->failed_call];
    st->failing_elements = case_elements(spec, &c.c);
    st->shows_failing_case = 1;
    if (!spec->shrink_dims || g->no_smallest) return;
    proto_call list[PROTO_MAX_CALLS];
    int n = 0;
    int steps = 0;
    for (int d = 0; d < spec->n_dims; d++)
        if (spec->shrink_dims & (1u << d)) steps += halvings_to_one(c.c.dims[d]);
    int one_at_a_time = steps <= LAB_MAX_CASES;
    proto_call step = c, smallest = c;
    for (int changed = 1, next = 0; changed && n < LAB_MAX_CASES;) {
        changed = 0;
        for (int k = 0; k < spec->n_dims && !(changed && one_at_a_time); k++) {
            int d = (next + k) % spec->n_dims;
            if ((spec->shrink_dims & (1u << d)) && step.c.dims[d] > 1) {
                step.c.dims[d] /= 2;
                changed = 1;
                next = d + 1;
            }
        }
        if (changed) list[n++] = step;
    }
    for (int d = 0; d < spec->n_dims; d++)
        if (spec->shrink_dims & (1u << d)) smallest.c.dims[d] = 1;
    int64_t small = case_elements(spec, &smallest.c);
    n = small_halvings(spec, &c, small > SMALL_CASE ? small : SMALL_CASE, list, n, PROTO_MAX_CALLS);
    smallest_first(spec, list, n);
    stage_result shown = {0};
    int found = n ? first_failing(g, failed, list, n, st, &shown) : -1;
    if (found >= 0) {
        st->failing_elements = case_elements(spec, &list[found].c);
        /* The smaller cases run one after another in one run, so a case
         * may fail only for what the calls before it left behind: tried
         * again alone, in a run of its own, it would pass. */
        stage_result again = {0};
        int alone_passes = found > 0 && first_failing(g, failed, &list[found], 1, st, &again) < 0;
        sb_free(&again.details);
        sb_printf(&st->details, "smallest failing case found by halving the sizes: %s\n",
                  shown.summary);
        /* Its first wrong elements: the lines before the tolerance and the hint. */
        const char *line = sb_str(&shown.details);
        for (int lines = 0; *line && lines < 3; lines++) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            if (!strncmp(line, "tolerance:", 10) || !strncmp(line, "hint:", 5)) break;
            sb_printf(&st->details, "    %.*s\n", (int)len, line);
            line += len + (end ? 1 : 0);
        }
        if (alone_passes)
            sb_printf(&st->details,
                      "    it fails only after the smaller calls before it: alone, in a run of "
                      "its own, it passed. Something carries over from one call to the next "
                      "(a __device__ or static variable not set afresh in every call), or the "
                      "failure comes and goes (a race)\n");
    }
    sb_free(&shown.details);
}

/* The lab's list for a stage, or its smaller one for the emulation. */
static const lab_case_list *cases_for(const grade_ctx *g, const lab_case_list *gpu,
                                      const lab_case_list *emulated)
{
    return g->emulated && emulated->n > 0 ? emulated : gpu;
}

/* In the emulation, once right passed: one more run of the runner, which
 * calls the entry point at work's largest size with the memory counters on
 * (MODE_COUNTS), and the counts under the right stage. A run of its own,
 * so that nothing that call does can change a verdict; when it tells
 * nothing, one line says so. */
static void show_memory_counts(const grade_ctx *g, stage_result *right)
{
    const lab_case *largest = lab_largest_work_case(g->spec);
    if (!largest) return;
    double t0 = iso_now_s();
    lab_case_list one = {.n = 1, .list = {*largest}};
    proto_call call;
    make_calls(g, &one, 4, 0, &call);
    proto_request req;
    request_init(&req, g, MODE_COUNTS, 1);
    req.count_blocks = COUNTS_MAX_BLOCKS;
    req.count_accesses = COUNTS_MAX_ACCESSES;
    char req_path[512], rsp_path[512], log_path[512];
    snprintf(req_path, sizeof req_path, "%s/counts.req", g->scratch);
    snprintf(rsp_path, sizeof rsp_path, "%s/counts.rsp", g->scratch);
    snprintf(log_path, sizeof log_path, "%s/counts.log", g->scratch);
    iso_result ir = {0};
    char *argv[] = {(char *)g->runner, req_path, rsp_path, NULL};
    iso_limits lim = {COUNTS_TIME_LIMIT_S, iso_memory_limit(), 0, 0};
    response rsp = {0};
    if (write_request(req_path, &req, &call) == 0 && iso_run_with(argv, log_path, &lim, &ir) == 0)
        response_read(rsp_path, g->spec, &call, 1, 0, &rsp);
    if (rsp.has_counts && !rsp.malformed) {
        counts_describe(&rsp.counts, g->spec, largest, &right->details);
    } else {
        char how[96] = "it could not be started";
        if (ir.started) iso_describe(&ir, how, sizeof how);
        sb_printf(&right->details, "memory counts: none, the counted call of your entry point failed "
                                   "(%s); they are information, never graded\n", how);
    }
    response_free(&rsp);
    report_add_time(right, "counts", iso_now_s() - t0);
}

static const char *const SANITIZER_TOOLS[] = {"memcheck", "racecheck", "synccheck",
                                              "initcheck"};

void stages_work_and_right(const grade_ctx *g, stage_result *work, stage_result *right,
                           int with_right)
{
    const lab_spec *spec = g->spec;
    double t0 = iso_now_s();
    const lab_case_list *work_cases = cases_for(g, &spec->work, &spec->emulated.work);
    const lab_case_list *right_cases = cases_for(g, &spec->right, &spec->emulated.right);
    /* work's calls, then right's */
    proto_call plain[2 * LAB_MAX_CASES], sanitize_calls[LAB_MAX_CASES];
    int work_n = work_cases->n, right_n = with_right ? right_cases->n : 0;
    make_calls(g, work_cases, 1, 0, plain);
    make_calls(g, right_cases, 2, spec->misalign, plain + work_n);
    make_calls(g, &spec->sanitize, 3, spec->misalign, sanitize_calls);

    /* One run of work's calls and then right's (one CUDA context, not
     * two), each stage with its own time limit; once work's calls passed,
     * each sanitizer beside it (run_all): a later run's verdict is read
     * only once the earlier ones passed, so the result is the same as one
     * after the other, and the first failure stops the rest. */
    calls_run runs[1 + 4];
    int n = 0;
    double work_limit = limit_or(g->work_limit_s, limit_or(spec->time_limit_s.work, 30));
    double right_limit =
        with_right ? limit_or(g->right_limit_s, limit_or(spec->time_limit_s.right, 60)) : 0;
    runs[n++] = (calls_run){.tag = "work", .calls = plain, .n = work_n + right_n,
                            .right_from = work_n, .work = work, .right = right,
                            .limit_s = work_limit + right_limit, .work_limit_s = work_limit};
    int sanitized = with_right && !g->emulated && g->sanitizer;
    strbuf tools = {0};
    unsigned wanted = spec->sanitizers | SAN_MEMCHECK;
    for (int t = 0; sanitized && t < 4; t++) {
        if (!(wanted & (1u << t))) continue;
        runs[n++] = (calls_run){.tag = "right", .tool = SANITIZER_TOOLS[t], .calls = sanitize_calls,
                                .n = spec->sanitize.n, .right_from = 0, .work = work,
                                .right = right,
                                .limit_s = limit_or(spec->time_limit_s.sanitize, 600)};
        sb_printf(&tools, "%s%s", tools.len ? ", " : "", SANITIZER_TOOLS[t]);
    }
    int passed = run_all(g, runs, n);
    calls_run *failed = passed < n ? &runs[passed] : NULL;
    if (failed && !failed->tool && failed->failed) {
        show_smallest_failure(g, failed, failed->failed);
        if (failed->failed == work) failed->work_judged_s = iso_now_s();
    }
    int work_passed = !failed || (failed->failed && failed->failed != work);

    if (work_passed) {
        work->status = ST_PASS;
        snprintf(work->summary, sizeof work->summary, "%d sizes, every output written and %s",
                 work_cases->n, spec->tolerance.kind == TOL_EXACT ? "exact" : "within tolerance");
    }
    work->seconds = (runs[0].work_judged_s > 0 ? runs[0].work_judged_s : iso_now_s()) - t0;
    if (!with_right || !work_passed) {
        sb_free(&tools);
        return;
    }
    right->seconds = iso_now_s() - t0;
    if (passed == n) {
        if (g->emulated)
            snprintf(right->sanitizer, sizeof right->sanitizer,
                     "skipped: compute-sanitizer needs a GPU");
        else if (!g->sanitizer)
            snprintf(right->sanitizer, sizeof right->sanitizer,
                     "skipped: compute-sanitizer not found");
        else
            snprintf(right->sanitizer, sizeof right->sanitizer, "compute-sanitizer %s: clean",
                     sb_str(&tools));
        right->status = ST_PASS;
        snprintf(right->summary, sizeof right->summary,
                 "%d sizes incl. odd ones and adversarial inputs%s; no stray writes, "
                 "inputs unchanged; %s",
                 right_cases->n, spec->misalign ? ", unaligned pointers" : "", right->sanitizer);
        if (g->emulated) {
            show_memory_counts(g, right);
            right->seconds = iso_now_s() - t0;
        }
    }
    sb_free(&tools);
}
