/* fmt_gradescope.c - Gradescope's results.json for one student.
 *
 * One test per stage with its score and max_score, a passed/failed status
 * (a skipped stage earned nothing, so it is "failed" with the reason in
 * its output), output in Markdown, the course's visibility, and
 * leaderboard entries for the fast stage's speedup and time when it was
 * measured. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "formats.h"

static const char *const FMT_STAGE_TITLES[CLS_STAGES] = {
    "work: make it work", "right: make it right", "fast: make it fast"};

static const char *fmt_word(const char *status)
{
    return !strcmp(status, "pass") ? "PASS"
         : !strcmp(status, "fail") ? "FAIL"
         : !strcmp(status, "error") ? "ERROR" : "skipped";
}

/* Markdown goes through a memory buffer: json_string needs the whole text. */
static void fmt_md_string(FILE *f, void (*write_md)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (m) {
        write_md(m, arg);
        fclose(m);
    }
    json_string(f, buf ? buf : "");
    free(buf);
}

static void fmt_stage_md(FILE *m, const void *arg)
{
    const sr_stage *st = arg;
    /* "skipped (make it work first)" says its status already. */
    const char *word = fmt_word(st->status);
    size_t n = strlen(word);
    if (!strncmp(st->message, word, n)) {
        fprintf(m, "**%s**", word);
        esc_md(m, st->message + n);
    } else {
        fprintf(m, "**%s** ", word);
        esc_md(m, st->message);
    }
    fputc('\n', m);
    if (st->details[0]) {
        fputc('\n', m);
        esc_md_block(m, st->details);
    }
    if (st->seconds > 0) {
        fprintf(m, "\n_took %.1f s", st->seconds);
        if (st->parts[0]) {
            fputs(": ", m);
            esc_md(m, st->parts);
        }
        fputs("_\n", m);
    }
}

typedef struct {
    const sr_result *r;
    double score, max;
} fmt_top;

static void fmt_top_md(FILE *m, const void *arg)
{
    const fmt_top *t = arg;
    const sr_result *r = t->r;
    fputs("**", m);
    esc_md(m, r->lab);
    fprintf(m, ": %s** (%g / %g points)\n", r->verdict, t->score, t->max);
    if (r->reason[0]) {
        fputc('\n', m);
        esc_md(m, r->reason);
        fputc('\n', m);
    }
    if (!strcmp(r->mode, "emulated"))
        fputs("\nGraded in the CPU emulation (no GPU was available): `work` and `right` ran on the "
              "CPU; `fast` needs a GPU and earned no points.\n", m);
}

static void fmt_leaderboard(FILE *f, const sr_fast *x)
{
    int any = 0;
    if (isfinite(x->speedup)) {
        fputs(",\n  \"leaderboard\": [{\"name\": \"speedup\", \"value\": ", f);
        json_number(f, x->speedup);
        fputs(", \"order\": \"desc\"}", f);
        any = 1;
    }
    if (isfinite(x->submission_ms)) {
        fputs(any ? ", " : ",\n  \"leaderboard\": [", f);
        fputs("{\"name\": \"time (ms)\", \"value\": ", f);
        json_number(f, x->submission_ms);
        fputs(", \"order\": \"asc\"}", f);
        any = 1;
    }
    if (any) fputc(']', f);
}

int fmt_gradescope(FILE *f, const sr_result *r, const crs_course *c)
{
    fmt_top top = {r, 0, crs_max_total(c, r->lab)};
    for (int s = 0; s < CLS_STAGES; s++) top.score += sr_stage_points(r, s, crs_points(c, r->lab, s));
    fputs("{\n  \"score\": ", f);
    json_number(f, top.score);
    fputs(",\n  \"output\": ", f);
    fmt_md_string(f, fmt_top_md, &top);
    fputs(",\n  \"output_format\": \"md\",\n  \"visibility\": ", f);
    json_string(f, c->visibility);
    fprintf(f, ",\n  \"execution_time\": %.0f,\n  \"tests\": [", r->wall_s);
    for (int s = 0; s < CLS_STAGES; s++) {
        const sr_stage *st = &r->stages[s];
        double worth = crs_points(c, r->lab, s);
        fprintf(f, "%s\n    {\"name\": \"%s\", \"number\": \"%d\", \"score\": ", s ? "," : "",
                FMT_STAGE_TITLES[s], s + 1);
        json_number(f, sr_stage_points(r, s, worth));
        fputs(", \"max_score\": ", f);
        json_number(f, worth);
        fprintf(f, ", \"status\": \"%s\", \"output\": ", !strcmp(st->status, "pass") ? "passed" : "failed");
        fmt_md_string(f, fmt_stage_md, st);
        fputs(", \"output_format\": \"md\", \"visibility\": ", f);
        json_string(f, c->visibility);
        fputc('}', f);
    }
    fputs("\n  ]", f);
    fmt_leaderboard(f, &r->fast);
    fputs("\n}\n", f);
    return ferror(f) ? -1 : 0;
}
