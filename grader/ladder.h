/* ladder.h - a solution ladder checked and timed (ladder.c). */
#ifndef LADDER_H
#define LADDER_H

#include "grade.h"

/* check and time every rung of the runner's LAB_LADDER and print
 * the table (and the JSON when results is not NULL). quick: a looser
 * sampling rule (at least 3 rounds, 2% RSE, at most 5 s) for tests, which
 * prove every rung right, not its figures. Returns an exit code. */
int run_ladder_report(const grade_ctx *g, const char *results, int quick);

#endif
