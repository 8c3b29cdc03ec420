/* judge.c - is one call right? Every rejection says what to look at.
 *
 * Order of the checks: errors first (nothing else means anything after a
 * fault), then the outputs against the CPU reference, then, in the strict
 * (right) stage, writes outside the buffers and changed inputs.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "grade.h"
#include "judge.h"
#include "rng.h"

const char *hint_or(const char *lab_hint, const char *generic)
{
    return lab_hint ? lab_hint : generic;
}

const char *kernel_fault_hint(const lab_hints *h)
{
    return hint_or(h->crash, "a fault inside a kernel: an out-of-bounds or misaligned access? "
                             "run the right stage's compute-sanitizer to find the line");
}

void describe_call(const grade_ctx *g, const proto_call *call, char *buf,
                   size_t size)
{
    const lab_spec *spec = g->spec;
    size_t at = 0;
    for (int d = 0; d < spec->n_dims && at < size; d++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s=%lld", d ? ", " : "",
                               spec->dim_names[d], (long long)call->c.dims[d]);
    const char *variant = spec->variant_names[call->c.variant];
    if (at < size && variant)
        at += (size_t)snprintf(buf + at, size - at, " (%s)", variant);
    int misaligned = 0;
    for (int b = 0; b < spec->n_buffers; b++) misaligned |= call->misalign_bytes[b];
    if (at < size && misaligned)
        snprintf(buf + at, size - at, ", pointers not 16-byte aligned");
}

/* Record the failure's one line and its hint. */
__attribute__((format(printf, 3, 4)))
static void fail(stage_result *st, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->summary, sizeof st->summary, fmt, ap);
    va_end(ap);
    st->status = ST_FAIL;
    if (hint) sb_printf(&st->details, "hint: %s\n", hint);
}

/* Regenerate the inputs of a call exactly as the runner did and run the
 * lab's CPU reference on them. */
static void compute_expected(const lab_spec *spec, const proto_call *call,
                             lab_expect *exp, void **inputs)
{
    for (int b = 0; b < spec->n_buffers; b++) {
        size_t count = spec->buffer_count(b, call->c.dims);
        inputs[b] = NULL;
        exp[b].value = exp[b].abs_sum = NULL;
        if (spec->buffers[b].role == BUF_INPUT) {
            inputs[b] = malloc(count * lab_elem_size(spec->buffers[b].elem) + 1);
            proto_make_input(spec, b, call, inputs[b], count);
        } else if (spec->buffers[b].role == BUF_OUTPUT) {
            exp[b].value = calloc(count + 1, sizeof(double));
            exp[b].abs_sum = calloc(count + 1, sizeof(double));
        }
    }
    spec->reference(&call->c, (const void *const *)inputs, exp);
}

static void free_expected(const lab_spec *spec, lab_expect *exp, void **inputs)
{
    for (int b = 0; b < spec->n_buffers; b++) {
        free(inputs[b]);
        free(exp[b].value);
        free(exp[b].abs_sum);
    }
}

struct judge_ahead {
    const lab_spec *spec;
    proto_call call;
    lab_expect exp[LAB_MAX_BUFFERS];
    void *inputs[LAB_MAX_BUFFERS];
    pthread_t thread;
    int running; /* the thread was started and not yet joined */
};

static void *compute_ahead(void *arg)
{
    judge_ahead *a = arg;
    compute_expected(a->spec, &a->call, a->exp, a->inputs);
    return NULL;
}

judge_ahead *judge_ahead_start(const lab_spec *spec, const proto_call *call)
{
    judge_ahead *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->spec = spec;
    a->call = *call;
    if (pthread_create(&a->thread, NULL, compute_ahead, a) != 0) {
        free(a);
        return NULL; /* judged the usual way */
    }
    a->running = 1;
    return a;
}

static void ahead_join(judge_ahead *a)
{
    if (a->running) pthread_join(a->thread, NULL);
    a->running = 0;
}

void judge_ahead_free(judge_ahead *a)
{
    if (!a) return;
    ahead_join(a);
    free_expected(a->spec, a->exp, a->inputs);
    free(a);
}

