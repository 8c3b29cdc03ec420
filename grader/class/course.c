/* course.c - see course.h. */
#define _POSIX_C_SOURCE 200809L
#include "course.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const CLS_STAGE_NAMES[CLS_STAGES] = {"work", "right", "fast"};

int cls_stage_index(const char *name)
{
    for (int i = 0; i < CLS_STAGES; i++)
        if (!strcmp(name, CLS_STAGE_NAMES[i])) return i;
    return -1;
}

void crs_defaults(crs_course *c)
{
    memset(c, 0, sizeof *c);
    c->points[CLS_WORK] = 4;
    c->points[CLS_RIGHT] = 3;
    c->points[CLS_FAST] = 3;
    snprintf(c->visibility, sizeof c->visibility, "visible");
}

/* "07-matmul" -> "07": labs are told apart by their number. */
static void crs_lab_number(const char *lab, char *out, size_t size)
{
    size_t n = strcspn(lab, "-");
    snprintf(out, size, "%.*s", (int)n, lab);
}

static char *crs_trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static int crs_number(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(x) || x < 0) return -1;
    *out = x;
    return 0;
}

/* One "key = value" pair; returns a reason on error, NULL when fine. */
static const char *crs_set(crs_course *c, const char *key, const char *value)
{
    double x;
    if (!strcmp(key, "gradescope.visibility")) {
        static const char *const ok[] = {"visible", "hidden", "after_due_date", "after_published"};
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
            if (!strcmp(value, ok[i])) {
                snprintf(c->visibility, sizeof c->visibility, "%s", value);
                return NULL;
            }
        return "visibility must be visible, hidden, after_due_date or after_published";
    }
    if (!strncmp(key, "points.", 7)) {
        int s = cls_stage_index(key + 7);
        if (s < 0) return "the stage must be work, right or fast";
        if (crs_number(value, &x) != 0) return "points must be a number >= 0";
        c->points[s] = x;
        return NULL;
    }
    if (!strncmp(key, "lab.", 4)) {
        const char *lab = key + 4, *dot = strstr(lab, ".points.");
        if (!dot || dot == lab) return "expected lab.NN.points.STAGE";
        int s = cls_stage_index(dot + 8);
        if (s < 0) return "the stage must be work, right or fast";
        if (crs_number(value, &x) != 0) return "points must be a number >= 0";
        char name[64], number[16];
        snprintf(name, sizeof name, "%.*s", (int)(dot - lab), lab);
        crs_lab_number(name, number, sizeof number);
        for (int i = 0; i < c->n_overrides; i++)
            if (!strcmp(c->overrides[i].lab, number) && c->overrides[i].stage == s) {
                c->overrides[i].points = x;
                return NULL;
            }
        if (c->n_overrides == CRS_MAX_OVERRIDES) return "too many per-lab overrides";
        crs_override *o = &c->overrides[c->n_overrides++];
        snprintf(o->lab, sizeof o->lab, "%s", number);
        o->stage = s;
        o->points = x;
        return NULL;
    }
    return "unknown key";
}

int crs_parse(const char *text, crs_course *c, char *err, size_t err_size)
{
    char *copy = strdup(text ? text : "");
    if (!copy) { snprintf(err, err_size, "out of memory"); return -1; }
    int line_no = 0, rc = 0;
    for (char *line = copy, *next; line && !rc; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        line_no++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *t = crs_trim(line);
        if (!*t) continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            snprintf(err, err_size, "line %d: expected key = value, got '%s'", line_no, t);
            rc = -1;
            break;
        }
        *eq = 0;
        char *key = crs_trim(t), *value = crs_trim(eq + 1);
        const char *why = crs_set(c, key, value);
        if (why) {
            snprintf(err, err_size, "line %d: %s = %s: %s", line_no, key, value, why);
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

int crs_load(const char *path, crs_course *c, char *err, size_t err_size)
{
    crs_defaults(c);
    if (!path || !*path) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open the course file %s: %s", path, strerror(errno));
        return -1;
    }
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    int too_big = !feof(f);
    fclose(f);
    if (too_big) { snprintf(err, err_size, "%s: a course file is at most 64 KiB", path); return -1; }
    buf[n] = 0;
    char why[256];
    if (crs_parse(buf, c, why, sizeof why) != 0) {
        snprintf(err, err_size, "%s: %s", path, why);
        return -1;
    }
    return 0;
}

double crs_points(const crs_course *c, const char *lab, int stage)
{
    if (stage < 0 || stage >= CLS_STAGES) return 0;
    char number[16];
    crs_lab_number(lab ? lab : "", number, sizeof number);
    for (int i = 0; i < c->n_overrides; i++)
        if (c->overrides[i].stage == stage && !strcmp(c->overrides[i].lab, number))
            return c->overrides[i].points;
    return c->points[stage];
}

double crs_max_total(const crs_course *c, const char *lab)
{
    double t = 0;
    for (int s = 0; s < CLS_STAGES; s++) t += crs_points(c, lab, s);
    return t;
}
