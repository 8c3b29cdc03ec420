/* judge.h - the verdict on one finished call (judge.c). */
#ifndef JUDGE_H
#define JUDGE_H

#include "response.h"

/* Is one finished call right? Fills the stage on failure and
 * returns 0; returns 1 when it passes. `strict` adds the right stage's
 * checks (guards, inputs unchanged). */
int judge_call(const grade_ctx *g, const proto_call *call,
               const call_record *rec, int strict, stage_result *st);

/* The expected answer of one call (its inputs regenerated, the lab's CPU
 * reference run on them), computed ahead on a thread of its own, so that
 * judging the call later does not wait for the reference. */
typedef struct judge_ahead judge_ahead;
judge_ahead *judge_ahead_start(const lab_spec *spec, const proto_call *call);
/* judge_call with the answer computed ahead (NULL: computed now). */
int judge_call_ahead(const grade_ctx *g, const proto_call *call, const call_record *rec,
                     int strict, judge_ahead *ahead, stage_result *st);
/* Waits for the thread if it still runs. */
void judge_ahead_free(judge_ahead *ahead);
void describe_call(const grade_ctx *g, const proto_call *call, char *buf,
                   size_t size);

/* Hints: the lab's own, or the engine's generic one. */
const char *hint_or(const char *lab_hint, const char *generic);

/* The hint for a fault inside a kernel (on a GPU, or in the CPU
 * emulation): the lab's crash hint, or the engine's. */
const char *kernel_fault_hint(const lab_hints *h);

#endif
