/* test_judge.c - the verdict on one call, from a hand-made runner record:
 * every kind of failure is caught and explained, a right call passes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grade.h"
#include "judge.h"
#include "stages.h"
#include "requests.h"
#include "rng.h"
#include "swaps.h"

extern const lab_spec LAB_01_VECTOR_ADD;
extern const lab_spec LAB_04_REDUCTION;

enum { N = 100 };

typedef struct {
    grade_ctx g;
    proto_call call;
    call_record rec;
    float out[N];
    stage_result st;
} scene;

/* A call of lab 01 at n = 100 whose outputs are exactly right. */
static void right_call(scene *s)
{
    memset(s, 0, sizeof *s);
    s->g.spec = &LAB_01_VECTOR_ADD;
    s->call.c.dims[0] = N;
    s->call.seed = 99;
    float a[N], b[N];
    LAB_01_VECTOR_ADD.generate(0, &s->call.c, rng_derive(99, 0), a, N);
    LAB_01_VECTOR_ADD.generate(1, &s->call.c, rng_derive(99, 1), b, N);
    for (int i = 0; i < N; i++) s->out[i] = a[i] + b[i];
    for (int b = 0; b < LAB_MAX_BUFFERS; b++)
        s->rec.result.buf[b].guard_before = s->rec.result.buf[b].guard_after =
            s->rec.result.buf[b].changed_first = -1;
    s->rec.begun = s->rec.finished = 1;
    s->rec.result.outputs_follow = 1;
    s->rec.outputs = (unsigned char *)s->out;
    s->rec.outputs_bytes = sizeof s->out;
}

static int judge(scene *s, int strict)
{
    return judge_call(&s->g, &s->call, &s->rec, strict, &s->st);
}

static int says(const scene *s, const char *text)
{
    return strstr(s->st.summary, text) || strstr(sb_str(&s->st.details), text);
}

static void a_right_call_passes(void)
{
    scene s;
    right_call(&s);
    CHECK(judge(&s, 1) == 1 && s.st.status != ST_FAIL && s.st.max_ulps == 0);
    sb_free(&s.st.details);
}

static void one_wrong_element_fails_with_its_index(void)
{
    scene s;
    right_call(&s);
    s.out[7] += 1.0f;
    CHECK(judge(&s, 0) == 0 && s.st.status == ST_FAIL);
    CHECK(says(&s, "d_c: 1 of 100 elements wrong at n=100"));
    CHECK(says(&s, "d_c[7]: expected"));
    CHECK(says(&s, "hint: c[i] must be a[i] + b[i]"));
    sb_free(&s.st.details);
}

static void unwritten_outputs_say_so(void)
{
    scene s;
    right_call(&s);
    uint32_t poison = PROTO_POISON_F32;
    for (int i = 90; i < N; i++) memcpy(&s.out[i], &poison, 4);
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "never written"));
    CHECK(says(&s, "10 elements never written, from index 90 to 99"));
    CHECK(says(&s, "the grid must cover all n elements"));
    sb_free(&s.st.details);
}

static void a_refused_launch_names_the_error(void)
{
    scene s;
    right_call(&s);
    s.rec.result.entry_status = 9;
    strcpy(s.rec.result.entry_name, "cudaErrorInvalidConfiguration");
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "vector_add returned cudaErrorInvalidConfiguration at n=100"));
    sb_free(&s.st.details);
}

static void a_swallowed_launch_error_is_caught(void)
{
    scene s;
    right_call(&s);
    s.rec.result.last_status = 9;
    strcpy(s.rec.result.last_name, "cudaErrorInvalidConfiguration");
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "but vector_add returned cudaSuccess"));
    sb_free(&s.st.details);
}

static void a_kernel_fault_is_a_failure(void)
{
    scene s;
    right_call(&s);
    s.rec.result.sync_status = 700;
    strcpy(s.rec.result.sync_name, "cudaErrorIllegalAddress");
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "the kernel failed with cudaErrorIllegalAddress"));
    sb_free(&s.st.details);
}

static void writing_past_the_end_fails_right_only(void)
{
    scene s;
    right_call(&s);
    s.rec.result.buf[2].guard_after = 0;
    CHECK(judge(&s, 0) == 1);
    CHECK(says(&s, "note: wrote past the end of d_c"));
    sb_free(&s.st.details);
    right_call(&s);
    s.rec.result.buf[2].guard_after = 6; /* bytes: inside the second element past the end */
    CHECK(judge(&s, 1) == 0);
    CHECK(says(&s, "wrote past the end of d_c (to d_c[101]) at n=100"));
    CHECK(says(&s, "guard the body with if (i < n)"));
    sb_free(&s.st.details);
}

