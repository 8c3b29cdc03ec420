/* report.h - the text report and the JSON (report.c). */
#ifndef REPORT_H
#define REPORT_H

#include "grade.h"

void report_header(const grade_ctx *g);
void report_stage(const stage_result *st);
/* Count `seconds` of a stage's wall time under `part` ("run", a
 * sanitizer's name, "timing"); parts of one name add up. */
void report_add_time(stage_result *st, const char *part, double seconds);
/* A wait for the GPU (gpu_lock.h) of more than a blink: a "waited" part
 * of the stage's wall time (which its caller measures around the wait). */
void report_add_wait(stage_result *st, double waited_s);
/* One line: where the wall time went, stage by stage and part by part. */
void report_times(const grade_ctx *g, const stage_result *st, int n);
int report_json(const char *path, const grade_ctx *g, const stage_result *st,
                int n, int passed);

#endif
