/* report.h - the text report and the JSON (report.c). */
#ifndef REPORT_H
#define REPORT_H

#include "grade.h"

void report_header(const grade_ctx *g);
void report_stage(const stage_result *st);
int report_json(const char *path, const grade_ctx *g, const stage_result *st,
                int n, int passed);

#endif
