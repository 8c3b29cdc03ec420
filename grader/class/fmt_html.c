/* fmt_html.c - the class report as one static page: how many passed each
 * stage, the spread of speedups against each lab's bar, the most common
 * reasons for failing, and a row per student. Everything is inline (no
 * script, no font, no link), so it opens offline; every string from a
 * result is escaped, since student names and reasons come from files. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../labs.h"
#include "escape.h"
#include "formats.h"

enum { HTML_TOP_REASONS = 10, HTML_PLOT_W = 600, HTML_PLOT_H = 46 };

static const char HTML_HEAD[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>Class report</title>\n<style>\n"
    "body{font-family:sans-serif;margin:2em;max-width:60em}\n"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}\n"
    ".bar{background:#4a8;height:.8em;display:inline-block}\n"
    ".pass{color:#070}.fail,.error{color:#b00}\n"
    "</style></head><body>\n<h1>Class report</h1>\n";

/* Stage s passed / students, as a row with a bar. */
static void html_stage_rates(FILE *f, const sto_set *set)
{
    fputs("<h2>Stages</h2>\n<table><tr><th>stage</th><th>passed</th><th>rate</th></tr>\n", f);
    for (int s = 0; s < CLS_STAGES; s++) {
        size_t passed = 0;
        for (size_t i = 0; i < set->n; i++) passed += !strcmp(set->r[i].stages[s].status, "pass");
        double rate = set->n ? (double)passed / (double)set->n : 0;
        fprintf(f,
                "<tr><td>%s</td><td>%zu of %zu</td><td><span class=\"bar\" "
                "style=\"width:%.0fpx\"></span> %.0f%%</td></tr>\n",
                CLS_STAGE_NAMES[s], passed, set->n, 200 * rate, 100 * rate);
    }
    fputs("</table>\n", f);
}

/* One lab's speedups as dots on a log scale, the lab's bar a red line. */
static void html_speedup_strip(FILE *f, const sto_set *set, const char *lab)
{
    const lab_spec *spec = lab_find(lab);
    double bar = spec ? spec->fast.min_speedup : NAN;
    double lo = isfinite(bar) && bar > 0 ? bar : INFINITY, hi = lo;
    size_t n = 0;
    for (size_t i = 0; i < set->n; i++) {
        double x = set->r[i].fast.speedup;
        if (strcmp(set->r[i].lab, lab) || !(x > 0) || !isfinite(x)) continue;
        lo = fmin(lo, x);
        hi = fmax(hi, x);
        n++;
    }
    fputs("<h3>", f);
    esc_xml(f, lab, 0);
    fprintf(f, ": %zu speedup%s measured", n, n == 1 ? "" : "s");
    if (isfinite(bar)) fprintf(f, ", the bar is %gx", bar);
    fputs("</h3>\n", f);
    if (!isfinite(lo)) return;
    lo /= 2;
    hi *= 2;
    double span = log(hi) - log(lo);
#define HTML_X(v) (20 + (HTML_PLOT_W - 40) * (log(v) - log(lo)) / span)
    fprintf(f, "<svg width=\"%d\" height=\"%d\" role=\"img\">\n", HTML_PLOT_W, HTML_PLOT_H);
    fprintf(f, "<line x1=\"20\" y1=\"20\" x2=\"%d\" y2=\"20\" stroke=\"#999\"/>\n",
            HTML_PLOT_W - 20);
    for (size_t i = 0; i < set->n; i++) {
        double x = set->r[i].fast.speedup;
        if (strcmp(set->r[i].lab, lab) || !(x > 0) || !isfinite(x)) continue;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"20\" r=\"4\" fill=\"#248\" fill-opacity=\"0.6\">"
                   "<title>", HTML_X(x));
        esc_xml(f, set->r[i].student, 0);
        fprintf(f, ": %.2fx</title></circle>\n", x);
    }
    if (isfinite(bar) && bar > 0)
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"6\" x2=\"%.1f\" y2=\"34\" stroke=\"#c00\" "
                "stroke-width=\"2\"/><text x=\"%.1f\" y=\"44\" font-size=\"10\" fill=\"#c00\">"
                "bar %gx</text>\n",
                HTML_X(bar), HTML_X(bar), HTML_X(bar) + 3, bar);
    fprintf(f, "<text x=\"20\" y=\"44\" font-size=\"10\">%.2gx</text>"
               "<text x=\"%d\" y=\"44\" font-size=\"10\" text-anchor=\"end\">%.2gx</text>\n",
            lo, HTML_PLOT_W - 20, hi);
    fputs("</svg>\n", f);
