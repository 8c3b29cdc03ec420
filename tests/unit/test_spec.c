/* test_spec.c - every registered lab's spec is complete and its inputs are
 * worth testing with. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "lab_spec.h"

extern const lab_spec *const LAB_REGISTRY[]; /* written by make */

/* How many elements a case has: the product of the dims that are sizes
 * (shrink_dims names them); a dim that is not one, such as lab 11's
 * radius, does not count. */
static int64_t volume(const lab_spec *s, const lab_case *c)
{
    int64_t v = 1;
    for (int d = 0; d < s->n_dims; d++)
        if (s->shrink_dims >> d & 1) v *= c->dims[d];
    return v;
}

static void every_lab_has_its_files(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        char path[512];
        snprintf(path, sizeof path, "labs/%s/%s", s->id, s->student_file);
        CHECK(access(path, R_OK) == 0);
        snprintf(path, sizeof path, "labs/%s/solution/%s", s->id, s->student_file);
        CHECK(access(path, R_OK) == 0);
        snprintf(path, sizeof path, "labs/%s/README.md", s->id);
        CHECK(access(path, R_OK) == 0);
    }
}

static void every_lab_is_complete(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        CHECK(s->title && s->entry && s->signature && s->n_dims > 0 && s->n_buffers > 0);
        CHECK(s->buffer_count && s->generate && s->reference && s->tolerance.why);
        CHECK(s->tolerance.kind != TOL_BOUND || s->tolerance.terms);
        /* The smallest-failing-case search halves sizes the lab has: one
         * at least, none past the last dim. */
        CHECK(s->shrink_dims != 0 && (s->shrink_dims >> s->n_dims) == 0);
        for (int b = 0; b < s->n_buffers; b++) {
            const lab_tolerance *t = s->buffers[b].tolerance;
            CHECK(!t || (s->buffers[b].role == BUF_OUTPUT && t->why));
            CHECK(!t || t->kind != TOL_BOUND || t->terms);
        }
        CHECK(s->work.n > 0 && s->right.n > 0 && s->sanitize.n > 0);
        CHECK(s->fast.bytes && s->fast.baseline && s->fast.calibration);
        /* A roof the fast stage requires, or one it only shows (copy). */
        CHECK(s->fast.roof == ROOF_NONE ||
              (s->fast.min_roofline > 0 && s->fast.min_roofline <= 1) ||
              (s->fast.roof == ROOF_COPY && s->fast.min_roofline == 0));
        CHECK(s->fast.roof != ROOF_VENDOR || s->fast.flops);
        CHECK(s->fast.min_speedup >= 1);
        /* A second timed size has its words and its bar. */
        CHECK(!lab_case_given(&s->fast.second.timed) ||
              (s->fast.second.what && s->fast.second.min_speedup >= 1));
        int outputs = 0;
        for (int b = 0; b < s->n_buffers; b++) outputs += s->buffers[b].role == BUF_OUTPUT;
        /* Half-precision buffers are inputs only: the poison, the guards'
         * reading and the timed comparison know 4- and 8-byte elements. */
        for (int b = 0; b < s->n_buffers; b++)
            CHECK(s->buffers[b].elem != ELEM_F16 || s->buffers[b].role == BUF_INPUT);
        CHECK(outputs > 0);
    }
}

/* The right stage must try the sizes that break kernels: empty, one
 * element, and sizes that are not a multiple of a warp. */
static int awkward_sizes_in(const lab_spec *s, const lab_case_list *list)
{
    int empty = 0, one = 0, odd = 0, adversarial = 0;
    for (int k = 0; k < list->n; k++) {
        const lab_case *c = &list->list[k];
        int64_t v = volume(s, c);
        empty |= v == 0;
        one |= v == 1;
        for (int d = 0; d < s->n_dims; d++) odd |= c->dims[d] % 32 != 0;
        adversarial |= c->variant != 0;
        if (!s->variant_names[c->variant]) return 0;
    }
    return empty && one && odd && adversarial;
}

/* The emulation's smaller lists, where a lab has them, keep the awkward
 * sizes too. */
static void emulated_lists_keep_the_awkward_sizes(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        CHECK(s->emulated.right.n == 0 || awkward_sizes_in(s, &s->emulated.right));
    }
}

static void right_tries_the_awkward_sizes(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        CHECK(awkward_sizes_in(s, &s->right));
    }
}

static void *generate(const lab_spec *s, int b, const lab_case *c, uint64_t seed)
{
    size_t n = s->buffer_count(b, c->dims);
    void *h = calloc(n + 1, lab_elem_size(s->buffers[b].elem));
    s->generate(b, c, seed, h, n);
    return h;
}

