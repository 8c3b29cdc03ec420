/* report.c - one line per stage for a person, and the JSON for tools. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grade.h"
#include "isolate.h"
#include "report.h"

static const char *status_word(stage_status s)
{
    switch (s) {
    case ST_PASS: return "PASS";
    case ST_FAIL: return "FAIL";
    case ST_SKIPPED: return "skipped";
    case ST_ERROR: return "ERROR";
    }
    return "?";
}

static const char *status_json(stage_status s)
{
    switch (s) {
    case ST_PASS: return "pass";
    case ST_FAIL: return "fail";
    case ST_SKIPPED: return "skipped";
    case ST_ERROR: return "error";
    }
    return "error";
}

void report_header(const grade_ctx *g)
{
    const device_info *d = &g->device;
    printf("lab %s (%s): %s\n", g->spec->id, g->spec->title, g->submission);
    if (g->emulated)
        printf("emulated on the CPU (%s): work and right only; seed %llu\n", d->error,
               (unsigned long long)g->public_seed);
    else if (d->ok)
        printf("%s, compute capability %s, %d SMs, %d MHz, memory %d MHz, driver %s, "
               "runtime %s; seed %llu\n",
               d->name, d->cc, d->sm_count, d->clock_mhz, d->mem_clock_mhz, d->driver,
               d->runtime, (unsigned long long)g->public_seed);
    if (g->hidden_seed) printf("inputs also drawn from the instructor's hidden seed\n");
    if (g->work_limit_s > 0)
        printf("time limits set by --time-limits: work %g s, right %g s\n", g->work_limit_s,
               g->right_limit_s);
    if (g->no_smallest) printf("smallest failing case not searched (--no-smallest)\n");
    if (g->fast_only) printf("work and right not run (--fast-only): this grading times fast alone\n");
    if (g->compile_flags[0]) printf("built with: %s\n", g->compile_flags);
    if (g->symbols_checked[0]) printf("calls checked: %s\n", g->symbols_checked);
}

void report_stage(const stage_result *st)
{
    const char *word = status_word(st->status), *summary = st->summary;
    /* "skipped (make it work first)" says its status itself: not twice. */
    if (!strncmp(summary, word, strlen(word))) printf("%-5s %s\n", st->name, summary);
    else printf("%-5s %-7s %s\n", st->name, word, summary);
    if (st->details.len) {
        strbuf indented = {0};
        sb_indent(&indented, sb_str(&st->details), "      ");
        fputs(sb_str(&indented), stdout);
        sb_free(&indented);
    }
    fflush(stdout);
}

void report_add_time(stage_result *st, const char *part, double seconds)
{
    for (int i = 0; i < st->n_parts; i++)
        if (!strcmp(st->parts[i].name, part)) {
            st->parts[i].seconds += seconds;
            return;
        }
    if (st->n_parts < MAX_TIME_PARTS) st->parts[st->n_parts++] = (time_part){part, seconds};
}

void report_add_wait(stage_result *st, double waited_s)
{
    if (waited_s < 0.05) return; /* a blink is not worth a place in the time line */
    report_add_time(st, "waited", waited_s);
}

static double total_seconds(const grade_ctx *g)
{
    return g->started_s > 0 ? iso_now_s() - g->started_s : 0;
}

void report_times(const grade_ctx *g, const stage_result *st, int n)
{
    printf("time: probe %.1f s, build %.1f s%s", g->probe_seconds, g->build_seconds,
           g->build_reused ? " (reused: built the same way before)" : "");
    for (int i = 0; i < n; i++) {
        if (st[i].seconds <= 0) continue;
        printf(", %s %.1f s", st[i].name, st[i].seconds);
        for (int p = 0; p < st[i].n_parts; p++)
            printf("%s%s %.1f", p ? ", " : " (", st[i].parts[p].name, st[i].parts[p].seconds);
        if (st[i].n_parts) putchar(')');
    }
    printf("; total %.1f s\n", total_seconds(g));
    fflush(stdout);
}

static void json_field(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_number(f, v);
}

static void json_fast(FILE *f, const fast_figures *x)
{
    static const char *const decided[] = {[DECIDED_WRONG] = "wrong",
                                          [DECIDED_FAR_BELOW] = "far_below",
                                          [DECIDED_IMPOSSIBLE] = "impossible",
                                          [DECIDED_STRAGGLE] = "straggle",
                                          [DECIDED_PASS] = "sure_pass"};
    fprintf(f, ", \"fast\": {\"samples\": %d, \"converged\": %s", x->samples,
            x->converged ? "true" : "false");
    if (x->decided > 0 && x->decided < (int)(sizeof decided / sizeof *decided))
        fprintf(f, ", \"stopped_early\": \"%s\"", decided[x->decided]);
    json_field(f, "baseline_ms", x->baseline_ms);
    json_field(f, "submission_ms", x->submission_ms);
    json_field(f, "copy_ms", x->copy_ms);
    json_field(f, "vendor_ms", x->vendor_ms);
    json_field(f, "gbps", x->gbps);
    json_field(f, "copy_gbps", x->copy_gbps);
    json_field(f, "gflops", x->gflops);
    json_field(f, "peak_gflops", x->peak_flops > 0 ? x->peak_flops / 1e9 : NAN);
    json_field(f, "roofline_fraction", x->roofline);
    if (x->n_parts > 0) {
        json_field(f, "bound_ms", x->bound_ms);
        fputs(", \"parts_ms\": {", f);
        for (int p = 0; p < x->n_parts; p++) {
            fputs(p ? ", " : "", f);
            json_string(f, x->part_names[p]);
            fputs(": ", f);
            json_number(f, x->parts_ms[p]);
        }
        fputc('}', f);
    }
    if (x->issue_roof_ms > 0) {
        json_field(f, "issue_roof_ms", x->issue_roof_ms);
        json_field(f, "issue_fraction", x->issue_fraction);
    }
    json_field(f, "speedup", x->speedup);
    json_field(f, "straggle_ms", x->straggle_ms);
    json_field(f, "harness_straggle_ms", x->harness_straggle_ms);
    fprintf(f, ", \"timed_calls_checked\": %d", x->timed_checked);
    json_field(f, "timed_worst_difference", x->timed_worst_difference);
    const gpu_clock *clock[2] = {&x->clock_before, &x->clock_after};
    const char *name[2] = {"gpu_before_timing", "gpu_after_timing"};
    for (int i = 0; i < 2; i++) {
        const gpu_clock *c = clock[i];
        if (!c->ok) {
            fprintf(f, ", \"%s\": null", name[i]);
            continue;
        }
        fprintf(f,
                ", \"%s\": {\"sm_mhz\": %u, \"max_sm_mhz\": %u, \"mem_mhz\": %u, "
                "\"temperature_c\": %u, \"throttle_reasons\": %llu, \"other_processes\": %u}",
                name[i], c->sm_mhz, c->max_sm_mhz, c->mem_mhz, c->temperature_c, c->reasons,
                c->other_processes);
    }
    fputc('}', f);
}