static void format_index(const lab_spec *spec, int b, const int64_t *dims,
                         int64_t i, char *buf, size_t size)
{
    int64_t rows = 0, cols = 0;
    if (spec->buffer_shape) spec->buffer_shape(b, dims, &rows, &cols);
    if (cols > 1 && rows > 1)
        snprintf(buf, size, "%s[%lld] (row %lld, col %lld)", spec->buffers[b].name,
                 (long long)i, (long long)(i / cols), (long long)(i % cols));
    else
        snprintf(buf, size, "%s[%lld]", spec->buffers[b].name, (long long)i);
}

static const char *tolerance_text(const lab_tolerance *t, char *buf, size_t size)
{
    switch (t->kind) {
    case TOL_EXACT: snprintf(buf, size, "exact"); break;
    case TOL_ULP: snprintf(buf, size, "within %g ulp", t->ulps); break;
    case TOL_BOUND:
        snprintf(buf, size, "|got - exact| <= %g * gamma_n * sum|terms|", t->bound_c);
        break;
    }
    return buf;
}

/* "0 10000010 01100000000000000000000" for a float, so the last bit shows. */
static void float_bits(double v, char *buf, size_t size)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    char bits[40];
    int k = 0;
    for (int i = 31; i >= 0; i--) {
        bits[k++] = (char)('0' + ((u >> i) & 1));
        if (i == 31 || i == 23) bits[k++] = ' ';
    }
    bits[k] = 0;
    snprintf(buf, size, "%s", bits);
}

static void show_mismatches(const grade_ctx *g, const proto_call *call, int b,
                            const cmp_result *cr, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const lab_tolerance *tol = lab_buffer_tolerance(spec, b);
    int is_float = spec->buffers[b].elem == ELEM_F32 || spec->buffers[b].elem == ELEM_F64;
    for (int k = 0; k < cr->n_shown; k++) {
        const cmp_mismatch *m = &cr->shown[k];
        char where[96];
        format_index(spec, b, call->c.dims, m->index, where, sizeof where);
        if (m->kind == MIS_NEVER_WRITTEN)
            sb_printf(&st->details, "%s: expected %.9g, never written\n", where, m->expected);
        else if (!is_float)
            sb_printf(&st->details, "%s: expected %.0f, got %.0f\n", where, m->expected, m->got);
        else if (tol->kind == TOL_BOUND && m->kind == MIS_VALUE)
            sb_printf(&st->details, "%s: expected %.9g, got %.9g (error %.3g > allowed %.3g)\n",
                      where, m->expected, m->got, m->err, m->allowed);
        else
            sb_printf(&st->details, "%s: expected %.9g, got %.9g (%.0f ulp apart)\n",
                      where, m->expected, m->got, m->ulps);
        if (tol->show_bits && is_float && m->kind != MIS_NEVER_WRITTEN) {
            char e[48], got[48];
            float_bits(m->expected, e, sizeof e);
            float_bits(m->got, got, sizeof got);
            sb_printf(&st->details, "    expected bits %s\n    got bits      %s\n", e, got);
        }
    }
    int64_t unwritten = cr->count[MIS_NEVER_WRITTEN];
    if (unwritten == 1)
        sb_printf(&st->details, "1 element never written, at index %lld\n",
                  (long long)cr->first_unwritten);
    else if (unwritten > 1)
        sb_printf(&st->details, "%lld elements never written, from index %lld to %lld\n",
                  (long long)unwritten, (long long)cr->first_unwritten,
                  (long long)cr->last_unwritten);
    char text[96];
    sb_printf(&st->details, "tolerance: %s: %s\n", tolerance_text(tol, text, sizeof text),
              tol->why ? tol->why : "");
}

static const char *mismatch_hint(const lab_hints *h, cmp_class first)
{
    switch (first) {
    case MIS_NEVER_WRITTEN:
        return hint_or(h->never_written,
                       "never written: does your grid cover every element, "
                       "including the last partial block? (Outputs hold NaN on "
                       "entry: one read and handed back looks never written.)");
    case MIS_SPECIAL:
        return hint_or(h->special_values,
                       "NaN or Inf where the reference has none (or the other "
                       "way round): outputs hold NaN on entry, so an output read "
                       "before it is written (0 * NaN is NaN) passes it on; else "
                       "an uninitialised value, or an operation the lab does not "
                       "ask for?");
    case MIS_VALUE: break;
    }
    return hint_or(h->wrong_value,
                   "wrong values: check the index arithmetic and the operands");
}