static void writing_in_front_fails(void)
{
    scene s;
    right_call(&s);
    s.rec.result.buf[2].guard_before = 4;
    CHECK(judge(&s, 1) == 0 && says(&s, "wrote in front of d_c (to d_c[-1]) at n=100"));
    sb_free(&s.st.details);
}

static void a_changed_input_fails_right(void)
{
    scene s;
    right_call(&s);
    s.rec.result.buf[0].changed_first = 3;
    s.rec.result.buf[0].changed_count = 97;
    CHECK(judge(&s, 1) == 0);
    CHECK(says(&s, "changed the input d_a (97 elements, first at index 3)"));
    sb_free(&s.st.details);
}

/* An output still changing once the call's stream was done (a pinned host
 * output, lab 12) fails in both stages, before its values are judged. */
static void a_late_write_fails_in_both_stages(void)
{
    for (int strict = 0; strict < 2; strict++) {
        scene s;
        right_call(&s);
        s.rec.result.buf[2].late_first = 64;
        s.rec.result.buf[2].late_count = 36;
        CHECK(judge(&s, strict) == 0);
        CHECK(says(&s, "d_c: 36 elements were written after the stream you were given was done "
                       "(the first d_c[64])"));
        CHECK(says(&s, "cudaStreamWaitEvent"));
        sb_free(&s.st.details);
    }
}

static void nothing_written_gets_its_own_hint(void)
{
    scene s;
    right_call(&s);
    uint32_t poison = PROTO_POISON_F32;
    for (int i = 0; i < N; i++) memcpy(&s.out[i], &poison, 4);
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "nothing was written at all"));
    CHECK(says(&s, "TODO(1) in vector_add.cu"));
    CHECK(!says(&s, "the grid must cover"));
    sb_free(&s.st.details);
}

/* Lab 04's call at n with d_out left holding the poison. */
static void lab04_sum_unwritten(scene *s, int64_t n)
{
    right_call(s);
    s->g.spec = &LAB_04_REDUCTION;
    s->call.c.dims[0] = n;
    uint32_t poison = PROTO_POISON_F32;
    memcpy(&s->out[0], &poison, 4);
    s->rec.outputs_bytes = sizeof(float);
}

/* Once work passed, one unwritten element of a one-element output is an
 * edge the code misses, not a kernel never launched: the lab's own hint. */
static void a_lone_unwritten_element_in_right_gets_the_labs_hint(void)
{
    scene s;
    lab04_sum_unwritten(&s, 1);
    CHECK(judge(&s, 1) == 0);
    CHECK(says(&s, "d_out: 1 of 1 elements wrong at n=1"));
    CHECK(says(&s, "d_out was never written"));
    CHECK(!says(&s, "nothing was written at all"));
    sb_free(&s.st.details);
    lab04_sum_unwritten(&s, 1);
    CHECK(judge(&s, 0) == 0); /* in work: the skeleton's own hint */
    CHECK(says(&s, "nothing was written at all"));
    sb_free(&s.st.details);
}

/* With n == 0 nothing is launched, rightly; the output must still be
 * written, and the lab's own hint says so (not "is the kernel launched?"). */
static void an_empty_input_gets_the_labs_hint(void)
{
    scene s;
    lab04_sum_unwritten(&s, 0);
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "d_out: 1 of 1 elements wrong at n=0"));
    CHECK(says(&s, "n == 0 must store 0"));
    CHECK(!says(&s, "nothing was written at all"));
    sb_free(&s.st.details);
}

static void one_unwritten_element_is_named(void)
{
    scene s;
    right_call(&s);
    uint32_t poison = PROTO_POISON_F32;
    memcpy(&s.out[N - 1], &poison, 4);
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "1 element never written, at index 99"));
    sb_free(&s.st.details);
}

static void bits_are_shown_when_the_lab_asks(void)
{
    scene s;
    right_call(&s);
    lab_spec spec = LAB_01_VECTOR_ADD;
    spec.tolerance.show_bits = 1;
    s.g.spec = &spec;
    s.out[3] = 1.0f;
    CHECK(judge(&s, 0) == 0);
    CHECK(says(&s, "got bits      0 01111111 00000000000000000000000"));
    sb_free(&s.st.details);
}

