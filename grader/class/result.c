/* result.c - see result.h. */
#define _POSIX_C_SOURCE 200809L
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

enum { SR_DETAILS_MAX = 6000 };

static char *sr_dup(const char *s)
{
    char *d = strdup(s ? s : "");
    return d ? d : NULL;
}

static void sr_set(char **dst, const char *s)
{
    free(*dst);
    *dst = sr_dup(s);
}

void sr_init(sr_result *r, const char *student, const char *lab)
{
    memset(r, 0, sizeof *r);
    snprintf(r->student, sizeof r->student, "%s", student ? student : "");
    snprintf(r->lab, sizeof r->lab, "%s", lab ? lab : "");
    snprintf(r->mode, sizeof r->mode, "none");
    r->grader_exit = -1;
    r->reason = sr_dup("");
    for (int s = 0; s < CLS_STAGES; s++) {
        snprintf(r->stages[s].status, sizeof r->stages[s].status, "skipped");
        r->stages[s].message = sr_dup("");
        r->stages[s].details = sr_dup("");
    }
    r->fast.gbps = r->fast.roofline_fraction = r->fast.speedup = NAN;
    r->fast.submission_ms = r->fast.baseline_ms = r->fast.gflops = NAN;
}

void sr_free(sr_result *r)
{
    free(r->reason);
    r->reason = NULL;
    for (int s = 0; s < CLS_STAGES; s++) {
        free(r->stages[s].message);
        free(r->stages[s].details);
        r->stages[s].message = r->stages[s].details = NULL;
    }
}

static int sr_known_status(const char *s)
{
    return !strcmp(s, "pass") || !strcmp(s, "fail") || !strcmp(s, "skipped") || !strcmp(s, "error");
}

static void sr_read_fast(const jv_value *fast, sr_fast *f)
{
    f->gbps = jv_num(fast, "gbps", NAN);
    f->roofline_fraction = jv_num(fast, "roofline_fraction", NAN);
    f->speedup = jv_num(fast, "speedup", NAN);
    f->submission_ms = jv_num(fast, "submission_ms", NAN);
    f->baseline_ms = jv_num(fast, "baseline_ms", NAN);
    f->gflops = jv_num(fast, "gflops", NAN);
}

/* "run 0.5 s, memcheck 1.4 s" from the grader's seconds_by_part. */
static void sr_read_parts(const jv_value *parts, char *out, size_t size)
{
    out[0] = 0;
    size_t at = 0;
    for (size_t i = 0; parts && parts->type == JV_OBJECT && i < parts->n && at < size; i++) {
        if (parts->items[i]->type != JV_NUMBER) continue;
        at += (size_t)snprintf(out + at, size - at, "%s%.40s %.1f s", at ? ", " : "",
                               parts->keys[i], parts->items[i]->number);
    }
}

/* The stages array, shared by the grader's JSON and our own lines. */
static int sr_read_stages(const jv_value *json, sr_result *r, char *err, size_t err_size)
{
    const jv_value *stages = jv_get(json, "stages");
    if (!stages || stages->type != JV_ARRAY) {
        snprintf(err, err_size, "no \"stages\" array");
        return -1;
    }
    int seen[CLS_STAGES] = {0};
    for (size_t i = 0; i < stages->n; i++) {
        const jv_value *st = stages->items[i];
        int s = cls_stage_index(jv_str(st, "name", ""));
        const char *status = jv_str(st, "status", "");
        if (s < 0 || !sr_known_status(status)) {
            snprintf(err, err_size, "stage %zu has an unknown name or status", i);
            return -1;
        }
        seen[s] = 1;
        snprintf(r->stages[s].status, sizeof r->stages[s].status, "%s", status);
        sr_set(&r->stages[s].message, jv_str(st, "message", ""));
        sr_set(&r->stages[s].details, jv_str(st, "details", ""));
        double seconds = jv_num(st, "seconds", 0);
        r->stages[s].seconds = isfinite(seconds) && seconds > 0 ? seconds : 0;
        const jv_value *parts = jv_get(st, "seconds_by_part");
        if (parts) sr_read_parts(parts, r->stages[s].parts, sizeof r->stages[s].parts);
        else snprintf(r->stages[s].parts, sizeof r->stages[s].parts, "%s",
                      jv_str(st, "parts", ""));
        const jv_value *fast = jv_get(st, "fast");
        if (s == CLS_FAST && fast) sr_read_fast(fast, &r->fast);
    }
    for (int s = 0; s < CLS_STAGES; s++)
        if (!seen[s]) {
            snprintf(err, err_size, "the stage %s is missing", CLS_STAGE_NAMES[s]);
            return -1;
        }
    return 0;
}

