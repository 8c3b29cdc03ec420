/* fast_rules.h - the fast stage's fixed rules, in one place for the judge
 * (fast.c), which applies them to the medians, and for the runner's timing
 * loop (runner/timing.cu), which stops sampling early once they have
 * decided the verdict by a wide margin.
 *
 * The lab's own bars (min_speedup, min_roofline, max_speedup) live in its
 * spec; these are the engine's.
 */
#ifndef FAST_RULES_H
#define FAST_RULES_H

#include <math.h>

#include "lab_spec.h"

/* A kernel may beat cudaMemcpy by a little; beating it by more than this
 * means work was skipped, cached or hidden on another stream. */
#define FAST_PHYSICAL_SLACK 1.10

/* The reference copy moves about 85-90% of the memory's theoretical peak
 * (the H100's 3.35 TB/s, the H200's 4.9 TB/s: memory clock x bus width x 2)
 * on a GPU the grader has to itself. Below this fraction, something it
 * cannot see shared the memory while it timed (a process of another
 * container, say): the timing is run again, never judged, since every
 * "% of copy" would be measured against a copy that was slowed. */
#define FAST_COPY_MIN_OF_PEAK 0.5

static inline int fast_copy_disturbed(double copy_bytes_per_s, double peak_bytes_per_s)
{
    return peak_bytes_per_s > 0 && copy_bytes_per_s < FAST_COPY_MIN_OF_PEAK * peak_bytes_per_s;
}

/* How many ulps a timed float output held to TOL_ULP may lie from the
 * baseline's answer on the same inputs; -1 for the other kinds (held to
 * the output's scale, or bit for bit). Both answers are within the lab's
 * ulps of the true value, and the distance in ulps (representable floats
 * between, compare.c) obeys the triangle inequality: two right answers are
 * at most twice the lab's ulps apart. The scale rule alone would let a
 * call switch to a fast, inaccurate intrinsic at the timed size, where the
 * CPU never looks (a relative 1e-3 is thousands of ulps). */
static inline double fast_timed_ulps(const lab_tolerance *t)
{
    return t->kind == TOL_ULP ? 2 * t->ulps : -1;
}

/* After the grader's stream finished a sample, waiting for the whole GPU
 * takes the time to let go of the grader's hold on the default stream (a
 * few microseconds; the trusted items, baseline, copy and vendor, show
 * it). Beyond the quickest of them by more than this, and by more than
 * half the timed call itself, means the call left work running on a
 * stream the events never saw. */
#define FAST_STRAGGLE_MIN_MS 0.05

/* The grader's own wait after a sample: the quickest of the trusted items'
 * (every item but 1, the submission) of n_items medians. */
static inline double fast_harness_straggle_ms(const double *straggle_ms, int n_items)
{
    double harness = straggle_ms[0];
    for (int i = 2; i < n_items; i++) harness = fmin(harness, straggle_ms[i]);
    return harness;
}

/* How long past the harness's wait the submission may keep the GPU busy
 * after a timed call of call_ms. */
static inline double fast_straggle_allowed_ms(double call_ms)
{
    return fmax(FAST_STRAGGLE_MIN_MS, 0.5 * call_ms);
}

/* No kernel does more arithmetic per second than every lane of every SM
 * at the rated clock; the margin covers a clock boosted past it. */
#define FAST_PEAK_FLOPS_SLACK 1.05

/* Whether a lab's rate is FLOP/s, held to the device's arithmetic peak
 * (lab_spec.fast.peak); a lab that counts other things per second
 * (rate_unit: pairs) is not. */
static inline int fast_peak_checked(const lab_spec *spec)
{
    return spec->fast.flops && !spec->fast.rate_unit;
}

/* Stopping early. Sampling goes on until every median is precise (the
 * stopping rule in stats.h) unless, after at least FAST_DECIDE_ROUNDS
 * rounds, the verdict is a failure whatever more samples could show: a
 * timed call was wrong, or the medians miss a bar (or pass a physical
 * limit, or straggle) by FAST_DECIDE_MARGIN times. */
#define FAST_DECIDE_ROUNDS 3
#define FAST_DECIDE_MARGIN 3.0

/* Or a pass that more samples cannot undo: after the request's minimum of
 * rounds, every timed call right, every median within FAST_SURE_RSE
 * (relative standard error) and every rule met with FAST_SURE_MARGIN to
 * spare (fast_headroom). A 2% error on each median puts a ratio of two
 * within about 3%: a margin of 12.5% is four of those. A reference at 96%
 * of copy (which a call may not outrun by more than FAST_PHYSICAL_SLACK:
 * 14.6% to spare) then stops after ten rounds instead of sampling a
 * baseline 500 times slower to 0.5%; a submission near a bar or a limit
 * is sampled in full, as before. The grader checks the claim against the
 * samples it was sent (fast.c). */
#define FAST_SURE_RSE 0.02
#define FAST_SURE_MARGIN 1.125

/* How far a timing clears the rules a pass must meet: the smallest ratio,
 * over the rules, of measured to needed (the speedup's bar, the roof's
 * bar; roof_bar <= 0: none) or of allowed to measured (the copy's speed
 * with its slack, the FLOP peak (of_peak 0: not checked), the lab's
 * ceiling on the speedup (max_speedup 0: none), the straggle). 1 is on
 * the line; below 1 fails. */
static inline double fast_headroom(double speedup, double speedup_bar, double max_speedup,
                                   double roof, double roof_bar, double of_copy, double of_peak,
                                   double straggle_ms, double call_ms)
{
    double h = speedup / speedup_bar;
    if (roof_bar > 0) h = fmin(h, roof / roof_bar);
    if (of_copy > 0) h = fmin(h, FAST_PHYSICAL_SLACK / of_copy);
    if (of_peak > 0) h = fmin(h, FAST_PEAK_FLOPS_SLACK / of_peak);
    if (max_speedup > 0) h = fmin(h, max_speedup / speedup);
    if (straggle_ms > 0) h = fmin(h, fast_straggle_allowed_ms(call_ms) / straggle_ms);
    return h;
}

/* Whether a timing may stop on a pass (see FAST_SURE_RSE): after the
 * request's rounds with every median precise and every rule met with
 * FAST_SURE_MARGIN to spare; or, as a failure may, after
 * FAST_DECIDE_ROUNDS rounds with every rule met FAST_DECIDE_MARGIN times
 * over (lab 06's reference is 3.5 times its bar, and its naive baseline
 * takes 0.28 s a call: ten rounds of it are 3 s that cannot change the
 * verdict). One rule for the runner that stops and the grader that checks
 * the stop (fast.c). */
static inline int fast_sure_pass(int rounds, int precise, double headroom)
{
    return (precise && headroom >= FAST_SURE_MARGIN) ||
           (rounds >= FAST_DECIDE_ROUNDS && headroom >= FAST_DECIDE_MARGIN);
}

#endif