static void a_buffer_can_have_its_own_tolerance(void)
{
    scene s;
    right_call(&s);
    lab_spec spec = LAB_01_VECTOR_ADD;
    lab_tolerance two_ulps = {.kind = TOL_ULP, .ulps = 2, .why = "test"};
    spec.buffers[2].tolerance = &two_ulps;
    s.g.spec = &spec;
    s.out[5] = nextafterf(nextafterf(s.out[5], INFINITY), INFINITY);
    CHECK(judge(&s, 0) == 1);
    sb_free(&s.st.details);
    right_call(&s);
    s.g.spec = &spec;
    s.out[5] = nextafterf(nextafterf(nextafterf(s.out[5], INFINITY), INFINITY), INFINITY);
    CHECK(judge(&s, 0) == 0 && says(&s, "3 ulp apart") && says(&s, "within 2 ulp: test"));
    sb_free(&s.st.details);
}

/* The fast stage and the ladder ask for exactly this: the timed size (with
 * the seed of the swaps between timed calls), a re-check on fresh inputs,
 * and the same inputs again with a few pairs exchanged, under the engine's
 * sampling policy. */
static void timing_requests_are_built_as_designed(void)
{
    scene s;
    right_call(&s);
    s.g.seed = 5;
    proto_request req;
    request_init(&req, &s.g, MODE_TIMING, TIMING_CALLS);
    CHECK(req.magic == PROTO_MAGIC && req.version == PROTO_VERSION && req.mode == MODE_TIMING);
    CHECK(req.n_calls == 3 && strcmp(req.lab_id, "01-vector-add") == 0);
    CHECK(req.min_rounds == 10 && req.target_rse == 0.005 && req.max_seconds > 0);
    proto_call calls[TIMING_CALLS];
    make_timing_calls(&s.g, 4000, &s.g.spec->fast.timed, calls);
    CHECK(calls[0].c.dims[0] == LAB_01_VECTOR_ADD.fast.timed.dims[0]);
    CHECK(calls[1].c.dims[0] == LAB_01_VECTOR_ADD.fast.recheck.dims[0]); /* the spec's size */
    CHECK(calls[0].seed == rng_derive(5, 4000) && calls[1].seed == rng_derive(5, 5000));
    CHECK(calls[0].n_swaps == 0 && calls[0].swap_seed != 0 && calls[1].n_swaps == 0);
    CHECK(calls[2].seed == calls[1].seed && calls[2].c.dims[0] == calls[1].c.dims[0]);
    CHECK(calls[2].n_swaps == SWAPS_AFTER_TIMING && calls[2].swap_seed != calls[0].swap_seed);
    lab_spec spec = LAB_01_VECTOR_ADD;
    spec.fast.recheck.dims[0] = 1001;
    s.g.spec = &spec;
    make_timing_calls(&s.g, 6000, &s.g.spec->fast.timed, calls);
    CHECK(calls[1].c.dims[0] == 1001 && calls[0].c.dims[0] == spec.fast.timed.dims[0]);
    CHECK(calls[2].c.dims[0] == 1001);
    memset(&spec.fast.recheck, 0, sizeof spec.fast.recheck); /* none: the timed size */
    make_timing_calls(&s.g, 6000, &s.g.spec->fast.timed, calls);
    CHECK(calls[1].c.dims[0] == spec.fast.timed.dims[0] && calls[2].c.dims[0] == spec.fast.timed.dims[0]);
    /* A second timed size (lab_spec.fast.second) is timed and, with no
     * re-check size of its own, re-checked at that size. */
    lab_case other = {.dims = {77}};
    make_timing_calls(&s.g, 4500, &other, calls);
    CHECK(calls[0].c.dims[0] == 77 && calls[1].c.dims[0] == 77 && calls[2].c.dims[0] == 77);
    CHECK(calls[0].seed == rng_derive(5, 4500));
}

/* The re-check after timing exchanges a few input elements: the answer for
 * the inputs as generated, which code that remembers its last answer would
 * give, must fail, and the answer for the exchanged inputs must pass. */
static void exchanged_inputs_make_a_remembered_answer_fail(void)
{
    scene s;
    right_call(&s); /* outputs for the inputs as generated */
    s.call.swap_seed = 1234;
    s.call.n_swaps = SWAPS_AFTER_TIMING;
    CHECK(judge(&s, 0) == 0 && s.st.status == ST_FAIL && says(&s, "elements wrong"));
    sb_free(&s.st.details);
    float a[N], b[N];
    LAB_01_VECTOR_ADD.generate(0, &s.call.c, rng_derive(99, 0), a, N);
    LAB_01_VECTOR_ADD.generate(1, &s.call.c, rng_derive(99, 1), b, N);
    swaps_apply((unsigned char *)a, N, sizeof *a, 0, 1234, 0, SWAPS_AFTER_TIMING);
    swaps_apply((unsigned char *)b, N, sizeof *b, 0, 1234, 1, SWAPS_AFTER_TIMING);
    for (int i = 0; i < N; i++) s.out[i] = a[i] + b[i];
    memset(&s.st, 0, sizeof s.st);
    CHECK(judge(&s, 1) == 1 && s.st.status != ST_FAIL);
    sb_free(&s.st.details);
}

