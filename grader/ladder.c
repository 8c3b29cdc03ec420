/* ladder.c - check and time every rung of a solution ladder in one run and
 * print the table the lesson is about: time, bandwidth, fraction of copy,
 * step speedup and cumulative speedup, like the lecture slides' reduction table.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fast.h"
#include "grade.h"
#include "isolate.h"
#include "judge.h"
#include "ladder.h"
#include "requests.h"
#include "response.h"
#include "stages.h"
#include "stats.h"

typedef struct {
    char name[PROTO_NAME_LEN];
    int right;
    char problem[320];
    double ms, gbps, fraction, rate, step, total;
} rung_row;

static void write_json(const char *path, const grade_ctx *g, const proto_call *timed,
                       const char *where, const rung_row *rows, int n, double copy_gbps,
                       const proto_timing *t, const double *parts_ms, double issue_ms)
{
    FILE *f = fopen(path, "w");
    if (!f) { fprintf(stderr, "grade: cannot write %s\n", path); return; }
    fputs("{\"lab\": ", f);
    json_string(f, g->spec->id);
    fputs(", \"device\": ", f);
    json_string(f, g->device.name);
    fputs(", \"cuda_runtime\": ", f);
    json_string(f, g->device.runtime);
    fputs(", \"driver\": ", f);
    json_string(f, g->device.driver);
    fprintf(f, ", \"sm_count\": %d, \"date\": ", g->device.sm_count);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    json_string(f, date);
    fputs(", \"roof\": ", f);
    json_string(f, g->spec->fast.roof == ROOF_COPY     ? "copy"
                   : g->spec->fast.roof == ROOF_VENDOR ? "vendor"
                   : g->spec->fast.roof == ROOF_PARTS  ? "parts"
                   : issue_ms > 0                      ? "issue"
                                                       : "none");
    fputs(", \"rate_unit\": ", f);
    json_string(f, g->spec->fast.flops ? rate_unit(g->spec) : "");
    fprintf(f, ", \"dims\": [");
    for (int d = 0; d < g->spec->n_dims; d++) fprintf(f, "%s%lld", d ? ", " : "", (long long)timed->c.dims[d]);
    fputs("], \"problem\": ", f);
    json_string(f, where);
    fprintf(f, ", \"rounds\": %d, \"converged\": %s, \"copy_gbps\": ", t->n_rounds,
            t->converged ? "true" : "false");
    json_number(f, copy_gbps);
    if (issue_ms > 0) { /* the reference's instructions at the issue roof */
        fputs(", \"issue_roof_ms\": ", f);
        json_number(f, issue_ms);
    }
    if (t->n_parts > 0) { /* ROOF_PARTS: each part's median; the roof is the slowest */
        fputs(", \"parts\": [", f);
        for (int p = 0; p < t->n_parts; p++) {
            fputs(p ? ", {\"part\": " : "{\"part\": ", f);
            json_string(f, t->item_names[t->first_part + p]);
            fputs(", \"ms\": ", f);
            json_number(f, parts_ms[p]);
            fputc('}', f);
        }
        fputc(']', f);
    }
    fputs(", \"rungs\": [", f);
    for (int r = 0; r < n; r++) {
        fprintf(f, "%s\n  {\"name\": ", r ? "," : "");
        json_string(f, rows[r].name);
        fprintf(f, ", \"right\": %s, \"ms\": ", rows[r].right ? "true" : "false");
        json_number(f, rows[r].ms);
        fputs(", \"gbps\": ", f);
        json_number(f, rows[r].gbps);
        fputs(", \"roofline_fraction\": ", f);
        json_number(f, rows[r].fraction);
        fputs(", \"rate\": ", f);
        json_number(f, rows[r].rate);
        fputs(", \"step_speedup\": ", f);
        json_number(f, rows[r].step);
        fputs(", \"total_speedup\": ", f);
        json_number(f, rows[r].total);
        fputc('}', f);
    }
    fputs("\n]}\n", f);
    fclose(f);
}