/* Every input buffer of the call has no elements (and there is one). */
static int inputs_empty(const lab_spec *spec, const int64_t *dims)
{
    int inputs = 0;
    for (int b = 0; b < spec->n_buffers; b++) {
        if (spec->buffers[b].role != BUF_INPUT) continue;
        if (spec->buffer_count(b, dims) > 0) return 0;
        inputs++;
    }
    return inputs > 0;
}

static int judge_outputs(const grade_ctx *g, const proto_call *call, const call_record *rec,
                         judge_ahead *ahead, int strict, char *where, stage_result *st)
{
    const lab_spec *spec = g->spec;
    lab_expect own[LAB_MAX_BUFFERS], *exp = own;
    void *inputs[LAB_MAX_BUFFERS];
    if (ahead && memcmp(&ahead->call, call, sizeof *call) == 0) {
        ahead_join(ahead);
        exp = ahead->exp;
    } else {
        ahead = NULL;
        compute_expected(spec, call, own, inputs);
    }
    size_t at = 0;
    int ok = 1;
    for (int b = 0; b < spec->n_buffers && ok; b++) {
        if (spec->buffers[b].role != BUF_OUTPUT) continue;
        int64_t count = (int64_t)spec->buffer_count(b, call->c.dims);
        const lab_tolerance *t = lab_buffer_tolerance(spec, b);
        cmp_tolerance tol = {t->kind, t->ulps, t->bound_c,
                             t->terms ? t->terms(call->c.dims) : 0};
        cmp_result cr;
        cmp_buffer(&tol, spec->buffers[b].elem, rec->outputs + at, &exp[b], count, &cr);
        at += (size_t)count * lab_elem_size(spec->buffers[b].elem);
        if (cr.max_ulps > st->max_ulps) st->max_ulps = cr.max_ulps;
        if (cr.max_err_ratio > st->max_err_ratio) st->max_err_ratio = cr.max_err_ratio;
        if (cr.bad == 0) continue;
        ok = 0;
        show_mismatches(g, call, b, &cr, st);
        char nothing[300];
        snprintf(nothing, sizeof nothing,
                 "nothing was written at all: is the kernel launched, on the stream "
                 "you were given, and did the launch succeed? (start at TODO(1) in %s)",
                 spec->student_file);
        /* Nothing written at all usually means nothing launched (the
         * skeleton as it comes). Not when every input is empty (n == 0,
         * k == 0): launching nothing is right there, and the lab's own hint
         * says what must still be written. Nor, once work has passed, for
         * an output of one element (lab 04's sum, n == 1): the same code
         * launched before, and the lab's hint says what misses an edge. */
        int all_unwritten = count > 0 && cr.count[MIS_NEVER_WRITTEN] == count &&
                            !inputs_empty(spec, call->c.dims) && (count > 1 || !strict);
        fail(st, all_unwritten ? nothing : mismatch_hint(&spec->hints, cr.shown[0].kind),
             "%s: %lld of %lld elements wrong at %s", spec->buffers[b].name,
             (long long)cr.bad, (long long)count, where);
    }
    if (!ahead) free_expected(spec, own, inputs);
    return ok;
}

/* Writes outside a buffer and changed inputs. Returns 1 if clean; in the
 * non-strict stage problems become notes and the call still passes. */
