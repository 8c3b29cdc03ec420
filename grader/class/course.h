/* course.h - the course file: points per stage, per-lab overrides.
 *
 *   # comment
 *   points.work  = 4
 *   points.right = 3
 *   points.fast  = 3
 *   lab.07.points.fast = 5          (07, 07-matmul: the number decides)
 *   gradescope.visibility = visible (visible, hidden, after_due_date, after_published)
 *
 * Points live here, not in the results, so a changed course file re-scores
 * a graded class without grading it again. An unknown key is an error: a
 * typo must not silently give the default.
 */
#ifndef CLASS_COURSE_H
#define CLASS_COURSE_H

#include <stddef.h>

#include "class.h"

enum { CRS_MAX_OVERRIDES = 64 };

typedef struct {
    char lab[16]; /* the lab's number, e.g. "07" */
    int stage;
    double points;
} crs_override;

typedef struct {
    double points[CLS_STAGES];
    crs_override overrides[CRS_MAX_OVERRIDES];
    int n_overrides;
    char visibility[32];
} crs_course;

/* 4, 3 and 3 points; visible. */
void crs_defaults(crs_course *c);
/* Read key = value lines over the defaults. 0, or -1 with "line N: why". */
int crs_parse(const char *text, crs_course *c, char *err, size_t err_size);
/* The same from a file; NULL path: the defaults. */
int crs_load(const char *path, crs_course *c, char *err, size_t err_size);

/* The points a stage is worth in a lab ("07-matmul" or "07"). */
double crs_points(const crs_course *c, const char *lab, int stage);
double crs_max_total(const crs_course *c, const char *lab);

#endif
