/* test_fast.c - the fast stage believes a runner's early stop only where
 * the samples it was sent show the same verdict. */
#include <string.h>

#include "check.h"
#include "fast.h"
#include "fast_rules.h"

extern const lab_spec LAB_01_VECTOR_ADD;    /* 50% of copy, 3x, ceiling 40x */
extern const lab_spec LAB_06_HISTOGRAM_RDF; /* no roof, 60x, ceiling 2000x */
extern const lab_spec LAB_02_IEEE754;       /* no roof; counts its instructions */

/* Lab 01's reference: 96% of copy, 4.5x, ten rounds of medians within 2%. */
static fast_figures reference(int decided)
{
    fast_figures f;
    memset(&f, 0, sizeof f);
    f.decided = decided;
    f.samples = f.min_rounds = 10;
    f.sure_precise = 1;
    f.speedup = 4.5;
    f.roofline = 0.96;
    f.gbps = 2880;
    f.copy_gbps = 3000;
    f.submission_ms = 0.2;
    return f;
}

static int contradicts(const fast_figures *f, int passes)
{
    return fast_stop_contradicts(&LAB_01_VECTOR_ADD, f, passes, 3.0, 0.5);
}

/* Sampled in full, or stopped on a failure the figures show: believed. */
static void a_stop_the_figures_show_is_believed(void)
{
    fast_figures f = reference(DECIDED_NOT);
    CHECK(!contradicts(&f, 1) && !contradicts(&f, 0));
    f = reference(DECIDED_FAR_BELOW);
    CHECK(!contradicts(&f, 0));
    f = reference(DECIDED_PASS);
    CHECK(!contradicts(&f, 1));
}

/* A failure claimed for a pass, a sure pass claimed for a failure, or one
 * stopped at a lucky moment: fewer rounds than asked, medians less
 * precise, a bar or a limit too near. */
static void a_stop_the_figures_do_not_show_is_not(void)
{
    fast_figures f = reference(DECIDED_FAR_BELOW);
    CHECK(contradicts(&f, 1));
    f = reference(DECIDED_PASS);
    CHECK(contradicts(&f, 0));
    f.samples = 3;
    CHECK(contradicts(&f, 1));
    f = reference(DECIDED_PASS);
    f.sure_precise = 0;
    CHECK(contradicts(&f, 1));
    f = reference(DECIDED_PASS);
    f.speedup = 3.2; /* 7% above its bar */
    CHECK(contradicts(&f, 1));
    f = reference(DECIDED_PASS);
    f.gbps = 3150; /* 105% of copy: 5% under the physical limit */
    CHECK(contradicts(&f, 1));
}

/* Lab 06's reference, 210x over a baseline of 0.28 s a call: three times
 * its bar and far from its ceiling, so three rounds are enough, precise
 * or not; at twice its bar they are not. */
static void a_pass_by_a_wide_margin_may_stop_after_three_rounds(void)
{
    fast_figures f;
    memset(&f, 0, sizeof f);
    f.decided = DECIDED_PASS;
    f.samples = FAST_DECIDE_ROUNDS;
    f.min_rounds = 10;
    f.speedup = 210;
    f.gbps = 1; /* lab 06 moves little memory: its copy rule is far */
    f.copy_gbps = 3000;
    f.submission_ms = 1.3;
    CHECK(!fast_stop_contradicts(&LAB_06_HISTOGRAM_RDF, &f, 1, 60.0, 0));
    f.speedup = 120; /* 2x its bar */
    CHECK(fast_stop_contradicts(&LAB_06_HISTOGRAM_RDF, &f, 1, 60.0, 0));
    f.speedup = 210;
    f.samples = FAST_DECIDE_ROUNDS - 1;
    CHECK(fast_stop_contradicts(&LAB_06_HISTOGRAM_RDF, &f, 1, 60.0, 0));
}

/* A bound of one part is named; of several, the slowest of them. */
static void a_bound_is_said_with_its_parts(void)
{
    char names[2][PROTO_NAME_LEN] = {"reading d_in", "h2d"};
    double ms[2] = {0.1002, 5.2436};
    char text[200];
    bound_text(names, ms, 1, text, sizeof text);
    CHECK(strcmp(text, "reading d_in alone 0.1002 ms") == 0);
    bound_text(names, ms, 2, text, sizeof text);
    CHECK(strcmp(text, "max(reading d_in 0.1002 ms, h2d 5.2436 ms) = 5.2436 ms") == 0);
}

/* Lab 02 counts the reference's warp instructions (14.66 per element): at
 * n = 2^24 on 132 SMs of 4 schedulers at 1980 MHz they take 246.0e6 /
 * (132 x 4 x 1.98e9) s = 0.2353 ms. A lab that counts none, or a GPU whose
 * figures are unknown (the emulation), has no such roof. */
static void an_instruction_roof_is_the_counted_instructions_at_full_issue(void)
{
    grade_ctx g;
    memset(&g, 0, sizeof g);
    g.spec = &LAB_02_IEEE754;
    g.device.sm_count = 132;
    g.device.clock_mhz = 1980;
    int64_t dims[LAB_MAX_DIMS] = {1 << 24};
    double ms = issue_roof_ms(&g, dims);
    CHECK(ms > 0.2352 && ms < 0.2354);
    char text[200];
    issue_roof_text(&g, dims, text, sizeof text);
    CHECK(strcmp(text, "the reference's 246.0 million warp instructions at the issue roof "
                       "(132 SMs x 4 schedulers x 1980 MHz) 0.2353 ms") == 0);
    g.spec = &LAB_06_HISTOGRAM_RDF;
    CHECK(issue_roof_ms(&g, dims) == 0);
    g.spec = &LAB_02_IEEE754;
    g.device.sm_count = 0;
    CHECK(issue_roof_ms(&g, dims) == 0);
}

const unit_test fast_tests[] = {
    TEST(a_stop_the_figures_show_is_believed),
    TEST(a_stop_the_figures_do_not_show_is_not),
    TEST(a_pass_by_a_wide_margin_may_stop_after_three_rounds),
    TEST(a_bound_is_said_with_its_parts),
    TEST(an_instruction_roof_is_the_counted_instructions_at_full_issue),
};
const int fast_tests_count = sizeof fast_tests / sizeof fast_tests[0];