/* Swaps stay inside the buffer and inside a field of its records, differ
 * from one seed to the next, and leave a one-record buffer alone. */
static void swaps_keep_fields_and_bounds(void)
{
    int moved = 0;
    for (uint64_t k = 0; k < 1000; k++) {
        swap_pair p = swap_pick(77, 0, k, 4 * 1001, 4);
        CHECK(p.i < 4 * 1001 && p.j < 4 * 1001 && p.i % 4 == p.j % 4);
        moved += p.i != p.j;
        swap_pair q = swap_pick(77, 0, k, 4 * 1001, 4);
        CHECK(q.i == p.i && q.j == p.j); /* the runner and the judge agree */
    }
    CHECK(moved > 990);
    swap_pair a = swap_pick(1, 0, 0, 1 << 20, 0), b = swap_pick(2, 0, 0, 1 << 20, 0);
    CHECK(a.i != b.i || a.j != b.j);
    swap_pair one = swap_pick(77, 0, 3, 4, 4);
    CHECK(one.i == one.j);
    float v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, w[8];
    memcpy(w, v, sizeof v);
    swaps_apply((unsigned char *)w, 8, sizeof *w, 0, 9, 0, 50);
    float sum = 0;
    for (int i = 0; i < 8; i++) sum += w[i];
    CHECK(sum == 28 && memcmp(v, w, sizeof v) != 0); /* a permutation, not the same */
}

/* An answer computed ahead judges as one computed on the spot: a right
 * call passes, a wrong one fails at the same element. */
static void an_answer_computed_ahead_judges_the_same(void)
{
    scene s;
    right_call(&s);
    judge_ahead *ahead = judge_ahead_start(s.g.spec, &s.call);
    CHECK(ahead != NULL);
    CHECK(judge_call_ahead(&s.g, &s.call, &s.rec, 1, ahead, &s.st) == 1);
    s.out[42] += 0.5f;
    CHECK(judge_call_ahead(&s.g, &s.call, &s.rec, 1, ahead, &s.st) == 0);
    CHECK(says(&s, "d_c[42]: expected"));
    judge_ahead_free(ahead);
    sb_free(&s.st.details);
}

/* An answer computed ahead for another call (another seed) is not used:
 * the right answer of this call still passes. */
static void an_answer_ahead_for_another_call_is_not_used(void)
{
    scene s;
    right_call(&s);
    proto_call other = s.call;
    other.seed = 100;
    judge_ahead *ahead = judge_ahead_start(s.g.spec, &other);
    CHECK(judge_call_ahead(&s.g, &s.call, &s.rec, 1, ahead, &s.st) == 1);
    judge_ahead_free(ahead);
    sb_free(&s.st.details);
}

const unit_test judge_tests[] = {
    TEST(an_answer_computed_ahead_judges_the_same),
    TEST(an_answer_ahead_for_another_call_is_not_used),
    TEST(timing_requests_are_built_as_designed),
    TEST(exchanged_inputs_make_a_remembered_answer_fail), TEST(swaps_keep_fields_and_bounds),
    TEST(bits_are_shown_when_the_lab_asks), TEST(a_buffer_can_have_its_own_tolerance),
    TEST(nothing_written_gets_its_own_hint), TEST(an_empty_input_gets_the_labs_hint),
    TEST(a_lone_unwritten_element_in_right_gets_the_labs_hint),
    TEST(one_unwritten_element_is_named),
    TEST(a_right_call_passes), TEST(one_wrong_element_fails_with_its_index),
    TEST(unwritten_outputs_say_so), TEST(a_refused_launch_names_the_error),
    TEST(a_swallowed_launch_error_is_caught), TEST(a_kernel_fault_is_a_failure),
    TEST(writing_past_the_end_fails_right_only), TEST(writing_in_front_fails),
    TEST(a_changed_input_fails_right), TEST(a_late_write_fails_in_both_stages),
};
const int judge_tests_count = sizeof judge_tests / sizeof judge_tests[0];
