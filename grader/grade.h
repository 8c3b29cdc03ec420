/* grade.h - the parent's view of one grading run: its context (grade_ctx)
 * and what each stage reports (stage_result). Types only; each module's
 * functions are in its own header (build.h, stages.h, fast.h, judge.h,
 * response.h, requests.h, report.h, ladder.h).
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
    double peak_flops; /* the lab's arithmetic peak on this GPU (FLOP/s), 0 unknown */
    double roofline; /* fraction of the roof */
    double speedup;
    double straggle_ms; /* GPU busy after the grader's stream was done, beyond the trusted items */
    double harness_straggle_ms; /* the quickest trusted item's wait: the grader's own */
    int samples, converged;
    int decided; /* proto_decided: sampling stopped early on a sure verdict */
    int min_rounds; /* the request's */
    int sure_precise; /* every median within FAST_SURE_RSE (fast_rules.h) */
    /* Every timed call checked against the baseline: how many, and the
     * largest difference relative to the output's scale. */
    int timed_checked;
    double timed_worst_difference;
    gpu_clock clock_before, clock_after; /* read around the timing */
    /* ROOF_PARTS: the lab's trusted parts' medians and names; bound_ms is
     * the slowest of them, the roof. */
    int n_parts;
    double parts_ms[PROTO_MAX_ITEMS];
    char part_names[PROTO_MAX_ITEMS][PROTO_NAME_LEN];
    double bound_ms;
    /* lab_spec.fast.warp_instructions: their time at the issue roof, and
     * that time over the call's; 0 and NAN where the lab counts none. */
    double issue_roof_ms, issue_fraction;
} fast_figures;

/* Where a stage's wall time went: "run" (the plain runner), a sanitizer
 * tool's name, or "timing". */
enum { MAX_TIME_PARTS = 6 };
typedef struct {
    const char *name;
    double seconds;
} time_part;

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
    double seconds; /* wall time of the whole stage; 0 when it did not run */
    time_part parts[MAX_TIME_PARTS];
    int n_parts;
    /* The report shows a failing case (the smallest found, grader/stages.c),
     * whose largest input or output has this many elements. */
    int shows_failing_case;
    int64_t failing_elements;
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
    const char *gpu_lock_dir; /* where gradings take turns on the GPU (gpu_lock.h) */
    const char *ladder_dir; /* where the lab's ladder timings are (placement.h), or NULL */
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
    /* --time-limits: work's and right's calls capped at these seconds
     * instead of the lab's spec (0: the spec's, or the defaults). */
    double work_limit_s, right_limit_s;
    /* --no-smallest: a failing call is not tried again at smaller sizes
     * (for the tests on a GPU, which check the search on a few files only;
     * the verdict is the same either way). */
    int no_smallest;
    /* --fast-only: work and right are not run (their checks passed in an
     * earlier grading); the report and the JSON say so. */
    int fast_only;
    double started_s;                    /* iso_now_s() when grading began */
    double probe_seconds, build_seconds; /* wall time before the stages */
    int build_reused; /* the runner of an identical earlier build (build_cache.h) */
} grade_ctx;

#endif
