/* test_compare.c - the tolerance kinds and the NaN rules. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "fast_rules.h"
#include "protocol.h"

static float from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* Compare got[] (floats) with exact[] under tol. */
static cmp_result run(cmp_tolerance tol, const float *got, double *exact, double *abs_sum,
                      int n)
{
    lab_expect e = {exact, abs_sum};
    cmp_result r;
    cmp_buffer(&tol, ELEM_F32, got, &e, n, &r);
    return r;
}

static const cmp_tolerance EXACT = {TOL_EXACT, 0, 0, 0};

static void exact_accepts_equal_values(void)
{
    float got[3] = {1.5f, -2.0f, 0.1f};
    double exact[3] = {1.5, -2.0, 0.1}; /* 0.1 rounds to the same float */
    cmp_result r = run(EXACT, got, exact, NULL, 3);
    CHECK(r.bad == 0 && r.checked == 3);
}

static void exact_rejects_one_ulp(void)
{
    float got[1] = {nextafterf(1.0f, 2.0f)};
    double exact[1] = {1.0};
    cmp_result r = run(EXACT, got, exact, NULL, 1);
    CHECK(r.bad == 1 && r.shown[0].kind == MIS_VALUE && r.shown[0].ulps == 1);
}

static void exact_tells_signed_zeros_apart(void)
{
    float got[1] = {0.0f};
    double exact[1] = {-0.0};
    CHECK(run(EXACT, got, exact, NULL, 1).bad == 1);
}

static void nan_never_passes_a_finite_reference(void)
{
    float got[1] = {NAN};
    double exact[1] = {3.0};
    cmp_tolerance loose = {TOL_ULP, 1e9, 0, 0};
    cmp_result r = run(loose, got, exact, NULL, 1);
    CHECK(r.bad == 1 && r.shown[0].kind == MIS_SPECIAL);
    cmp_tolerance bound = {TOL_BOUND, 0, 1e9, 1000};
    double sum[1] = {1e30};
    CHECK(run(bound, got, exact, sum, 1).bad == 1);
}

static void nan_where_expected_passes(void)
{
    float got[2] = {NAN, from_bits(0x7fffffffu)};
    double exact[2] = {NAN, NAN};
    CHECK(run(EXACT, got, exact, NULL, 2).bad == 0);
}

static void a_number_where_nan_is_expected_fails(void)
{
    float got[1] = {0.0f};
    double exact[1] = {NAN};
    cmp_result r = run(EXACT, got, exact, NULL, 1);
    CHECK(r.bad == 1 && r.shown[0].kind == MIS_SPECIAL);
}

static void infinities_must_match_in_sign(void)
{
    float got[2] = {INFINITY, -INFINITY};
    double exact[2] = {INFINITY, INFINITY};
    cmp_result r = run(EXACT, got, exact, NULL, 2);
    CHECK(r.bad == 1 && r.shown[0].index == 1);
}

static void poison_is_never_written(void)
{
    float got[6];
    double exact[6];
    for (int i = 0; i < 6; i++) { got[i] = (float)i; exact[i] = i; }
    got[2] = from_bits(PROTO_POISON_F32);
    got[4] = from_bits(PROTO_POISON_F32);
    cmp_result r = run(EXACT, got, exact, NULL, 6);
    CHECK(r.bad == 2 && r.count[MIS_NEVER_WRITTEN] == 2);
    CHECK(r.first_unwritten == 2 && r.last_unwritten == 4);
    CHECK(r.shown[0].kind == MIS_NEVER_WRITTEN && r.shown[0].index == 2);
}

static void a_quiet_nan_is_not_poison(void)
{
    /* Arithmetic on the signalling poison yields a quiet NaN: written. */
    float got[1] = {from_bits(PROTO_POISON_F32 | 0x00400000u)};
    double exact[1] = {NAN};
    cmp_result r = run(EXACT, got, exact, NULL, 1);
    CHECK(r.bad == 0 && r.first_unwritten == -1);
}

static void ulp_tolerance_is_inclusive(void)
{
    float one_up = nextafterf(1.0f, 2.0f), two_up = nextafterf(one_up, 2.0f);
    double exact[2] = {1.0, 1.0};
    cmp_tolerance tol = {TOL_ULP, 1, 0, 0};
    float got[2] = {one_up, two_up};
    cmp_result r = run(tol, got, exact, NULL, 2);
    CHECK(r.bad == 1 && r.shown[0].index == 1 && r.max_ulps == 2);
}