int run_ladder_report(const grade_ctx *g, const char *results, int quick)
{
    const lab_spec *spec = g->spec;
    proto_call calls[TIMING_CALLS];
    make_timing_calls(g, 6000, &g->spec->fast.timed, calls); /* the ladder uses the first two */

    char req_path[512], rsp_path[512], log_path[512];
    snprintf(req_path, sizeof req_path, "%s/ladder.req", g->scratch);
    snprintf(rsp_path, sizeof rsp_path, "%s/ladder.rsp", g->scratch);
    snprintf(log_path, sizeof log_path, "%s/ladder.log", g->scratch);
    proto_request req;
    request_init(&req, g, MODE_LADDER, 2);
    req.max_seconds = 30; /* more items to time than the fast stage */
    if (quick) { /* a test: every rung right and timed, the figures rough */
        req.min_rounds = 3;
        req.target_rse = 0.02;
        req.max_seconds = 5;
    }
    if (write_request(req_path, &req, calls) != 0) {
        fprintf(stderr, "grade: cannot write %s\n", req_path);
        return 2;
    }
    /* The runner makes its inputs first, while other gradings may use the
     * GPU; it has the GPU alone only while it runs, and the rungs are
     * judged once it is let go. */
    char *argv[] = {(char *)g->runner, req_path, rsp_path, NULL};
    iso_limits limits = {600, iso_memory_limit(), 0, 0};
    iso_job job;
    int word;
    double t0 = iso_now_s();
    if (iso_start_waiting(&job, argv, log_path, &limits, &word) != 0) return 2;
    iso_wait_ready(word, limits.time_s);
    double t1 = iso_now_s();
    double waited = fast_run_alone(g, &job, word, NULL, NULL);
    iso_result ir = job.result;
    double t2 = iso_now_s();

    /* Every rung's check is reported against the check call. */
    proto_call checks[PROTO_MAX_ITEMS];
    for (int r = 0; r < PROTO_MAX_ITEMS; r++) checks[r] = calls[1];
    response rsp;
    response_read(rsp_path, spec, checks, PROTO_MAX_ITEMS, req.max_rounds, &rsp);
    if (rsp.malformed) {
        printf("error: malformed runner record (%s)\n", rsp.malformed_why);
        response_free(&rsp);
        return 2;
    }
    if (!rsp.has_timing) {
        char how[96];
        iso_describe(&ir, how, sizeof how);
        printf("the ladder run stopped (%s)%s%s\n", how, rsp.has_fatal ? ": " : "",
               rsp.has_fatal ? rsp.fatal.message : "");
        char *tail = iso_log_tail(log_path, 2000);
        if (tail) printf("%s\n", tail);
        free(tail);
        response_free(&rsp);
        return 1;
    }

    const proto_timing *t = &rsp.timing;
    /* The rungs, then the copy, then the lab's parts (ROOF_PARTS) if any. */
    int n = (t->n_parts > 0 ? t->first_part : t->n_items) - 1;
    size_t rounds = (size_t)t->n_rounds;
    double parts_ms[PROTO_MAX_ITEMS];
    for (int p = 0; p < t->n_parts; p++)
        parts_ms[p] = stats_median(rsp.samples + (size_t)(t->first_part + p) * rounds, rounds);
    double bound_ms = stats_slowest(parts_ms, (size_t)t->n_parts);
    double copy_ms = stats_median(rsp.samples + (size_t)n * rounds, rounds);
    double copy_gbps = t->copy_bytes / (copy_ms * 1e6);
    double bytes = spec->fast.bytes(calls[0].c.dims);
    double work = spec->fast.flops ? spec->fast.flops(calls[0].c.dims) : NAN;
    /* A lab with no roof of its own may count its instructions: each rung
     * is then measured against their time at the issue roof. */
    double issue_ms = spec->fast.roof == ROOF_NONE ? issue_roof_ms(g, calls[0].c.dims) : 0;
    rung_row rows[PROTO_MAX_ITEMS];
    int all_right = 1;
    for (int r = 0; r < n; r++) {
        rung_row *row = &rows[r];
        memset(row, 0, sizeof *row);
        snprintf(row->name, sizeof row->name, "%s", t->item_names[r]);
        stage_result st;
        memset(&st, 0, sizeof st);
        row->right = rsp.calls[r].finished && judge_call(g, &calls[1], &rsp.calls[r], 1, &st);
        if (!row->right) snprintf(row->problem, sizeof row->problem, "%s",
                                  st.summary[0] ? st.summary : "did not finish");
        sb_free(&st.details);
        all_right &= row->right;
        row->ms = stats_median(rsp.samples + (size_t)r * rounds, rounds);
        row->gbps = bytes / (row->ms * 1e6);
        row->fraction = spec->fast.roof == ROOF_PARTS ? bound_ms / row->ms
                        : issue_ms > 0                 ? issue_ms / row->ms
                                                       : row->gbps / copy_gbps;
        row->rate = work / (row->ms * 1e6);
        row->step = r ? rows[r - 1].ms / row->ms : NAN;
        row->total = rows[0].ms / row->ms;
    }

    char where[200];
    describe_call(g, &calls[0], where, sizeof where);
    printf("ladder of %s on %s at %s: %.0f MB per call; copy %.0f GB/s\n", spec->id,
           g->device.name, where, bytes / 1e6, copy_gbps);
    /* Memory-bound labs compare with copy; the others show their own rate
     * (GFLOP/s, pairs/s) when the spec counts the work. */
    int by_copy = spec->fast.roof == ROOF_COPY, by_parts = spec->fast.roof == ROOF_PARTS;
    int by_issue = issue_ms > 0;
    int by_rate = !by_copy && !by_parts && !by_issue && spec->fast.flops;
    if (by_parts) {
        char bound[400];
        bound_text(t->item_names + t->first_part, parts_ms, t->n_parts, bound, sizeof bound);
        printf("the bound: %s\n", bound);
    }
    if (by_issue) {
        char roof[200];
        issue_roof_text(g, calls[0].c.dims, roof, sizeof roof);
        printf("the roof: %s\n", roof);
    }
    char head[40] = "";
    if (by_copy) snprintf(head, sizeof head, " %8s %7s", "GB/s", "% copy");
    else if (by_parts) snprintf(head, sizeof head, " %8s %7s", "GB/s", "% bound");
    else if (by_issue) snprintf(head, sizeof head, " %7s", "% issue");
    else if (by_rate) snprintf(head, sizeof head, " %10s", rate_unit(spec));
    printf("%-36s %9s%s %7s %7s  %s\n", "rung", "time ms", head, "step", "total", "right");
    for (int r = 0; r < n; r++) {
        const rung_row *row = &rows[r];
        char step[16], figs[40] = "";
        if (r) snprintf(step, sizeof step, "%.2fx", row->step);
        else snprintf(step, sizeof step, "-");
        if (by_copy || by_parts)
            snprintf(figs, sizeof figs, " %8.0f %6.1f%%", row->gbps, 100 * row->fraction);
        else if (by_issue) snprintf(figs, sizeof figs, " %6.1f%%", 100 * row->fraction);
        else if (by_rate) snprintf(figs, sizeof figs, " %10.1f", row->rate);
        printf("%-36s %9.4f%s %7s %6.2fx  %s%s\n", row->name, row->ms, figs, step, row->total,
               row->right ? "yes" : "NO: ", row->problem);
    }
    printf("medians of %d rounds (%s%s), L2 flushed before every sample\n", t->n_rounds,
           t->converged ? "converged" : "not converged",
           quick ? "; --quick: rough figures, not for the slides" : "");
    if (g->has_resources) {
        strbuf kernels = {0};
        res_describe(&g->resources, g->device.regs_per_sm, g->device.max_warps_per_sm, &kernels);
        printf("the ladder's kernels, as the compiler reports them:\n%s", sb_str(&kernels));
        sb_free(&kernels);
    }
    printf("time: inputs %.1f s, waited for the GPU %.1f s, on the GPU alone %.1f s, judging "
           "%.1f s\n",
           t1 - t0, waited, ir.wall_s, iso_now_s() - t2);
    if (results) write_json(results, g, &calls[0], where, rows, n, copy_gbps, t, parts_ms, issue_ms);
    response_free(&rsp);
    return all_right ? 0 : 1;
}
