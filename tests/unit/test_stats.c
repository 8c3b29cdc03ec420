/* test_stats.c - medians and the stopping rule. */
#include <math.h>

#include "check.h"
#include "stats.h"

static void median_of_odd_and_even(void)
{
    double odd[5] = {5, 1, 4, 2, 3}, even[4] = {4, 1, 3, 2};
    CHECK(stats_median(odd, 5) == 3);
    CHECK(stats_median(even, 4) == 2.5);
    CHECK(isnan(stats_median(odd, 0)));
    CHECK(odd[0] == 5); /* the input is left alone */
}

static void slowest_leaves_nan_out(void)
{
    double x[4] = {2, NAN, 5, 3};
    CHECK(stats_slowest(x, 4) == 5);
    CHECK(stats_slowest(x, 1) == 2);
    CHECK(isnan(stats_slowest(x, 0)));
}

static void mad_ignores_one_outlier(void)
{
    double x[7] = {10, 10, 10, 11, 9, 10, 1000};
    CHECK(stats_median(x, 7) == 10);
    CHECK(stats_mad(x, 7) == 0);
}

static void rse_shrinks_with_more_samples(void)
{
    double x[100];
    for (int i = 0; i < 100; i++) x[i] = 1.0 + 0.01 * ((i * 37) % 11 - 5);
    double few = stats_rse_of_median(x, 10), many = stats_rse_of_median(x, 100);
    CHECK(few > many && many > 0);
    CHECK(isinf(stats_rse_of_median(x, 1)));
}

static void converges_only_with_enough_quiet_samples(void)
{
    double steady[20], noisy[20];
    for (int i = 0; i < 20; i++) {
        steady[i] = 2.0 + 0.001 * (i % 3);
        noisy[i] = (i % 2) ? 1.0 : 3.0;
    }
    const double *both[2] = {steady, noisy}, *one[1] = {steady};
    CHECK(stats_converged(one, 1, 20, 10, 0.005));
    CHECK(!stats_converged(one, 1, 9, 10, 0.005));  /* too few samples */
    CHECK(!stats_converged(both, 2, 20, 10, 0.005)); /* one series is noisy */
}

const unit_test stats_tests[] = {
    TEST(median_of_odd_and_even), TEST(slowest_leaves_nan_out), TEST(mad_ignores_one_outlier),
    TEST(rse_shrinks_with_more_samples), TEST(converges_only_with_enough_quiet_samples),
};
const int stats_tests_count = sizeof stats_tests / sizeof stats_tests[0];
