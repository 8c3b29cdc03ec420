/* result.h - one student's result, as the batch keeps it.
 *
 * It is read from the grader's results JSON (or made up when the grader
 * could not give one), kept as one line of results.jsonl, and turned into
 * every report format from there. The verdict is computed here, from the
 * stages, in one place:
 *   pass        every stage passed
 *   fail        a stage failed or did not build (the student's doing)
 *   incomplete  nothing failed, but a stage could not run (no GPU, not asked)
 *   missing     the student's folder has no file for this lab
 *   error       the grader itself died, timed out or wrote no results
 */
#ifndef CLASS_RESULT_H
#define CLASS_RESULT_H

#include <stdio.h>

#include "class.h"
#include "json.h"

typedef struct {
    char status[16];  /* pass, fail, skipped, error */
    char *message;    /* the one line a person reads */
    char *details;    /* what to look at: mismatches, the compiler's words */
    double seconds;   /* the stage's wall time; 0 when it did not run */
    char parts[160];  /* where it went: "run 0.5 s, memcheck 1.4 s"; "" */
} sr_stage;

/* The fast stage's key figures; NaN where the grader gave none. */
typedef struct {
    double gbps, roofline_fraction, speedup, submission_ms, baseline_ms, gflops;
} sr_fast;

typedef struct {
    char student[256];
    char lab[64];
    char verdict[16];
    char *reason;         /* the first failure or what is missing; "" on pass */
    char mode[16];        /* gpu, emulated, none */
    char gpu[64];         /* CUDA_VISIBLE_DEVICES the grader ran with; "" */
    int grader_exit;      /* -1: it did not exit by itself, or never ran */
    double wall_s;
    double finished_unix; /* when the result was recorded; the latest wins */
    sr_stage stages[CLS_STAGES];
    sr_fast fast;
} sr_result;

void sr_init(sr_result *r, const char *student, const char *lab);
void sr_free(sr_result *r);

/* Fill stages, lab, mode and figures from the grader's results JSON, then
 * the verdict. -1 with a reason when it is not a grader result. */
int sr_from_grader(const jv_value *json, sr_result *r, char *err, size_t err_size);

/* The grader gave nothing usable: verdict error (or missing), the reason
 * on the work stage, the rest skipped. */
void sr_make_error(sr_result *r, const char *verdict, const char *reason);

/* Derive verdict and reason from the stages. */
void sr_judge(sr_result *r);

/* One results.jsonl record, and back. The line ends with a newline and
 * holds no other; details are cut to a few KiB to keep lines small. */
int sr_write_line(const sr_result *r, FILE *f);
/* Both fill r even on failure, so sr_free(r) is always right after them
 * (sr_from_grader: after the caller's sr_init). */
int sr_from_line(const jv_value *json, sr_result *r, char *err, size_t err_size);

/* The grader's own JSON shape, for results the batch had to make up. */
int sr_write_grader_json(const sr_result *r, FILE *f);

/* Points of a stage under a course's points for it: all or nothing. */
double sr_stage_points(const sr_result *r, int stage, double worth);

#endif