int sr_from_grader(const jv_value *json, sr_result *r, char *err, size_t err_size)
{
    if (!json || json->type != JV_OBJECT || !jv_str(json, "lab", NULL)) {
        snprintf(err, err_size, "not a grader result (no \"lab\")");
        return -1;
    }
    snprintf(r->lab, sizeof r->lab, "%s", jv_str(json, "lab", ""));
    snprintf(r->mode, sizeof r->mode, "%s", jv_str(json, "mode", "none"));
    if (sr_read_stages(json, r, err, err_size) != 0) return -1;
    /* The batch times the whole grading itself; a result read on its own
     * has only the grader's clock. */
    double total = jv_num(jv_get(json, "seconds"), "total", 0);
    if (r->wall_s <= 0 && isfinite(total) && total > 0) r->wall_s = total;
    sr_judge(r);
    /* A result the batch made up carries its own verdict (missing, error). */
    const char *verdict = jv_str(json, "class_verdict", NULL);
    if (verdict) {
        snprintf(r->verdict, sizeof r->verdict, "%s", verdict);
        sr_set(&r->reason, jv_str(json, "class_reason", r->reason));
    }
    return 0;
}

void sr_judge(sr_result *r)
{
    int first_bad = -1, first_skipped = -1;
    for (int s = 0; s < CLS_STAGES; s++) {
        const char *st = r->stages[s].status;
        if (first_bad < 0 && (!strcmp(st, "fail") || !strcmp(st, "error"))) first_bad = s;
        if (first_skipped < 0 && !strcmp(st, "skipped")) first_skipped = s;
    }
    int why = first_bad >= 0 ? first_bad : first_skipped;
    snprintf(r->verdict, sizeof r->verdict, "%s",
             first_bad >= 0 ? "fail" : first_skipped >= 0 ? "incomplete" : "pass");
    free(r->reason);
    r->reason = NULL;
    if (why < 0) {
        r->reason = sr_dup("");
        return;
    }
    const char *msg = r->stages[why].message;
    size_t n = strlen(msg) + 32;
    r->reason = malloc(n);
    if (r->reason) snprintf(r->reason, n, "%s: %s", CLS_STAGE_NAMES[why], msg);
}

void sr_make_error(sr_result *r, const char *verdict, const char *reason)
{
    snprintf(r->stages[CLS_WORK].status, sizeof r->stages[CLS_WORK].status, "error");
    sr_set(&r->stages[CLS_WORK].message, reason);
    for (int s = CLS_RIGHT; s < CLS_STAGES; s++) {
        snprintf(r->stages[s].status, sizeof r->stages[s].status, "skipped");
        sr_set(&r->stages[s].message, !strcmp(verdict, "missing") ? "skipped (nothing to grade)"
                                                                  : "skipped (grading did not finish)");
    }
    snprintf(r->verdict, sizeof r->verdict, "%s", verdict);
    sr_set(&r->reason, reason);
}

static void sr_num_field(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_number(f, v);
}

/* Details are cut at a line end below the limit, and say so. */
static void sr_details(FILE *f, const char *d)
{
    size_t n = strlen(d);
    if (n <= SR_DETAILS_MAX) { json_string(f, d); return; }
    size_t cut = SR_DETAILS_MAX;
    while (cut > SR_DETAILS_MAX / 2 && d[cut - 1] != '\n') cut--;
    char *s = malloc(cut + 64);
    if (!s) { json_string(f, ""); return; }
    snprintf(s, cut + 64, "%.*s[... %zu more bytes in the per-student report]", (int)cut, d, n - cut);
    json_string(f, s);
    free(s);
}

