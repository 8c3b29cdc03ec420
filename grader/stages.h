/* stages.h - the work and right stages, and running calls (stages.c). */
#ifndef STAGES_H
#define STAGES_H

#include "response.h"

void stage_work(const grade_ctx *g, stage_result *st);
void stage_right(const grade_ctx *g, stage_result *st);
/* Run the runner on a list of calls and judge every one; shared by work,
 * right and the sanitizer runs. Returns 1 if all passed. */
int run_calls(const grade_ctx *g, const char *tag, const proto_call *calls,
              int n, int strict, const char *tool, double limit_s,
              stage_result *st);
/* The runner's sandbox stopped a system call (rsp's fatal record says
 * which): fill the stage and return 1. */
int sandbox_stopped(const response *rsp, stage_result *st, const char *where);
/* Hazards (errors and warnings) in a racecheck log's summary line. */
long racecheck_hazards(const char *log);

#endif
