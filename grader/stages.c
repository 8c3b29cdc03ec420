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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grade.h"
#include "isolate.h"
#include "judge.h"
#include "requests.h"
#include "stages.h"

enum { SANITIZER_ERROR_EXIT = 85 };

static double limit_or(double spec_s, double default_s)
{
    return spec_s > 0 ? spec_s : default_s;
}

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

int sandbox_stopped(const response *rsp, stage_result *st, const char *where)
{
    if (!rsp->has_fatal || strncmp(rsp->fatal.message, LOCKDOWN_FATAL, strlen(LOCKDOWN_FATAL)) != 0)
        return 0;
    st->status = ST_FAIL;
    snprintf(st->summary, sizeof st->summary, "stopped at %s: %s", where,
             rsp->fatal.message + strlen(LOCKDOWN_TAG));
    sb_printf(&st->details, "hint: the entry point launches kernels and may use the CUDA runtime, "
                            "the C math library, malloc/free, memcpy/memset and printf\n");
    return 1;
}

/* A call that began and never finished: the student's code hung or
 * crashed inside it. */
static void stopped_during(const grade_ctx *g, const proto_call *call,
                           const iso_result *ir, const response *rsp, const char *log,
                           stage_result *st)
{
    const lab_hints *h = &g->spec->hints;
    char where[200], how[96];
    describe_call(g, call, where, sizeof where);
    iso_describe(ir, how, sizeof how);
    st->status = ST_FAIL;
    if (sandbox_stopped(rsp, st, where)) {
        /* the summary names the call */
    } else if (ir->timed_out) {
        snprintf(st->summary, sizeof st->summary, "%s at %s: a loop that never ends?",
                 how, where);
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(h->timeout, "check that every loop's index moves towards "
                                      "its end, and that no thread waits forever"));
    } else if (emulator_fault(log, st->summary, sizeof st->summary, where)) {
        /* the summary already holds the emulator's own words */
    } else {
        snprintf(st->summary, sizeof st->summary, "the run crashed (%s) at %s", how, where);
        log_excerpt(log, st);
        sb_printf(&st->details, "hint: %s\n",
                  hint_or(h->crash, "your entry point must not exit, abort or "
                                    "touch host memory through device pointers"));
    }
}

int run_calls(const grade_ctx *g, const char *tag, const proto_call *calls,
              int n, int strict, const char *tool, double limit_s,
              stage_result *st)
{
    char req_path[512], rsp_path[512], log_path[512];
    snprintf(req_path, sizeof req_path, "%s/%s.req", g->scratch, tag);
    snprintf(rsp_path, sizeof rsp_path, "%s/%s.rsp", g->scratch, tag);
    snprintf(log_path, sizeof log_path, "%s/%s.log", g->scratch, tag);
    unlink(rsp_path);
    unlink(log_path);

    proto_request req;
    request_init(&req, g, MODE_CASES, n);
    /* Under compute-sanitizer every allocation is exactly its buffer, so
     * one element past the end is reported; the plain runs keep the guards
     * that show stray writes. The emulator is its own sanitizer: it fences
     * every allocation, so its right stage runs on exact buffers too (its
     * work stage keeps the guards, as on the GPU, so that a stray write
     * fails right there as well). */
    req.layout = tool || (g->emulated && strict) ? LAYOUT_EXACT : LAYOUT_GUARDED;
    if (write_request(req_path, &req, calls) != 0) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary, "cannot write %s", req_path);
        return 0;
    }

    char exit_code[8];
    snprintf(exit_code, sizeof exit_code, "%d", SANITIZER_ERROR_EXIT);
    char *plain[] = {(char *)g->runner, req_path, rsp_path, NULL};
    char *sanitized[] = {(char *)g->sanitizer, "--tool", (char *)tool,
                         "--error-exitcode", exit_code, "--print-limit", "10",
                         (char *)g->runner, req_path, rsp_path, NULL};
    iso_result ir;
    if (iso_run(tool ? sanitized : plain, log_path, limit_s, &ir) != 0) {
        st->status = ST_ERROR;
        snprintf(st->summary, sizeof st->summary, "cannot start %s", g->runner);
        return 0;
    }

    response rsp;
    response_read(rsp_path, g->spec, calls, n, 0, &rsp);
    if (response_malformed(&rsp, st)) {
        response_free(&rsp);
        return 0;
    }
    int ok = 1;
    for (int i = 0; i < n && ok; i++) {
        const call_record *rec = &rsp.calls[i];
        if (rec->finished) {
            ok = judge_call(g, &calls[i], rec, strict, st);
        } else if (rec->begun) {
            stopped_during(g, &calls[i], &ir, &rsp, log_path, st);
            ok = 0;
        } else {
            char how[96];
            iso_describe(&ir, how, sizeof how);
            st->status = ST_FAIL;
            snprintf(st->summary, sizeof st->summary, "the runner stopped before call %d (%s)%s%s",
                     i + 1, how, rsp.has_fatal ? ": " : "",
                     rsp.has_fatal ? rsp.fatal.message : "");
            log_excerpt(log_path, st);
            ok = 0;
        }
    }
    int sanitizer_found = tool && ir.exited &&
                          (ir.exit_code == SANITIZER_ERROR_EXIT ||
                           (!strcmp(tool, "racecheck") && racecheck_hazards(log_path) > 0));
    if (ok && sanitizer_found) {
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary,
                 "compute-sanitizer %s found errors (outputs were right)", tool);
        sanitizer_excerpt(log_path, st);
        sb_printf(&st->details, "hint: each report names the kernel, the kind of "
                                "access, the thread and block; build with -lineinfo "
                                "for source lines\n");
        ok = 0;
    } else if (ok && !(ir.exited && ir.exit_code == 0)) {
        char how[96];
        iso_describe(&ir, how, sizeof how);
        st->status = ST_FAIL;
        snprintf(st->summary, sizeof st->summary,
                 "every call was right, but the run ended badly (%s)", how);
        log_excerpt(log_path, st);
        ok = 0;
    }
    response_free(&rsp);
    return ok;
}

