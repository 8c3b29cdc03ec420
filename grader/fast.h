/* fast.h - the fast stage (fast.c). */
#ifndef FAST_H
#define FAST_H

#include "grade.h"

void stage_fast(const grade_ctx *g, stage_result *st);
/* The unit of the lab's fast.flops() rate: "GFLOP/s" unless it says. */
const char *rate_unit(const lab_spec *spec);

#endif