static void sr_write_stages(const sr_result *r, FILE *f, int cut_details)
{
    fputs("\"stages\": [", f);
    for (int s = 0; s < CLS_STAGES; s++) {
        fprintf(f, "%s{\"name\": \"%s\", \"status\": ", s ? ", " : "", CLS_STAGE_NAMES[s]);
        json_string(f, r->stages[s].status);
        fputs(", \"message\": ", f);
        json_string(f, r->stages[s].message);
        fputs(", \"details\": ", f);
        if (cut_details) sr_details(f, r->stages[s].details);
        else json_string(f, r->stages[s].details);
        if (r->stages[s].seconds > 0) {
            sr_num_field(f, "seconds", r->stages[s].seconds);
            fputs(", \"parts\": ", f);
            json_string(f, r->stages[s].parts);
        }
        if (s == CLS_FAST) {
            const sr_fast *x = &r->fast;
            fputs(", \"fast\": {\"gbps\": ", f);
            json_number(f, x->gbps);
            sr_num_field(f, "roofline_fraction", x->roofline_fraction);
            sr_num_field(f, "speedup", x->speedup);
            sr_num_field(f, "submission_ms", x->submission_ms);
            sr_num_field(f, "baseline_ms", x->baseline_ms);
            sr_num_field(f, "gflops", x->gflops);
            fputc('}', f);
        }
        fputc('}', f);
    }
    fputc(']', f);
}

int sr_write_line(const sr_result *r, FILE *f)
{
    fputs("{\"student\": ", f);
    json_string(f, r->student);
    fputs(", \"lab\": ", f);
    json_string(f, r->lab);
    fputs(", \"verdict\": ", f);
    json_string(f, r->verdict);
    fputs(", \"reason\": ", f);
    json_string(f, r->reason);
    fputs(", \"mode\": ", f);
    json_string(f, r->mode);
    fputs(", \"gpu\": ", f);
    json_string(f, r->gpu);
    fprintf(f, ", \"grader_exit\": %d", r->grader_exit);
    sr_num_field(f, "wall_s", r->wall_s);
    fprintf(f, ", \"finished_unix\": %.3f, ", r->finished_unix);
    sr_write_stages(r, f, 1);
    fputs("}\n", f);
    return ferror(f) ? -1 : 0;
}

int sr_from_line(const jv_value *json, sr_result *r, char *err, size_t err_size)
{
    const char *student = jv_str(json, "student", NULL);
    const char *verdict = jv_str(json, "verdict", NULL);
    sr_init(r, student, jv_str(json, "lab", "")); /* so the caller can always sr_free */
    if (!student || !*student || !verdict) {
        snprintf(err, err_size, "not a results.jsonl record (no student or verdict)");
        return -1;
    }
    if (sr_read_stages(json, r, err, err_size) != 0) return -1;
    snprintf(r->verdict, sizeof r->verdict, "%s", verdict);
    sr_set(&r->reason, jv_str(json, "reason", ""));
    snprintf(r->mode, sizeof r->mode, "%s", jv_str(json, "mode", "none"));
    snprintf(r->gpu, sizeof r->gpu, "%s", jv_str(json, "gpu", ""));
    r->grader_exit = (int)jv_num(json, "grader_exit", -1);
    r->wall_s = jv_num(json, "wall_s", 0);
    r->finished_unix = jv_num(json, "finished_unix", 0);
    return 0;
}

int sr_write_grader_json(const sr_result *r, FILE *f)
{
    fputs("{\"lab\": ", f);
    json_string(f, r->lab);
    fputs(", \"submission\": ", f);
    json_string(f, r->student);
    fputs(", \"mode\": ", f);
    json_string(f, r->mode);
    fputs(", \"class_verdict\": ", f);
    json_string(f, r->verdict);
    fputs(", \"class_reason\": ", f);
    json_string(f, r->reason);
    fputs(", ", f);
    sr_write_stages(r, f, 0);
    fputs(", \"passed\": false}\n", f);
    return ferror(f) ? -1 : 0;
}

double sr_stage_points(const sr_result *r, int stage, double worth)
{
    return !strcmp(r->stages[stage].status, "pass") ? worth : 0;
}