static void ulps_count_across_zero(void)
{
    float tiny = from_bits(1), minus_tiny = from_bits(0x80000001u);
    CHECK(cmp_ulps_f32(tiny, minus_tiny) == 2);
    CHECK(cmp_ulps_f32(0.0f, -0.0f) == 0);
    CHECK(isinf(cmp_ulps_f32(NAN, 1.0f)));
}

static void bound_follows_higham(void)
{
    /* Sum of 1000 terms with sum|terms| = 1000: allowed error is
     * 1 * gamma_1000 * 1000, about 6e-5. */
    double allowed = cmp_gamma(1000) * 1000;
    CHECK(fabs(allowed - 1000 * 1000 * 0x1p-24 / (1 - 1000 * 0x1p-24)) < 1e-12);
    cmp_tolerance tol = {TOL_BOUND, 0, 1, 1000};
    double exact[2] = {10.0, 10.0}, sum[2] = {1000, 1000};
    float got[2] = {(float)(10.0 + 0.9 * allowed), (float)(10.0 + 3 * allowed)};
    cmp_result r = run(tol, got, exact, sum, 2);
    CHECK(r.bad == 1 && r.shown[0].index == 1);
    cmp_result within = run(tol, got, exact, sum, 1); /* the first alone */
    CHECK(within.bad == 0 && within.max_err_ratio > 0.8 && within.max_err_ratio < 1.0);
}

static void gamma_edge_cases(void)
{
    CHECK(cmp_gamma(0) == 0);
    CHECK(isinf(cmp_gamma((int64_t)1 << 24)));
}

static void only_the_first_five_are_shown(void)
{
    float got[20];
    double exact[20];
    for (int i = 0; i < 20; i++) { got[i] = 1.0f; exact[i] = 2.0; }
    cmp_result r = run(EXACT, got, exact, NULL, 20);
    CHECK(r.bad == 20 && r.n_shown == CMP_SHOWN);
    for (int i = 0; i < CMP_SHOWN; i++) CHECK(r.shown[i].index == i);
}

static void integers_compare_exactly(void)
{
    int32_t got[3] = {5, -7, (int32_t)PROTO_POISON_I32};
    double exact[3] = {5, -6, 1};
    lab_expect e = {exact, NULL};
    cmp_result r;
    cmp_buffer(&EXACT, ELEM_I32, got, &e, 3, &r);
    CHECK(r.bad == 2 && r.count[MIS_VALUE] == 1 && r.count[MIS_NEVER_WRITTEN] == 1);
}

/* An element whose right answer has the poison's bits, and holds it, is
 * right; where the answer is anything else the poison is never written. */
static void an_answer_equal_to_the_poison_is_right(void)
{
    uint32_t got[2] = {PROTO_POISON_I32, PROTO_POISON_I32};
    double exact[2] = {(double)PROTO_POISON_I32, (double)PROTO_POISON_I32 - 65533};
    lab_expect e = {exact, NULL};
    cmp_result r;
    cmp_buffer(&EXACT, ELEM_U32, got, &e, 2, &r);
    CHECK(r.bad == 1 && r.count[MIS_NEVER_WRITTEN] == 1 && r.first_unwritten == 1);
    cmp_buffer(&EXACT, ELEM_I32, got, &e, 2, &r);
    CHECK(r.bad == 1 && r.count[MIS_NEVER_WRITTEN] == 1 && r.first_unwritten == 1);
}

/* A timed call held in ulps (fast_rules.h) may lie as far from the
 * baseline as two right answers can: one u ulps above the true value, the
 * other u below, across zero and binade edges too. One ulp more is out. */
