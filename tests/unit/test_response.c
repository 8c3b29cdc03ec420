/* test_response.c - the timing record as the parent reads it: the counts of
 * the checked timed calls must add up, or the record is malformed. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "grade.h"
#include "response.h"

extern const lab_spec LAB_01_VECTOR_ADD;

enum { ITEMS = 3, ROUNDS = 2, N = 100 };

/* A timing record of lab 01 at n = 100: two rounds, both checked, one of
 * them wrong at d_c[5]. */
static proto_timing consistent_timing(void)
{
    proto_timing t;
    memset(&t, 0, sizeof t);
    t.n_items = ITEMS;
    t.n_rounds = ROUNDS;
    t.check.rounds_checked = ROUNDS;
    t.check.rounds_wrong = 1;
    t.check.first_wrong_round = 1;
    t.check.first_buffer = 2; /* d_c */
    t.check.first_index = 5;
    t.check.first_changed_round = -1;
    return t;
}

/* Write the record, read it back; returns 1 when it was taken as malformed. */
static int read_back(const proto_timing *t, int *has_timing)
{
    char path[] = "/tmp/unit-response-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "wb");
    proto_rec_head h = {PROTO_MAGIC, REC_TIMING, 0, 0};
    double samples[ITEMS * ROUNDS] = {1, 1, 1, 1, 1, 1};
    fwrite(&h, sizeof h, 1, f);
    fwrite(t, sizeof *t, 1, f);
    fwrite(samples, sizeof samples, 1, f);
    fclose(f);
    proto_call call;
    memset(&call, 0, sizeof call);
    call.c.dims[0] = N;
    response r;
    response_read(path, &LAB_01_VECTOR_ADD, &call, 1, 100, &r);
    unlink(path);
    int malformed = r.malformed;
    *has_timing = r.has_timing;
    response_free(&r);
    return malformed;
}

static void a_consistent_check_is_read(void)
{
    proto_timing t = consistent_timing();
    int has;
    CHECK(read_back(&t, &has) == 0 && has == 1);
}

static void more_wrong_rounds_than_checked_is_malformed(void)
{
    proto_timing t = consistent_timing();
    t.check.rounds_wrong = ROUNDS + 1;
    int has;
    CHECK(read_back(&t, &has) == 1 && has == 0);
}

static void more_checked_rounds_than_timed_is_malformed(void)
{
    proto_timing t = consistent_timing();
    t.check.rounds_checked = ROUNDS + 1;
    int has;
    CHECK(read_back(&t, &has) == 1);
}

static void an_input_named_as_the_wrong_output_is_malformed(void)
{
    proto_timing t = consistent_timing();
    t.check.first_buffer = 0; /* d_a, an input */
    int has;
    CHECK(read_back(&t, &has) == 1);
}

static void a_wrong_element_past_the_end_is_malformed(void)
{
    proto_timing t = consistent_timing();
    t.check.first_index = N;
    int has;
    CHECK(read_back(&t, &has) == 1);
    t.check.first_index = -1;
    CHECK(read_back(&t, &has) == 1);
}

const unit_test response_tests[] = {
    TEST(a_consistent_check_is_read),
    TEST(more_wrong_rounds_than_checked_is_malformed),
    TEST(more_checked_rounds_than_timed_is_malformed),
    TEST(an_input_named_as_the_wrong_output_is_malformed),
    TEST(a_wrong_element_past_the_end_is_malformed),
};
const int response_tests_count = sizeof response_tests / sizeof response_tests[0];
