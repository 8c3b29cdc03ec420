/* compare.c - see compare.h. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "ulps.h"

double cmp_gamma(int64_t n)
{
    const double u = 0x1p-24;
    double nu = (double)n * u;
    return nu < 1 ? nu / (1 - nu) : INFINITY;
}

double cmp_ulps_f32(float a, float b)
{
    if (isnan(a) || isnan(b)) return INFINITY;
    return ulps_between_f32(a, b);
}

double cmp_ulps_f64(double a, double b)
{
    if (isnan(a) || isnan(b)) return INFINITY;
    return ulps_between_f64(a, b);
}

int cmp_is_poison(lab_elem elem, const void *element)
{
    uint64_t poison = proto_poison(elem);
    return memcmp(element, &poison, lab_elem_size(elem)) == 0;
}

const char *cmp_class_name(cmp_class k)
{
    switch (k) {
    case MIS_NEVER_WRITTEN: return "never written";
    case MIS_SPECIAL: return "NaN/Inf mismatch";
    case MIS_VALUE: return "wrong value";
    }
    return "?";
}

static double cmp_load(lab_elem elem, const void *base, int64_t i)
{
    switch (elem) {
    case ELEM_F32: { float v; memcpy(&v, (const char *)base + 4 * i, 4); return v; }
    case ELEM_F64: { double v; memcpy(&v, (const char *)base + 8 * i, 8); return v; }
    case ELEM_I32: { int32_t v; memcpy(&v, (const char *)base + 4 * i, 4); return v; }
    case ELEM_U32: { uint32_t v; memcpy(&v, (const char *)base + 4 * i, 4); return v; }
    case ELEM_F16: { uint16_t v; memcpy(&v, (const char *)base + 2 * i, 2); return lab_f16_to_double(v); }
    }
    return NAN;
}

/* Judge one element; returns 1 when it passes. Every test is written so that
 * a NaN anywhere makes it fail rather than pass. */
static int cmp_element(const cmp_tolerance *tol, lab_elem elem, double got,
                       double exact, double abs_sum, cmp_mismatch *m)
{
    int is_float = elem == ELEM_F32 || elem == ELEM_F64;
    double expected = elem == ELEM_F32 ? (double)(float)exact : exact;
    m->expected = expected;
    m->got = got;
    m->err = fabs(got - exact);
    m->allowed = 0;
    m->ulps = !is_float ? fabs(got - expected)
              : elem == ELEM_F32 ? cmp_ulps_f32((float)got, (float)expected)
                                 : cmp_ulps_f64(got, expected);
    m->kind = MIS_VALUE;

    if (!is_float) return got == expected;

    if (!isfinite(expected) || !isfinite(got)) {
        m->kind = MIS_SPECIAL;
        if (isnan(expected)) return isnan(got);
        return got == expected; /* the same infinity */
    }
    switch (tol->kind) {
    case TOL_EXACT:
        /* Bitwise, so that -0 and +0 differ: IEEE-exact labs care. */
        return got == expected && signbit(got) == signbit(expected);
    case TOL_ULP:
        m->allowed = tol->ulps;
        return m->ulps <= tol->ulps;
    case TOL_BOUND:
        m->allowed = tol->bound_c * cmp_gamma(tol->terms) * abs_sum;
        return m->err <= m->allowed;
    }
    return 0;
}

void cmp_buffer(const cmp_tolerance *tol, lab_elem elem, const void *got,
                const lab_expect *expect, int64_t count, cmp_result *out)
{
    memset(out, 0, sizeof *out);
    out->first_unwritten = out->last_unwritten = -1;
    size_t size = lab_elem_size(elem);
    /* An answer may itself have the poison's bits: lab 10's timed prefix
     * sums (inputs below 256) climb past 0x7badbad7 near index 16.27M and
     * land on it about once in 128 calls. An element that holds it there
     * is right, not "never written". (The float poisons are signalling
     * NaNs, which no computed answer is, so for them this never holds.) */
    uint64_t poison = proto_poison(elem);
    const double poison_value = cmp_load(elem, &poison, 0);
    for (int64_t i = 0; i < count; i++) {
        cmp_mismatch m;
        int ok;
        double abs_sum = expect->abs_sum ? expect->abs_sum[i] : 0;
        if (cmp_is_poison(elem, (const char *)got + (size_t)i * size) &&
            expect->value[i] != poison_value) {
            ok = 0;
            m.index = i;
            m.expected = expect->value[i];
            m.got = NAN;
            m.ulps = m.err = INFINITY;
            m.allowed = 0;
            m.kind = MIS_NEVER_WRITTEN;
            if (out->first_unwritten < 0) out->first_unwritten = i;
            out->last_unwritten = i;
        } else {
            ok = cmp_element(tol, elem, cmp_load(elem, got, i),
                             expect->value[i], abs_sum, &m);
            m.index = i;
            if (isfinite(m.ulps) && m.ulps > out->max_ulps)
                out->max_ulps = m.ulps;
            if (tol->kind == TOL_BOUND && m.allowed > 0 &&
                m.err / m.allowed > out->max_err_ratio)
                out->max_err_ratio = m.err / m.allowed;
        }
        out->checked++;
        if (ok) continue;
        out->bad++;
        out->count[m.kind]++;
        if (out->n_shown < CMP_SHOWN) out->shown[out->n_shown++] = m;
    }
}
