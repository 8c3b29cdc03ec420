/* stages.h - the work and right stages, and running calls (stages.c). */
#ifndef STAGES_H
#define STAGES_H

#include "isolate.h"
#include "response.h"

/* The work stage, and with with_right the right stage too: one run of
 * work's calls and then right's, and once work's passed, one per
 * compute-sanitizer tool beside it; right is left alone unless work
 * passed. Each stage's seconds are from the start
 * until its verdict. */
void stages_work_and_right(const grade_ctx *g, stage_result *work, stage_result *right,
                           int with_right);
/* The runner's sandbox stopped a system call or another rule (rsp's fatal
 * record says which; a death by SIGSYS, which one it cannot say): fill the
 * stage and return 1. */
int sandbox_stopped(const response *rsp, const iso_result *ir, stage_result *st,
                    const char *where);
/* Hazards (errors and warnings) in a racecheck log's summary line. */
long racecheck_hazards(const char *log);

#endif
