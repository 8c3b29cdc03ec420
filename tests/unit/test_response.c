/* test_response.c - the timing record as the parent reads it: the counts of
 * the checked timed calls must add up, and the summary must match the
 * samples sent as they were measured, or the record is malformed. */
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

/* How the samples sent before the summary differ from it. */
typedef enum {
    SENT_AS_SUMMED,
    SENT_OTHER_TIME,     /* the summary's sample was rewritten after it was sent */
    SENT_NONE_FOR_ONE,   /* one sample never sent */
    SENT_OTHER_CHECK,    /* the summary's check counts were rewritten */
    SENT_TWICE,          /* one sample sent twice */
    SENT_PAST_THE_END,   /* a sample for a round the summary leaves out */
    SENT_NOTHING,        /* a summary with no sample sent before it */
} sending;

static void send_sample(FILE *f, int item, int round, double ms, int wrong)
{
    proto_rec_head h = {PROTO_MAGIC, REC_SAMPLE, 0, 0};
    proto_sample s = {item, round, ms, 0.001, item == 1, wrong, 0, 0};
    fwrite(&h, sizeof h, 1, f);
    fwrite(&s, sizeof s, 1, f);
}

/* Write the samples and the record, read them back; returns 1 when they
 * were taken as malformed. */
static int read_back_sent(const proto_timing *t, int *has_timing, sending how)
{
    char path[] = "/tmp/unit-response-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "wb");
    double samples[ITEMS * ROUNDS] = {1, 1, 1, 1, 1, 1};
    for (int i = 0; i < ITEMS && how != SENT_NOTHING; i++)
        for (int k = 0; k < ROUNDS; k++) {
            if (how == SENT_NONE_FOR_ONE && i == 1 && k == 0) continue;
            double ms = how == SENT_OTHER_TIME && i == 1 && k == 1 ? 4.0 : 1.0;
            /* Round 1 of the submission was wrong, as consistent_timing says. */
            int wrong = i == 1 && k == 1 && how != SENT_OTHER_CHECK;
            send_sample(f, i, k, ms, wrong);
            if (how == SENT_TWICE && i == 0 && k == 0) send_sample(f, i, k, ms, wrong);
        }
    if (how == SENT_PAST_THE_END) send_sample(f, 2, ROUNDS, 1.0, 0);
    proto_rec_head h = {PROTO_MAGIC, REC_TIMING, 0, 0};
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

static int read_back(const proto_timing *t, int *has_timing)
{
    return read_back_sent(t, has_timing, SENT_AS_SUMMED);
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

/* Graded code shares the runner's memory: what it rewrote there after a
 * sample was sent shows as a summary that differs from what was sent. */
static void a_summary_that_differs_from_the_samples_sent_is_malformed(void)
{
    proto_timing t = consistent_timing();
    int has;
    CHECK(read_back_sent(&t, &has, SENT_OTHER_TIME) == 1 && has == 0);
    CHECK(read_back_sent(&t, &has, SENT_NONE_FOR_ONE) == 1 && has == 0);
    CHECK(read_back_sent(&t, &has, SENT_OTHER_CHECK) == 1 && has == 0);
    CHECK(read_back_sent(&t, &has, SENT_TWICE) == 1 && has == 0);
    CHECK(read_back_sent(&t, &has, SENT_PAST_THE_END) == 1 && has == 0);
}

static void a_timing_without_samples_sent_is_malformed(void)
{
    proto_timing t = consistent_timing();
    int has;
    CHECK(read_back_sent(&t, &has, SENT_NOTHING) == 1 && has == 0);
}

/* The calls done so far, as the grader watches a run: a result counts
 * once all its outputs are in the file, not while they are written. */
static void calls_are_done_once_their_outputs_are_written(void)
{
    char path[] = "/tmp/unit-response-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    proto_call calls[3];
    memset(calls, 0, sizeof calls);
    for (int i = 0; i < 3; i++) calls[i].c.dims[0] = N;
    float outputs[N] = {0}; /* lab 01's one output, d_c */
    proto_result res;
    memset(&res, 0, sizeof res);
    res.outputs_follow = 1;
    for (int i = 0; i < 2; i++) {
        proto_rec_head begin = {PROTO_MAGIC, REC_BEGIN, i, 0}, result = {PROTO_MAGIC, REC_RESULT, i, 0};
        fwrite(&begin, sizeof begin, 1, f);
        fwrite(&result, sizeof result, 1, f);
        fwrite(&res, sizeof res, 1, f);
        fwrite(outputs, sizeof outputs, 1, f);
    }
    fflush(f);
    CHECK(response_calls_done(path, &LAB_01_VECTOR_ADD, calls, 3) == 2);
    CHECK(response_calls_done(path, &LAB_01_VECTOR_ADD, calls, 1) == 1);
    CHECK(ftruncate(fd, ftell(f) - 4) == 0); /* the last output not all written yet */
    CHECK(response_calls_done(path, &LAB_01_VECTOR_ADD, calls, 3) == 1);
    fclose(f);
    unlink(path);
    CHECK(response_calls_done(path, &LAB_01_VECTOR_ADD, calls, 3) == 0); /* no file yet */
}

const unit_test response_tests[] = {
    TEST(a_summary_that_differs_from_the_samples_sent_is_malformed),
    TEST(a_timing_without_samples_sent_is_malformed),
    TEST(a_consistent_check_is_read),
    TEST(more_wrong_rounds_than_checked_is_malformed),
    TEST(more_checked_rounds_than_timed_is_malformed),
    TEST(an_input_named_as_the_wrong_output_is_malformed),
    TEST(a_wrong_element_past_the_end_is_malformed),
    TEST(calls_are_done_once_their_outputs_are_written),
};
const int response_tests_count = sizeof response_tests / sizeof response_tests[0];
