/* fast.h - the fast stage (fast.c). */
#ifndef FAST_H
#define FAST_H

#include "gpu_clock.h"
#include "grade.h"
#include "isolate.h"
#include "judge.h"
#include "requests.h"

/* The fast stage's runner, started before work and right run: it makes its
 * inputs on the CPU meanwhile (a second or more for the large labs), then
 * waits on its stdin for the word to use the GPU. */
typedef struct {
    int waiting;  /* a runner was started and not yet told to go */
    int second;   /* it times the spec's second size (fast.second) */
    int go;       /* our end of its stdin */
    iso_job job;
    proto_call calls[TIMING_CALLS];
    judge_ahead *ahead[TIMING_CALLS]; /* the re-checks' answers, computed meanwhile */
    int min_rounds, max_rounds; /* the request's */
    char req_path[512], rsp_path[512], log_path[512];
} fast_runner;

/* Starts the runner; 0 when it started. */
int fast_start(const grade_ctx *g, fast_runner *r);
/* Stops a runner that is still waiting (work or right failed) and frees
 * what was computed ahead; at the end of every grading. */
void fast_abandon(fast_runner *r);
/* The stage, with the runner fast_start made (r->waiting) or a new one. */
void stage_fast(const grade_ctx *g, fast_runner *r, stage_result *st);
/* A runner started with iso_start_waiting, once ready, told to go and
 * waited for with the GPU to this grading alone (gpu_lock.h: exclusive,
 * taken only now and let go as soon as it ended, before any judging), the
 * GPU's clocks read just before and after when asked (NULL: not read).
 * Returns the seconds waited for the GPU. The fast stage and a ladder. */
double fast_run_alone(const grade_ctx *g, iso_job *job, int word, gpu_clock *before,
                      gpu_clock *after);
/* Whether the runner's early stop (f->decided) contradicts the verdict its
 * figures give (passes, against these bars; roof_bar 0: none): a failure
 * the figures do not show, or a sure pass they do not show (fewer rounds
 * than asked, medians less precise, or a rule met with less to spare than
 * fast_rules.h says). A runner so reporting was not the grader's own. */
int fast_stop_contradicts(const lab_spec *spec, const fast_figures *f, int passes,
                          double speedup_bar, double roof_bar);

/* The time the lab's counted warp instructions (lab_spec.fast.
 * warp_instructions) take at the issue roof of the graded GPU, SM_SCHEDULERS
 * per SM per clock at its boost clock; 0 when the lab counts none or the
 * GPU's figures are unknown. */
double issue_roof_ms(const grade_ctx *g, const int64_t *dims);

/* "the reference's 246.0 million warp instructions at the issue roof (132
 * SMs x 4 schedulers x 1980 MHz) 0.2353 ms", for the fast report and the
 * ladder. */
void issue_roof_text(const grade_ctx *g, const int64_t *dims, char *buf, size_t size);

/* ROOF_PARTS: the bound as the reports say it, "max(name 1.2345 ms, ...) =
 * 1.2345 ms", or "name alone 1.2345 ms" for a bound of one part. */
void bound_text(const char (*names)[PROTO_NAME_LEN], const double *ms, int n, char *buf,
                size_t size);
/* The unit of the lab's fast.flops() rate: "GFLOP/s" unless it says. */
const char *rate_unit(const lab_spec *spec);

#endif
