/* fmt_table.c - the gradebook CSV and summary.json. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "formats.h"

static void fmt_csv_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, ",%.6g", x);
    else fputs(",", f);
}

int fmt_csv(FILE *f, const sto_set *set, const crs_course *c)
{
    fputs("student,lab,work,right,fast,total,max,verdict,reason,speedup,gbps,wall_s\n", f);
    for (size_t i = 0; i < set->n; i++) {
        const sr_result *r = &set->r[i];
        esc_csv(f, r->student);
        fputc(',', f);
        esc_csv(f, r->lab);
        double total = 0;
        for (int s = 0; s < CLS_STAGES; s++) {
            double p = sr_stage_points(r, s, crs_points(c, r->lab, s));
            total += p;
            fprintf(f, ",%g", p);
        }
        fprintf(f, ",%g,%g,", total, crs_max_total(c, r->lab));
        esc_csv(f, r->verdict);
        fputc(',', f);
        esc_csv(f, r->reason);
        fmt_csv_number(f, r->fast.speedup);
        fmt_csv_number(f, r->fast.gbps);
        fprintf(f, ",%.1f\n", r->wall_s);
    }
    return ferror(f) ? -1 : 0;
}

static const char *const FMT_VERDICTS[] = {"pass", "fail", "incomplete", "missing", "error"};
enum { FMT_N_VERDICTS = sizeof FMT_VERDICTS / sizeof FMT_VERDICTS[0] };

int fmt_summary_json(FILE *f, const sto_set *set, const crs_course *c)
{
    int verdicts[FMT_N_VERDICTS] = {0}, passes[CLS_STAGES] = {0};
    double wall = 0;
    fputs("{\"students\": [", f);
    for (size_t i = 0; i < set->n; i++) {
        const sr_result *r = &set->r[i];
        fputs(i ? ",\n  {\"student\": " : "\n  {\"student\": ", f);
        json_string(f, r->student);
        fputs(", \"lab\": ", f);
        json_string(f, r->lab);
        fputs(", \"verdict\": ", f);
        json_string(f, r->verdict);
        fputs(", \"reason\": ", f);
        json_string(f, r->reason);
        fputs(", \"points\": {", f);
        double total = 0;
        for (int s = 0; s < CLS_STAGES; s++) {
            double p = sr_stage_points(r, s, crs_points(c, r->lab, s));
            total += p;
            passes[s] += !strcmp(r->stages[s].status, "pass");
            fprintf(f, "%s\"%s\": %g", s ? ", " : "", CLS_STAGE_NAMES[s], p);
        }
        fprintf(f, "}, \"total\": %g, \"max\": %g, \"stages\": {", total, crs_max_total(c, r->lab));
        for (int s = 0; s < CLS_STAGES; s++) {
            fprintf(f, "%s\"%s\": ", s ? ", " : "", CLS_STAGE_NAMES[s]);
            json_string(f, r->stages[s].status);
        }
        fputs("}, \"mode\": ", f);
        json_string(f, r->mode);
        fputs(", \"speedup\": ", f);
        json_number(f, r->fast.speedup);
        fputs(", \"gbps\": ", f);
        json_number(f, r->fast.gbps);
        fprintf(f, ", \"wall_s\": %.1f}", r->wall_s);
        wall += r->wall_s;
        for (int v = 0; v < FMT_N_VERDICTS; v++) verdicts[v] += !strcmp(r->verdict, FMT_VERDICTS[v]);
    }
    fprintf(f, "\n], \"counts\": {\"students\": %zu", set->n);
    for (int v = 0; v < FMT_N_VERDICTS; v++) fprintf(f, ", \"%s\": %d", FMT_VERDICTS[v], verdicts[v]);
    fputs("}, \"stage_passes\": {", f);
    for (int s = 0; s < CLS_STAGES; s++)
        fprintf(f, "%s\"%s\": %d", s ? ", " : "", CLS_STAGE_NAMES[s], passes[s]);
    fprintf(f, "}, \"wall_s\": {\"total\": %.1f, \"mean\": %.1f}}\n", wall,
            set->n ? wall / (double)set->n : 0.0);
    return ferror(f) ? -1 : 0;
}

typedef int (*fmt_fn)(FILE *, const sto_set *, const crs_course *);

static int fmt_write_file(const char *dir, const char *name, fmt_fn fn, const sto_set *set,
                          const crs_course *c, char *err, size_t err_size)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = f ? fn(f, set, c) : -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
    }
    return rc;
}

int fmt_write_summaries(const char *dir, const sto_set *set, const crs_course *c, char *err,
                        size_t err_size)
{
    if (fmt_write_file(dir, "summary.csv", fmt_csv, set, c, err, err_size) != 0) return -1;
    return fmt_write_file(dir, "summary.json", fmt_summary_json, set, c, err, err_size);
}
