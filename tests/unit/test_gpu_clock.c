/* test_gpu_clock.c - when the GPU's readings make a timing unreliable. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpu_clock.h"

static gpu_clock quiet(void)
{
    gpu_clock c;
    memset(&c, 0, sizeof c);
    c.ok = 1;
    c.sm_mhz = c.max_sm_mhz = 1980;
    c.mem_mhz = 2619;
    c.temperature_c = 40;
    c.reasons = 0x4; /* a software power cap under load: normal */
    return c;
}

static void a_quiet_gpu_is_not_disturbed(void)
{
    gpu_clock b = quiet(), a = quiet();
    char why[200];
    CHECK(!gpu_clock_disturbed(&b, &a, why, sizeof why) && why[0] == 0);
}

static void thermal_slowdown_after_timing_is_disturbed(void)
{
    gpu_clock b = quiet(), a = quiet();
    a.reasons |= 0x40;
    char why[200];
    CHECK(gpu_clock_disturbed(&b, &a, why, sizeof why));
    CHECK(strstr(why, "hardware thermal slowdown") != NULL);
}

static void another_process_is_disturbed_and_counted(void)
{
    gpu_clock b = quiet(), a = quiet();
    b.other_processes = 2;
    char why[200];
    CHECK(gpu_clock_disturbed(&b, &a, why, sizeof why));
    CHECK(strstr(why, "2 other processes on the GPU") != NULL);
}

static void the_same_reason_twice_is_named_once(void)
{
    gpu_clock b = quiet(), a = quiet();
    b.reasons |= 0x80;
    a.reasons |= 0x80 | 0x8;
    char why[200];
    CHECK(gpu_clock_disturbed(&b, &a, why, sizeof why));
    CHECK(strcmp(why, "power brake, hardware slowdown") == 0);
}

static void unread_clocks_never_disturb(void)
{
    gpu_clock b, a;
    memset(&b, 0, sizeof b);
    memset(&a, 0, sizeof a);
    b.reasons = a.reasons = 0xff; /* not read: ignored */
    b.other_processes = 3;
    snprintf(b.why, sizeof b.why, "no NVML");
    char why[200], text[200];
    CHECK(!gpu_clock_disturbed(&b, &a, why, sizeof why));
    gpu_clock_describe(&b, text, sizeof text);
    CHECK(strcmp(text, "clocks not read: no NVML") == 0);
}

static void a_reading_is_described(void)
{
    gpu_clock c = quiet();
    char text[200];
    gpu_clock_describe(&c, text, sizeof text);
    CHECK(strcmp(text, "SM 1980 of 1980 MHz, memory 2619 MHz, 40 C, no throttling, "
                       "no other process") == 0);
}

const unit_test gpu_clock_tests[] = {
    TEST(a_quiet_gpu_is_not_disturbed),       TEST(thermal_slowdown_after_timing_is_disturbed),
    TEST(another_process_is_disturbed_and_counted), TEST(the_same_reason_twice_is_named_once),
    TEST(unread_clocks_never_disturb),        TEST(a_reading_is_described),
};
const int gpu_clock_tests_count = sizeof gpu_clock_tests / sizeof gpu_clock_tests[0];
