/* test_report.c - the JSON report carries the fast stage's checks and the
 * GPU's readings around the timing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "grade.h"
#include "report.h"

extern const lab_spec LAB_01_VECTOR_ADD;

/* The JSON of a grading whose fast stage passed with these figures. */
static char *json_with(const fast_figures *fig)
{
    grade_ctx g;
    memset(&g, 0, sizeof g);
    g.spec = &LAB_01_VECTOR_ADD;
    g.submission = "x.cu";
    stage_result st[N_STAGES];
    memset(st, 0, sizeof st);
    const char *names[N_STAGES] = {"work", "right", "fast"};
    for (int i = 0; i < N_STAGES; i++) {
        st[i].name = names[i];
        st[i].status = ST_PASS;
    }
    st[STAGE_FAST].has_fast = 1;
    st[STAGE_FAST].fast = *fig;
    char path[] = "/tmp/unit-report-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    close(fd);
    char *text = NULL;
    if (report_json(path, &g, st, N_STAGES, 1) == 0) text = iso_log_tail(path, 1 << 16);
    unlink(path);
    return text;
}

/* Whether that JSON holds both texts (b NULL: a alone). */
static int json_says(const fast_figures *fig, const char *a, const char *b)
{
    char *json = json_with(fig);
    int ok = json && strstr(json, a) && (!b || strstr(json, b));
    free(json);
    return ok;
}

static void the_timed_checks_and_the_clocks_are_in_the_json(void)
{
    fast_figures fig;
    memset(&fig, 0, sizeof fig);
    fig.timed_checked = 12;
    fig.timed_worst_difference = 0.0026;
    fig.clock_before = (gpu_clock){1, "", 1980, 1980, 2619, 35, 0, 0};
    fig.clock_after = (gpu_clock){1, "", 1755, 1980, 2619, 81, 0x40, 1};
    char *json = json_with(&fig);
    CHECK(json != NULL);
    int ok = strstr(json, "\"timed_calls_checked\": 12") &&
             strstr(json, "\"timed_worst_difference\": 0.0026") &&
             strstr(json, "\"gpu_before_timing\": {\"sm_mhz\": 1980, \"max_sm_mhz\": 1980") &&
             strstr(json, "\"temperature_c\": 81, \"throttle_reasons\": 64, \"other_processes\": 1");
    free(json);
    CHECK(ok);
}

static void unread_clocks_are_null(void)
{
    fast_figures fig;
    memset(&fig, 0, sizeof fig);
    CHECK(json_says(&fig, "\"gpu_before_timing\": null", "\"gpu_after_timing\": null"));
}

/* A sampling that stopped on a sure pass says so, and a lab with an
 * arithmetic peak gives it (make plot draws the roofline from it); none
 * is null. */
static void a_sure_pass_and_the_peak_are_in_the_json(void)
{
    fast_figures fig;
    memset(&fig, 0, sizeof fig);
    fig.decided = DECIDED_PASS;
    fig.peak_flops = 66.9e12;
    CHECK(json_says(&fig, "\"stopped_early\": \"sure_pass\"", "\"peak_gflops\": 66900"));
    fig.peak_flops = 0;
    CHECK(json_says(&fig, "\"peak_gflops\": null", NULL));
}

const unit_test report_tests[] = {
    TEST(a_sure_pass_and_the_peak_are_in_the_json),
    TEST(the_timed_checks_and_the_clocks_are_in_the_json),
    TEST(unread_clocks_are_null),
};
const int report_tests_count = sizeof report_tests / sizeof report_tests[0];
