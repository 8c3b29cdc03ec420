/* stats.h - medians and the stopping rule of the timing loop.
 *
 * Kernel times are skewed (a sample is only ever slowed down by a hiccup),
 * so the grader reports medians and judges their precision with the median
 * absolute deviation, which one slow outlier cannot inflate.
 */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Median of x[0..n); x is not modified. Returns NaN for n == 0. */
double stats_median(const double *x, size_t n);

/* The largest of x[0..n) (NaN elements left out); NaN for n == 0. The
 * bound of a lab measured against several parts of its work (ROOF_PARTS)
 * is the slowest part's median. */
double stats_slowest(const double *x, size_t n);

/* Median absolute deviation from the median. */
double stats_mad(const double *x, size_t n);

/* Relative standard error of the median: for normal data the standard error
 * of the median is 1.2533 sigma / sqrt(n), and sigma is 1.4826 MAD. */
double stats_rse_of_median(const double *x, size_t n);

/* The stopping rule: every series has at least min_n samples and a relative
 * standard error of its median below target. */
int stats_converged(const double *const *series, int n_series, size_t n,
                    size_t min_n, double target_rse);

#ifdef __cplusplus
}
#endif

#endif
