/* compare.h - is the output right? NaN-proof, by tolerance kind.
 *
 * The one rule that matters: an element fails unless the check succeeds, so
 * a NaN (which makes every comparison false) can never slip through. NaN and
 * Inf must sit exactly where the reference has them.
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdint.h>

#include "lab_spec.h"

enum { CMP_SHOWN = 5 };

typedef enum {
    MIS_NEVER_WRITTEN, /* still holds the poison the grader put there */
    MIS_SPECIAL,       /* NaN or Inf where the reference has none, or back */
    MIS_VALUE          /* a number, but outside the tolerance */
} cmp_class;

typedef struct {
    int64_t index;
    double expected, got;
    double ulps;    /* distance in units in the last place, when finite */
    double err, allowed;
    cmp_class kind;
} cmp_mismatch;

typedef struct {
    lab_tol_kind kind;
    double ulps;    /* TOL_ULP */
    double bound_c; /* TOL_BOUND */
    int64_t terms;  /* TOL_BOUND: the n of gamma_n */
} cmp_tolerance;

typedef struct {
    int64_t checked, bad;
    int64_t count[3];         /* by cmp_class */
    int64_t first_unwritten;  /* -1 when every element was written */
    int64_t last_unwritten;
    int n_shown;
    cmp_mismatch shown[CMP_SHOWN]; /* the first bad elements, in order */
    double max_ulps;          /* worst distance among elements compared */
    double max_err_ratio;     /* TOL_BOUND: worst err / allowed */
} cmp_result;

/* Compare count elements of got (raw, of type elem) with the reference. */
void cmp_buffer(const cmp_tolerance *tol, lab_elem elem, const void *got,
                const lab_expect *expect, int64_t count, cmp_result *out);

/* gamma_n = n u / (1 - n u) with u = 2^-24: the relative error bound of a
 * sum of n float terms in any order (Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., section 4.2). Infinite when n u >= 1. */
double cmp_gamma(int64_t n);

/* Units in the last place between two floats (+0 and -0 are 0 apart);
 * infinite if either is NaN. */
double cmp_ulps_f32(float a, float b);
double cmp_ulps_f64(double a, double b);

int cmp_is_poison(lab_elem elem, const void *element);

const char *cmp_class_name(cmp_class k);

#endif
