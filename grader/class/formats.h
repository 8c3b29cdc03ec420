/* formats.h - the reports made from a set of results.
 *
 * All of them read only the results (never a GPU), so a graded class can
 * be re-scored or exported again at any time with `class report`. Points
 * come from the course file: a stage earns its points when it passed.
 */
#ifndef CLASS_FORMATS_H
#define CLASS_FORMATS_H

#include <stdio.h>

#include "course.h"
#include "result.h"
#include "store.h"

/* Gradebook: student,lab,work,right,fast,total,max,verdict,reason,speedup,gbps,wall_s */
int fmt_csv(FILE *f, const sto_set *set, const crs_course *c);
/* summary.json: every student's points and verdict, and the class counts. */
int fmt_summary_json(FILE *f, const sto_set *set, const crs_course *c);
/* JUnit XML: a testsuite per lab, a testcase per student and stage. */
int fmt_junit(FILE *f, const sto_set *set, const crs_course *c);
/* One static HTML page: pass rate per stage, speedups against each lab's
 * bar, the most common reasons for failing, a row per student. */
int fmt_html(FILE *f, const sto_set *set, const crs_course *c);
/* Gradescope's results.json for one student. */
int fmt_gradescope(FILE *f, const sr_result *r, const crs_course *c);

/* summary.csv and summary.json in dir, each written whole then renamed. */
int fmt_write_summaries(const char *dir, const sto_set *set, const crs_course *c, char *err,
                        size_t err_size);

#endif
