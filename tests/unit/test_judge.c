/* test_judge.c - the verdict on one call, from a hand-made runner record:
 * every kind of failure is caught and explained, a right call passes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grade.h"
#include "rng.h"

extern const lab_spec LAB_01_VECTOR_ADD;

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

/* The fast stage and the ladder ask for exactly this: the timed size and a
 * re-check on fresh inputs, under the engine's sampling policy. */
static void timing_requests_are_built_as_designed(void)
{
    scene s;
    right_call(&s);
    s.g.seed = 5;
    proto_request req;
    request_init(&req, &s.g, MODE_TIMING, 2);
    CHECK(req.magic == PROTO_MAGIC && req.version == PROTO_VERSION && req.mode == MODE_TIMING);
    CHECK(req.n_calls == 2 && strcmp(req.lab_id, "01-vector-add") == 0);
    CHECK(req.min_rounds == 10 && req.target_rse == 0.005 && req.max_seconds > 0);
    proto_call calls[2];
    make_timing_calls(&s.g, 4000, calls);
    CHECK(calls[0].c.dims[0] == LAB_01_VECTOR_ADD.fast.timed.dims[0]);
    CHECK(calls[1].c.dims[0] == calls[0].c.dims[0]); /* no smaller re-check size */
    CHECK(calls[0].seed == rng_derive(5, 4000) && calls[1].seed == rng_derive(5, 5000));
    lab_spec spec = LAB_01_VECTOR_ADD;
    spec.fast.recheck.dims[0] = 1001;
    s.g.spec = &spec;
    make_timing_calls(&s.g, 6000, calls);
    CHECK(calls[1].c.dims[0] == 1001 && calls[0].c.dims[0] == spec.fast.timed.dims[0]);
}

const unit_test judge_tests[] = {
    TEST(timing_requests_are_built_as_designed),
    TEST(bits_are_shown_when_the_lab_asks), TEST(a_buffer_can_have_its_own_tolerance),
    TEST(nothing_written_gets_its_own_hint), TEST(one_unwritten_element_is_named),
    TEST(a_right_call_passes), TEST(one_wrong_element_fails_with_its_index),
    TEST(unwritten_outputs_say_so), TEST(a_refused_launch_names_the_error),
    TEST(a_swallowed_launch_error_is_caught), TEST(a_kernel_fault_is_a_failure),
    TEST(writing_past_the_end_fails_right_only), TEST(writing_in_front_fails),
    TEST(a_changed_input_fails_right),
};
const int judge_tests_count = sizeof judge_tests / sizeof judge_tests[0];