static int judge_memory(const grade_ctx *g, const call_record *rec,
                        const int64_t *rec_dims, int strict, const char *where,
                        stage_result *st)
{
    const lab_spec *spec = g->spec;
    const lab_hints *h = &spec->hints;
    for (int b = 0; b < spec->n_buffers; b++) {
        const proto_buffer_report *r = &rec->result.buf[b];
        const char *name = spec->buffers[b].name;
        char what[200];
        const char *hint = NULL;
        int64_t count = (int64_t)spec->buffer_count(b, rec_dims);
        int64_t elem = (int64_t)lab_elem_size(spec->buffers[b].elem);
        if (r->guard_after >= 0) {
            /* Report elements, not bytes: a stray float can share its low
             * bytes with the guard pattern. */
            snprintf(what, sizeof what, "wrote past the end of %s (to %s[%lld]) at %s",
                     name, name, (long long)(count + r->guard_after / elem), where);
            hint = hint_or(h->write_after, "a missing or wrong bounds check: "
                                           "threads past the end must not write");
        } else if (r->guard_before >= 0) {
            snprintf(what, sizeof what, "wrote in front of %s (to %s[-%lld]) at %s", name, name,
                     (long long)((r->guard_before + elem - 1) / elem), where);
            hint = hint_or(h->write_before, "a negative index, or a vector access "
                                            "rounded down below the buffer's start");
        } else if (r->changed_first >= 0) {
            snprintf(what, sizeof what, "changed the input %s (%lld elements, first at index %lld) at %s",
                     name, (long long)r->changed_count, (long long)r->changed_first, where);
            hint = hint_or(h->input_changed, "inputs are read-only: write results "
                                             "only to the output");
        } else {
            continue;
        }
        if (!strict) {
            sb_printf(&st->details, "note: %s; the right stage will reject this\n", what);
            continue;
        }
        fail(st, hint, "%s", what);
        return 0;
    }
    return 1;
}

/* A pinned host output that changed after the call's stream was done
 * (lab_buffer.pinned_host): work the call left on a stream it did not join
 * to the one it was given. In both stages: the outputs judged are the ones
 * the stream left, so such work would fail them anyway, for a reason this
 * says. Returns 1 if none. */
static int judge_late_writes(const grade_ctx *g, const call_record *rec, const char *where,
                             stage_result *st)
{
    const lab_spec *spec = g->spec;
    for (int b = 0; b < spec->n_buffers; b++) {
        const proto_buffer_report *r = &rec->result.buf[b];
        if (spec->buffers[b].role != BUF_OUTPUT || r->late_count <= 0) continue;
        const char *name = spec->buffers[b].name;
        fail(st, hint_or(spec->hints.late_write,
                         "work left on a stream that the call did not join to the stream it "
                         "was given: before returning, record an event on each stream of yours "
                         "and make the given stream wait for it (cudaStreamWaitEvent)"),
             "%s: %lld elements were written after the stream you were given was done "
             "(the first %s[%lld]) at %s",
             name, (long long)r->late_count, name, (long long)r->late_first, where);
        return 0;
    }
    return 1;
}

int judge_call(const grade_ctx *g, const proto_call *call,
               const call_record *rec, int strict, stage_result *st)
{
    return judge_call_ahead(g, call, rec, strict, NULL, st);
}

int judge_call_ahead(const grade_ctx *g, const proto_call *call, const call_record *rec,
                     int strict, judge_ahead *ahead, stage_result *st)
{
    const lab_spec *spec = g->spec;
    const lab_hints *h = &spec->hints;
    const proto_result *res = &rec->result;
    char where[200];
    describe_call(g, call, where, sizeof where);
    st->calls++;

    if (res->entry_status != 0) {
        fail(st, hint_or(h->launch_error, "a launch was refused: check the block size "
                                          "(at most 1024 threads) and the grid size"),
             "%s returned %s at %s", spec->entry, res->entry_name, where);
        return 0;
    }
    if (res->sync_status != 0) {
        fail(st, kernel_fault_hint(h),
             "the kernel failed with %s (%s) at %s", res->sync_name, res->sync_text, where);
        return 0;
    }
    if (res->last_status != 0) {
        fail(st, "check and return the launch status: return cudaGetLastError() "
                 "right after the launch",
             "a launch failed with %s, but %s returned cudaSuccess, at %s",
             res->last_name, spec->entry, where);
        return 0;
    }
    if (!rec->outputs) {
        fail(st, NULL, "no outputs came back at %s", where);
        return 0;
    }
    if (!judge_late_writes(g, rec, where, st)) return 0;
    if (!judge_outputs(g, call, rec, ahead, strict, where, st)) return 0;
    return judge_memory(g, rec, call->c.dims, strict, where, st);
}