#undef HTML_X
}

static void html_speedups(FILE *f, const sto_set *set)
{
    fputs("<h2>Speedups over the naive baseline</h2>\n", f);
    for (size_t i = 0; i < set->n; i++) {
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++) seen = !strcmp(set->r[k].lab, set->r[i].lab);
        if (!seen) html_speedup_strip(f, set, set->r[i].lab);
    }
}

/* The reasons of every result that did not pass, most common first. */
static void html_reasons(FILE *f, const sto_set *set)
{
    fputs("<h2>Why submissions did not pass</h2>\n", f);
    size_t shown = 0, done[HTML_TOP_REASONS];
    while (shown < HTML_TOP_REASONS) {
        size_t best = set->n, best_count = 0;
        for (size_t i = 0; i < set->n; i++) {
            const sr_result *r = &set->r[i];
            if (!strcmp(r->verdict, "pass")) continue;
            int taken = 0, earlier = 0;
            for (size_t k = 0; k < shown; k++) taken |= !strcmp(set->r[done[k]].reason, r->reason);
            for (size_t k = 0; k < i && !earlier; k++)
                earlier = strcmp(set->r[k].verdict, "pass") && !strcmp(set->r[k].reason, r->reason);
            if (taken || earlier) continue;
            size_t count = 0;
            for (size_t k = 0; k < set->n; k++)
                count += strcmp(set->r[k].verdict, "pass") && !strcmp(set->r[k].reason, r->reason);
            if (count > best_count) best = i, best_count = count;
        }
        if (best == set->n) break;
        if (!shown) fputs("<table><tr><th>students</th><th>reason</th></tr>\n", f);
        fprintf(f, "<tr><td>%zu</td><td>", best_count);
        esc_xml(f, set->r[best].reason, 0);
        fputs("</td></tr>\n", f);
        done[shown++] = best;
    }
    fputs(shown ? "</table>\n" : "<p>Every submission passed.</p>\n", f);
}

static void html_students(FILE *f, const sto_set *set, const crs_course *c)
{
    fputs("<h2>Students</h2>\n<table><tr><th>student</th><th>lab</th>", f);
    for (int s = 0; s < CLS_STAGES; s++) fprintf(f, "<th>%s</th>", CLS_STAGE_NAMES[s]);
    fputs("<th>points</th><th>speedup</th><th>verdict</th><th>reason</th></tr>\n", f);
    for (size_t i = 0; i < set->n; i++) {
        const sr_result *r = &set->r[i];
        double total = 0;
        fputs("<tr><td>", f);
        esc_xml(f, r->student, 0);
        fputs("</td><td>", f);
        esc_xml(f, r->lab, 0);
        fputs("</td>", f);
        for (int s = 0; s < CLS_STAGES; s++) {
            total += sr_stage_points(r, s, crs_points(c, r->lab, s));
            fputs("<td class=\"", f);
            esc_xml(f, r->stages[s].status, 1);
            fputs("\">", f);
            esc_xml(f, r->stages[s].status, 0);
            fputs("</td>", f);
        }
        fprintf(f, "<td>%g of %g</td><td>", total, crs_max_total(c, r->lab));
        if (isfinite(r->fast.speedup)) fprintf(f, "%.2fx", r->fast.speedup);
        fputs("</td><td>", f);
        esc_xml(f, r->verdict, 0);
        fputs("</td><td>", f);
        esc_xml(f, r->reason, 0);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

int fmt_html(FILE *f, const sto_set *set, const crs_course *c)
{
    fputs(HTML_HEAD, f);
    fprintf(f, "<p>%zu result%s.</p>\n", set->n, set->n == 1 ? "" : "s");
    html_stage_rates(f, set);
    html_speedups(f, set);
    html_reasons(f, set);
    html_students(f, set, c);
    fputs("</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
