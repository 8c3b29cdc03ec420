/* lab_spec.c - small facts about element types, shared by both processes. */
#include <math.h>
#include <string.h>

#include "lab_spec.h"

const char *lab_peak_name(lab_peak p)
{
    return p == PEAK_FP16_TENSOR ? "FP16 tensor-core" : "FP32";
}

size_t lab_elem_size(lab_elem e)
{
    return e == ELEM_F64 ? 8 : e == ELEM_F16 ? 2 : 4;
}

const lab_tolerance *lab_buffer_tolerance(const lab_spec *spec, int b)
{
    return spec->buffers[b].tolerance ? spec->buffers[b].tolerance : &spec->tolerance;
}

int lab_case_given(const lab_case *c)
{
    for (int d = 0; d < LAB_MAX_DIMS; d++)
        if (c->dims[d] != 0) return 1;
    return 0;
}

double lab_roof_bar(const lab_spec *spec)
{
    return spec->fast.roof == ROOF_NONE ? 0 : spec->fast.min_roofline;
}

const lab_case *lab_largest_work_case(const lab_spec *spec)
{
    const lab_case *largest = NULL;
    size_t most = 0;
    for (int i = 0; i < spec->work.n; i++) {
        size_t elements = 0;
        for (int b = 0; b < spec->n_buffers; b++) elements += spec->buffer_count(b, spec->work.list[i].dims);
        if (!largest || elements > most) largest = &spec->work.list[i], most = elements;
    }
    return largest;
}

const char *lab_elem_name(lab_elem e)
{
    switch (e) {
    case ELEM_F32: return "float";
    case ELEM_F64: return "double";
    case ELEM_I32: return "int";
    case ELEM_U32: return "unsigned";
    case ELEM_F16: return "half";
    }
    return "?";
}

double lab_f16_to_double(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0x1f)
        v = mant ? NAN : INFINITY;
    else if (exp == 0) /* zero or subnormal: mant * 2^-24 */
        v = ldexp((double)mant, -24);
    else
        v = ldexp((double)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

uint16_t lab_f16_from_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    if (isnan(f)) return (uint16_t)(sign | 0x7e00);
    double a = fabs((double)f);
    if (a >= 65520.0) return (uint16_t)(sign | 0x7c00); /* rounds past 65504 */
    /* The spacing of halves near a: 2^-24 below 2^-14 (subnormals),
     * else 2^(e - 10) for a in [2^e, 2^(e+1)). */
    int e;
    frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    double step = ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
    double q = a / step;          /* exact: a power-of-two division */
    double r = nearbyint(q);      /* ties to even in the default mode */
    double v = r * step;
    /* v is a half: rebuild its bits from the value */
    if (v == 0) return sign;
    int ve;
    double vm = frexp(v, &ve); /* v = vm 2^ve, vm in [0.5, 1) */
    if (ve - 1 < -14) return (uint16_t)(sign | (uint16_t)ldexp(v, 24));
    uint16_t bits = (uint16_t)(((ve - 1 + 15) << 10) | ((uint16_t)ldexp(vm, 11) & 0x3ff));
    return (uint16_t)(sign | bits);
}
