/* fmt_junit.c - JUnit XML for CI dashboards: a testsuite per lab, a
 * testcase per student and stage. A failed stage is a <failure>, a stage
 * the grader could not judge (build error, grader died) an <error>, a
 * stage that did not run <skipped/>: a dashboard must never show a stage
 * that did not run as passed. */
#include <string.h>

#include "escape.h"
#include "formats.h"

typedef struct {
    int tests, failures, errors, skipped;
    double time_s;
} fmt_counts;

static void fmt_count(const sr_result *r, fmt_counts *k)
{
    for (int s = 0; s < CLS_STAGES; s++) {
        const char *st = r->stages[s].status;
        k->tests++;
        k->failures += !strcmp(st, "fail");
        k->errors += !strcmp(st, "error");
        k->skipped += !strcmp(st, "skipped");
    }
    k->time_s += r->wall_s;
}

static void fmt_counts_attrs(FILE *f, const fmt_counts *k)
{
    fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\"", k->tests,
            k->failures, k->errors, k->skipped, k->time_s);
}

static void fmt_testcase(FILE *f, const sr_result *r, int s)
{
    const sr_stage *st = &r->stages[s];
    fputs("    <testcase classname=\"", f);
    esc_xml(f, r->lab, 1);
    fputc('.', f);
    esc_xml(f, r->student, 1);
    fprintf(f, "\" name=\"%s\"", CLS_STAGE_NAMES[s]);
    /* Each stage's own seconds; what the grader spent outside the stages
     * (probing the GPU, building) goes on the first, so the suite's time
     * is the sum of its testcases'. */
    double staged = 0;
    for (int i = 0; i < CLS_STAGES; i++) staged += r->stages[i].seconds;
    double outside = r->wall_s > staged ? r->wall_s - staged : 0;
    fprintf(f, " time=\"%.3f\"", st->seconds + (s == 0 ? outside : 0.0));
    const char *tag = !strcmp(st->status, "fail") ? "failure"
                    : !strcmp(st->status, "error") ? "error"
                    : !strcmp(st->status, "skipped") ? "skipped" : NULL;
    if (!tag) {
        fputs("/>\n", f);
        return;
    }
    fprintf(f, ">\n      <%s message=\"", tag);
    esc_xml(f, st->message, 1);
    if (!strcmp(tag, "skipped")) {
        fputs("\"/>\n    </testcase>\n", f);
        return;
    }
    fprintf(f, "\" type=\"%s\">", st->status);
    esc_xml(f, st->message, 0);
    if (st->details[0]) {
        fputc('\n', f);
        esc_xml(f, st->details, 0);
    }
    fprintf(f, "</%s>\n    </testcase>\n", tag);
}

int fmt_junit(FILE *f, const sto_set *set, const crs_course *c)
{
    (void)c;
    fmt_counts all = {0};
    for (size_t i = 0; i < set->n; i++) fmt_count(&set->r[i], &all);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cuda-labs\"", f);
    fmt_counts_attrs(f, &all);
    fputs(">\n", f);
    /* The set is sorted by lab, so each lab is one run of entries. */
    for (size_t i = 0; i < set->n;) {
        size_t end = i;
        fmt_counts k = {0};
        while (end < set->n && !strcmp(set->r[end].lab, set->r[i].lab)) fmt_count(&set->r[end++], &k);
        fputs("  <testsuite name=\"", f);
        esc_xml(f, set->r[i].lab, 1);
        fputc('"', f);
        fmt_counts_attrs(f, &k);
        fputs(">\n", f);
        for (; i < end; i++)
            for (int s = 0; s < CLS_STAGES; s++) fmt_testcase(f, &set->r[i], s);
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
    return ferror(f) ? -1 : 0;
}
