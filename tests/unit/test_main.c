/* test_main.c - run every unit test of the engine. */
#include <stdio.h>

#include "check.h"

const char *check_failed;
char check_where[256];

#define SUITE(s) extern const unit_test s[]; extern const int s##_count;
SUITE(compare_tests)
SUITE(stats_tests)
SUITE(isolate_tests)
SUITE(gpu_lock_tests)
SUITE(device_tests)
SUITE(text_tests)
SUITE(spec_tests)
SUITE(judge_tests)
SUITE(resources_tests)
SUITE(symbols_tests)
SUITE(response_tests)
SUITE(gpu_clock_tests)
SUITE(report_tests)
SUITE(placement_tests)
SUITE(fast_tests)

static int run(const unit_test *tests, int n)
{
    int failed = 0;
    for (int i = 0; i < n; i++) {
        check_failed = NULL;
        tests[i].fn();
        if (check_failed) {
            printf("FAIL unit/%s: %s\n", tests[i].name, check_failed);
            failed++;
        } else {
            printf("PASS unit/%s\n", tests[i].name);
        }
        fflush(stdout);
    }
    return failed;
}

int main(void)
{
    int failed = 0;
    failed += run(compare_tests, compare_tests_count);
    failed += run(stats_tests, stats_tests_count);
    failed += run(response_tests, response_tests_count);
    failed += run(gpu_clock_tests, gpu_clock_tests_count);
    failed += run(report_tests, report_tests_count);
    failed += run(isolate_tests, isolate_tests_count);
    failed += run(gpu_lock_tests, gpu_lock_tests_count);
    failed += run(device_tests, device_tests_count);
    failed += run(text_tests, text_tests_count);
    failed += run(spec_tests, spec_tests_count);
    failed += run(judge_tests, judge_tests_count);
    failed += run(resources_tests, resources_tests_count);
    failed += run(symbols_tests, symbols_tests_count);
    failed += run(placement_tests, placement_tests_count);
    failed += run(fast_tests, fast_tests_count);
    return failed ? 1 : 0;
}