static void json_device(FILE *f, const grade_ctx *g)
{
    const device_info *d = &g->device;
    fputs("{\"name\": ", f);
    json_string(f, g->emulated ? "CPU emulation" : d->name);
    fputs(", \"compute_capability\": ", f);
    json_string(f, d->cc);
    fprintf(f, ", \"sm_count\": %d, \"clock_mhz\": %d, \"mem_clock_mhz\": %d, "
               "\"l2_bytes\": %lld, \"driver\": ",
            d->sm_count, d->clock_mhz, d->mem_clock_mhz, d->l2_bytes);
    json_string(f, d->driver);
    fputs(", \"runtime\": ", f);
    json_string(f, d->runtime);
    fputc('}', f);
}

static void json_kernels(FILE *f, const res_list *list)
{
    fputs(", \"kernels\": [", f);
    for (int i = 0; i < list->n; i++) {
        const res_kernel *k = &list->k[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        json_string(f, k->name);
        fprintf(f, ", \"registers\": %d, \"stack_bytes\": %ld, \"spill_store_bytes\": %ld, "
                   "\"spill_load_bytes\": %ld, \"shared_bytes\": %ld}",
                k->registers, k->stack_bytes, k->spill_store_bytes, k->spill_load_bytes,
                k->shared_bytes);
    }
    fputc(']', f);
}

int report_json(const char *path, const grade_ctx *g, const stage_result *st,
                int n, int passed)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs("{\"lab\": ", f);
    json_string(f, g->spec->id);
    fputs(", \"submission\": ", f);
    json_string(f, g->submission);
    fprintf(f, ", \"mode\": \"%s\", \"device\": ", g->emulated ? "emulated" : "gpu");
    json_device(f, g);
    fputs(", \"compile_flags\": ", f);
    json_string(f, g->compile_flags);
    fputs(", \"symbols\": ", f);
    json_string(f, g->symbols_checked);
    if (g->has_resources) json_kernels(f, &g->resources);
    fprintf(f, ", \"seed\": %llu, \"hidden_seed\": %s", (unsigned long long)g->public_seed,
            g->hidden_seed ? "true" : "false");
    if (g->work_limit_s > 0)
        fprintf(f, ", \"time_limits_s\": {\"work\": %g, \"right\": %g}", g->work_limit_s,
                g->right_limit_s);
    if (g->no_smallest) fputs(", \"smallest_searched\": false", f);
    if (g->fast_only) fputs(", \"fast_only\": true", f);
    fprintf(f, ", \"stages\": [");
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n  {\"name\": \"%s\", \"status\": \"%s\", \"message\": ", i ? "," : "",
                st[i].name, status_json(st[i].status));
        json_string(f, st[i].summary);
        fputs(", \"details\": ", f);
        json_string(f, sb_str(&st[i].details));
        fprintf(f, ", \"calls\": %d", st[i].calls);
        json_field(f, "max_ulps", st[i].max_ulps);
        if (st[i].shows_failing_case)
            fprintf(f, ", \"failing_case_elements\": %lld", (long long)st[i].failing_elements);
        if (st[i].sanitizer[0]) {
            fputs(", \"sanitizer\": ", f);
            json_string(f, st[i].sanitizer);
        }
        if (st[i].has_fast) json_fast(f, &st[i].fast);
        json_field(f, "seconds", st[i].seconds);
        fputs(", \"seconds_by_part\": {", f);
        for (int p = 0; p < st[i].n_parts; p++) {
            fprintf(f, "%s\"%s\": ", p ? ", " : "", st[i].parts[p].name);
            json_number(f, st[i].parts[p].seconds);
        }
        fputs("}}", f);
    }
    fputs("\n], \"seconds\": {\"probe\": ", f);
    json_number(f, g->probe_seconds);
    json_field(f, "build", g->build_seconds);
    json_field(f, "total", total_seconds(g));
    fprintf(f, "}, \"build_reused\": %s, \"passed\": %s}\n", g->build_reused ? "true" : "false",
            passed ? "true" : "false");
    return fclose(f) == 0 ? 0 : -1;
}
