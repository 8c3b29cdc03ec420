/* grade.h - the parent's view of one grading run.
 *
 * The parent is the trusted side: it never loads the student's code. It
 * builds the runner, asks it to make calls, and judges what comes back.
 */
#ifndef GRADE_H
#define GRADE_H

#include <stdint.h>
#include <stdlib.h>

#include "isolate.h"
#include "lab_spec.h"
#include "protocol.h"
#include "gpu_clock.h"
#include "resources.h"
#include "text.h"

typedef enum { ST_PASS, ST_FAIL, ST_SKIPPED, ST_ERROR } stage_status;

enum { STAGE_WORK, STAGE_RIGHT, STAGE_FAST, N_STAGES };

/* Figures of the fast stage, for the report and the JSON. */
typedef struct {
    double baseline_ms, submission_ms, copy_ms, vendor_ms;
    double gbps, copy_gbps, gflops;
    double roofline; /* fraction of the roof */
    double speedup;
    double straggle_ms; /* GPU time left once the grader's stream was done */
    int samples, converged;
    /* Every timed call checked against the baseline: how many, and the
     * largest difference relative to the output's scale. */
    int timed_checked;
    double timed_worst_difference;
    gpu_clock clock_before, clock_after; /* read around the timing */
} fast_figures;

typedef struct {
    const char *name;
    stage_status status;
    char summary[320]; /* the one line a person reads */
    strbuf details;    /* what to look at, indented lines */
    int calls;         /* calls judged */
    double max_ulps;
    double max_err_ratio;
    char sanitizer[160];
    int has_fast;
    fast_figures fast;
    int malformed; /* the runner's records could not be trusted: exit 2 */
    int unreliable; /* the GPU was throttled or shared while timed: exit 2 */
} stage_result;

typedef struct {
    int ok;
    char error[256];
    char name[128], cc[16], driver[16], runtime[16], pci_bus_id[32];
    int sm_count, clock_mhz, mem_clock_mhz;
    long long l2_bytes, mem_bytes;
    int regs_per_sm, max_warps_per_sm;
} device_info;

typedef struct {
    const lab_spec *spec;
    const char *submission;   /* path as given */
    const char *scratch;      /* private directory for this run */
    const char *runner;       /* the built runner */
    const char *sanitizer;    /* compute-sanitizer, or NULL */
    char compile_flags[512];
    char symbols_checked[400]; /* what the allowlist check found, for reports */
    uint64_t seed;        /* what inputs are drawn from */
    uint64_t public_seed; /* what reports show: seed without the hidden part */
    int hidden_seed;      /* an instructor's secret is mixed into seed */
    int emulated;
    device_info device;
    /* The submission's kernels as the device compiler reported them; read
     * when the lab's spec asks for resources (GPU builds only). */
    int has_resources;
    res_list resources;
} grade_ctx;

/* One call's outcome as read from the response file. */
typedef struct {
    int begun, finished;
    proto_result result;
    unsigned char *outputs; /* packed output buffers, or NULL */
    size_t outputs_bytes;
} call_record;

typedef struct {
    int n_calls;
    call_record *calls;
    int has_timing;
    proto_timing timing;
    double *samples; /* timing.n_items x timing.n_rounds, item-major */
    int has_fatal;
    proto_fatal fatal;
    int malformed; /* a record no honest runner writes; see malformed_why */
    char malformed_why[96];
} response;

/* response.c: every count and string bounds-checked; a record no honest
 * runner writes sets malformed, and reading stops there. */
int response_read(const char *path, const lab_spec *spec,
                  const proto_call *calls, int n_calls, int max_rounds, response *r);
/* Fill the stage for a malformed response: "error: malformed runner
 * record", which makes the grade exit 2. Returns 1 if it was malformed. */
int response_malformed(const response *r, stage_result *st);
void response_free(response *r);

/* judge.c: is one finished call right? Fills the stage on failure and
 * returns 0; returns 1 when it passes. `strict` adds the right stage's
 * checks (guards, inputs unchanged). */
int judge_call(const grade_ctx *g, const proto_call *call,
               const call_record *rec, int strict, stage_result *st);
void describe_call(const grade_ctx *g, const proto_call *call, char *buf,
                   size_t size);

/* stages.c */
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
/* fast.c */
void stage_fast(const grade_ctx *g, stage_result *st);
/* The unit of the lab's fast.flops() rate: "GFLOP/s" unless it says. */
const char *rate_unit(const lab_spec *spec);

/* ladder.c: check and time every rung of the runner's LAB_LADDER and print
 * the table (and the JSON when results is not NULL). Returns an exit code. */
int run_ladder_report(const grade_ctx *g, const char *results);

/* build.c */
typedef struct {
    const char *nvcc, *arch, *include_dir, *objects_dir;
    /* The CPU emulation: the runtime and rewriter, and the trusted objects
     * compiled for it. */
    const char *emu_dir, *emu_objects_dir;
    /* Ladders only: the solution's own folder, so ladder.cu can include the
     * reference solution instead of repeating it, and the grader's headers
     * for lab_ladder. Never set for grading. */
    const char *source_dir, *grader_dir;
    /* What each compiler step may use (time, memory, file size, output). */
    iso_limits limits;
} build_config;
/* Compile the submission (with nvcc, or for the CPU when g->emulated),
 * check what it reads, calls and defines, and link the runner into
 * scratch. Returns 0 on success; BUILD_FAILED with the compiler's output
 * in *log, BUILD_REJECTED with the broken rule in *log, BUILD_LIMITED when
 * a step passed a limit (all three the submission's doing), or
 * BUILD_BROKEN when the grader's own side failed (caller frees *log). */
enum { BUILD_FAILED = -1, BUILD_REJECTED = -2, BUILD_LIMITED = -3, BUILD_BROKEN = -4 };
int build_runner(const build_config *b, grade_ctx *g, char *runner,
                 size_t runner_size, char **log);

/* report.c */
void report_header(const grade_ctx *g);
void report_stage(const stage_result *st);
int report_json(const char *path, const grade_ctx *g, const stage_result *st,
                int n, int passed);

/* Hints: the lab's own, or the engine's generic one. */
const char *hint_or(const char *lab_hint, const char *generic);

#endif