/* The lab's list for a stage, or its smaller one for the emulation. */
static const lab_case_list *cases_for(const grade_ctx *g, const lab_case_list *gpu,
                                      const lab_case_list *emulated)
{
    return g->emulated && emulated->n > 0 ? emulated : gpu;
}

void stage_work(const grade_ctx *g, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const lab_case_list *cases = cases_for(g, &spec->work, &spec->emulated.work);
    proto_call calls[LAB_MAX_CASES];
    make_calls(g, cases, 1, 0, calls);
    if (!run_calls(g, "work", calls, cases->n, 0, NULL, limit_or(spec->time_limit_s.work, 30),
                   st))
        return;
    st->status = ST_PASS;
    snprintf(st->summary, sizeof st->summary, "%d sizes, every output written and %s",
             cases->n, spec->tolerance.kind == TOL_EXACT ? "exact" : "within tolerance");
}

static const char *const SANITIZER_TOOLS[] = {"memcheck", "racecheck", "synccheck",
                                              "initcheck"};

void stage_right(const grade_ctx *g, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const lab_case_list *cases = cases_for(g, &spec->right, &spec->emulated.right);
    proto_call calls[LAB_MAX_CASES];
    make_calls(g, cases, 2, spec->misalign, calls);
    if (!run_calls(g, "right", calls, cases->n, 1, NULL, limit_or(spec->time_limit_s.right, 60),
                   st))
        return;

    strbuf clean = {0};
    if (g->emulated) {
        snprintf(st->sanitizer, sizeof st->sanitizer,
                 "skipped: compute-sanitizer needs a GPU");
    } else if (!g->sanitizer) {
        snprintf(st->sanitizer, sizeof st->sanitizer,
                 "skipped: compute-sanitizer not found");
    } else {
        make_calls(g, &spec->sanitize, 3, spec->misalign, calls);
        unsigned tools = spec->sanitizers | SAN_MEMCHECK;
        for (int t = 0; t < 4; t++) {
            if (!(tools & (1u << t))) continue;
            char tag[32];
            snprintf(tag, sizeof tag, "right-%s", SANITIZER_TOOLS[t]);
            if (!run_calls(g, tag, calls, spec->sanitize.n, 1, SANITIZER_TOOLS[t],
                           limit_or(spec->time_limit_s.sanitize, 600), st)) {
                sb_free(&clean);
                return;
            }
            sb_printf(&clean, "%s%s", clean.len ? ", " : "", SANITIZER_TOOLS[t]);
        }
        snprintf(st->sanitizer, sizeof st->sanitizer, "compute-sanitizer %s: clean",
                 sb_str(&clean));
    }
    sb_free(&clean);
    st->status = ST_PASS;
    snprintf(st->summary, sizeof st->summary,
             "%d sizes incl. odd ones and adversarial inputs%s; no stray writes, "
             "inputs unchanged; %s",
             cases->n, spec->misalign ? ", unaligned pointers" : "", st->sanitizer);
}