static void timed_ulps_admit_two_right_answers_and_no_more(void)
{
    const lab_tolerance u4 = {.kind = TOL_ULP, .ulps = 4};
    double allowed = fast_timed_ulps(&u4);
    const float truths[] = {1.0f, 0.01f, -3.5e-39f, 0.0f, 65504.0f, -1.0f};
    for (size_t k = 0; k < sizeof truths / sizeof truths[0]; k++) {
        float up = truths[k], down = truths[k];
        for (int i = 0; i < 4; i++) {
            up = nextafterf(up, INFINITY);
            down = nextafterf(down, -INFINITY);
        }
        CHECK(cmp_ulps_f32(up, truths[k]) <= 4 && cmp_ulps_f32(down, truths[k]) <= 4);
        CHECK(cmp_ulps_f32(up, down) <= allowed);
        CHECK(cmp_ulps_f32(nextafterf(up, INFINITY), down) > allowed);
    }
    const lab_tolerance exact = {.kind = TOL_EXACT}, bound = {.kind = TOL_BOUND};
    CHECK(fast_timed_ulps(&exact) < 0 && fast_timed_ulps(&bound) < 0);
}

/* The copies measured on quiet GPUs pass; the one measured beside a
 * stranger on an H200 (369 GB/s against a 4915 GB/s peak) does not; an
 * unknown peak judges nothing. */
static void a_copy_far_below_the_memory_peak_is_disturbed(void)
{
    const double h100 = 3.35e12, h200 = 4.915e12;
    CHECK(!fast_copy_disturbed(2.95e12, h100) && !fast_copy_disturbed(4.15e12, h200));
    CHECK(fast_copy_disturbed(0.369e12, h200));
    CHECK(!fast_copy_disturbed(0.369e12, 0));
}

/* The headroom of a timing is its tightest rule: a reference at 96% of
 * copy against a bar of 50% and 4.5x against 2x has 1.92 over the roof's
 * bar but only 1.146 under the copy's limit (110%), still a sure pass; a
 * ceiling, a copy outrun, a FLOP peak neared or a straggle each take it
 * below the sure margin, and a bar missed below 1. */
static void headroom_is_the_tightest_rule(void)
{
    double h = fast_headroom(4.5, 2, 0, 0.96, 0.5, 0.96, 0, 0, 0.5);
    CHECK(fabs(h - FAST_PHYSICAL_SLACK / 0.96) < 1e-9 && h >= FAST_SURE_MARGIN);
    CHECK(fabs(fast_headroom(4.5, 2, 0, 0.96, 0.5, 0.5, 0, 0, 0.5) - 1.92) < 1e-9);
    CHECK(fast_headroom(4.5, 2, 5, 0.96, 0.5, 0.5, 0, 0, 0.5) < FAST_SURE_MARGIN);
    CHECK(fast_headroom(4.5, 2, 0, 0.96, 0.5, 1.0, 0, 0, 0.5) < FAST_SURE_MARGIN);
    CHECK(fast_headroom(4.5, 2, 0, 0.96, 0.5, 0.5, 0.95, 0, 0.5) < FAST_SURE_MARGIN);
    CHECK(fast_headroom(4.5, 2, 0, 0.96, 0.5, 0.5, 0, 0.24, 0.5) < FAST_SURE_MARGIN);
    CHECK(fast_headroom(4.5, 2, 0, 0.45, 0.5, 0.45, 0, 0, 0.5) < 1);
    CHECK(fast_headroom(1.9, 2, 0, 0.96, 0.5, 0.96, 0, 0, 0.5) < 1);
    /* No roof's bar (0): the speedup alone. */
    CHECK(fabs(fast_headroom(3, 2, 0, NAN, 0, 0.1, 0, 0, 0.5) - 1.5) < 1e-9);
}

const unit_test compare_tests[] = {
    TEST(a_copy_far_below_the_memory_peak_is_disturbed), TEST(headroom_is_the_tightest_rule),
    TEST(exact_accepts_equal_values), TEST(exact_rejects_one_ulp),
    TEST(exact_tells_signed_zeros_apart), TEST(nan_never_passes_a_finite_reference),
    TEST(nan_where_expected_passes), TEST(a_number_where_nan_is_expected_fails),
    TEST(infinities_must_match_in_sign), TEST(poison_is_never_written),
    TEST(a_quiet_nan_is_not_poison), TEST(ulp_tolerance_is_inclusive),
    TEST(ulps_count_across_zero), TEST(bound_follows_higham), TEST(gamma_edge_cases),
    TEST(only_the_first_five_are_shown), TEST(integers_compare_exactly),
    TEST(an_answer_equal_to_the_poison_is_right),
    TEST(timed_ulps_admit_two_right_answers_and_no_more),
};
const int compare_tests_count = sizeof compare_tests / sizeof compare_tests[0];
