/* judge.h - the verdict on one finished call (judge.c). */
#ifndef JUDGE_H
#define JUDGE_H

#include "response.h"

/* Is one finished call right? Fills the stage on failure and
 * returns 0; returns 1 when it passes. `strict` adds the right stage's
 * checks (guards, inputs unchanged). */
int judge_call(const grade_ctx *g, const proto_call *call,
               const call_record *rec, int strict, stage_result *st);
void describe_call(const grade_ctx *g, const proto_call *call, char *buf,
                   size_t size);

/* Hints: the lab's own, or the engine's generic one. */
const char *hint_or(const char *lab_hint, const char *generic);

#endif