static void inputs_are_deterministic_and_not_trivial(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        const lab_case *c = &s->work.list[0];
        for (int b = 0; b < s->n_buffers; b++) {
            if (s->buffers[b].role != BUF_INPUT) continue;
            size_t n = s->buffer_count(b, c->dims);
            size_t bytes = n * lab_elem_size(s->buffers[b].elem);
            unsigned char *x = generate(s, b, c, 7), *y = generate(s, b, c, 7),
                          *z = generate(s, b, c, 8);
            CHECK(memcmp(x, y, bytes) == 0);
            CHECK(memcmp(x, z, bytes) != 0);
            size_t zero_words = 0, size = lab_elem_size(s->buffers[b].elem);
            static const unsigned char zero[8];
            for (size_t k = 0; k < n; k++) zero_words += memcmp(x + k * size, zero, size) == 0;
            CHECK(zero_words * 10 < n); /* never all (or mostly) zeros */
            free(x); free(y); free(z);
        }
    }
}

/* On typical inputs the reference is finite, and not the same as any
 * single input (so copying an input through cannot pass). */
static void the_reference_is_not_an_input(void)
{
    for (int i = 0; LAB_REGISTRY[i]; i++) {
        const lab_spec *s = LAB_REGISTRY[i];
        const lab_case *c = &s->work.list[0];
        void *inputs[LAB_MAX_BUFFERS] = {0};
        lab_expect out[LAB_MAX_BUFFERS] = {{0}};
        for (int b = 0; b < s->n_buffers; b++) {
            size_t n = s->buffer_count(b, c->dims);
            if (s->buffers[b].role == BUF_INPUT) inputs[b] = generate(s, b, c, 11);
            if (s->buffers[b].role == BUF_OUTPUT) {
                out[b].value = calloc(n + 1, sizeof(double));
                out[b].abs_sum = calloc(n + 1, sizeof(double));
            }
        }
        s->reference(c, (const void *const *)inputs, out);
        for (int o = 0; o < s->n_buffers; o++) {
            if (s->buffers[o].role != BUF_OUTPUT) continue;
            size_t n = s->buffer_count(o, c->dims);
            for (size_t k = 0; k < n; k++) CHECK(isfinite(out[o].value[k]));
            for (int b = 0; b < s->n_buffers; b++) {
                if (!inputs[b] || s->buffers[b].elem != ELEM_F32 ||
                    s->buffer_count(b, c->dims) != n)
                    continue;
                size_t same = 0;
                for (size_t k = 0; k < n; k++)
                    same += (float)out[o].value[k] == ((float *)inputs[b])[k];
                CHECK(same * 10 < n);
            }
        }
        for (int b = 0; b < s->n_buffers; b++) {
            free(inputs[b]);
            free(out[b].value);
            free(out[b].abs_sum);
        }
    }
}

/* Half precision (ELEM_F16): every finite half round-trips through its
 * value, and floats round to nearest, ties to even, subnormals and the
 * overflow to Inf included. */
static void half_conversions(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        double v = lab_f16_to_double((uint16_t)h);
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) { bad += !isnan(v); continue; }
        bad += lab_f16_from_float((float)v) != h;
    }
    CHECK(bad == 0);
    CHECK(lab_f16_to_double(0x3c00) == 1.0 && lab_f16_to_double(0x7bff) == 65504.0);
    CHECK(lab_f16_to_double(0x0001) == ldexp(1, -24) && lab_f16_to_double(0xc000) == -2.0);
    CHECK(isinf(lab_f16_to_double(0x7c00)) && isnan(lab_f16_to_double(0x7e00)));
    CHECK(lab_f16_from_float(1.0f + ldexpf(1, -11)) == 0x3c00);     /* tie: even */
    CHECK(lab_f16_from_float(1.0f + 3 * ldexpf(1, -11)) == 0x3c02); /* tie: even */
    CHECK(lab_f16_from_float(1.0f + 1.5f * ldexpf(1, -11)) == 0x3c01);
    CHECK(lab_f16_from_float(65519.0f) == 0x7bff && lab_f16_from_float(65520.0f) == 0x7c00);
    CHECK(lab_f16_from_float(-1e9f) == 0xfc00 && lab_f16_from_float(-0.0f) == 0x8000);
    CHECK(lab_f16_from_float(ldexpf(1, -25)) == 0x0000);        /* tie: even (0) */
    CHECK(lab_f16_from_float(ldexpf(3, -26)) == 0x0001);
    CHECK(lab_f16_from_float(ldexpf(3, -25)) == 0x0002);        /* tie: even */
    CHECK(lab_f16_from_float(ldexpf(1023, -24) + ldexpf(1, -25)) == 0x0400); /* tie: even */
    CHECK((lab_f16_from_float(NAN) & 0x7c00) == 0x7c00 && (lab_f16_from_float(NAN) & 0x3ff));
    CHECK(lab_elem_size(ELEM_F16) == 2 && strcmp(lab_elem_name(ELEM_F16), "half") == 0);
}

const unit_test spec_tests[] = {
    TEST(half_conversions),
    TEST(every_lab_has_its_files), TEST(every_lab_is_complete),
    TEST(right_tries_the_awkward_sizes), TEST(emulated_lists_keep_the_awkward_sizes),
    TEST(inputs_are_deterministic_and_not_trivial),
    TEST(the_reference_is_not_an_input),
};
const int spec_tests_count = sizeof spec_tests / sizeof spec_tests[0];
