/* stats.c - see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts a copy; samples are at most a few thousand, so this is cheap. */
double stats_median(const double *x, size_t n)
{
    if (n == 0) return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s) return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, stats_cmp_double);
    double m = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

double stats_slowest(const double *x, size_t n)
{
    double slowest = NAN;
    for (size_t i = 0; i < n; i++) slowest = fmax(slowest, x[i]);
    return slowest;
}

double stats_mad(const double *x, size_t n)
{
    if (n == 0) return NAN;
    double med = stats_median(x, n);
    double *dev = malloc(n * sizeof *dev);
    if (!dev) return NAN;
    for (size_t i = 0; i < n; i++) dev[i] = fabs(x[i] - med);
    double mad = stats_median(dev, n);
    free(dev);
    return mad;
}

double stats_rse_of_median(const double *x, size_t n)
{
    if (n < 2) return INFINITY;
    double med = stats_median(x, n);
    if (!(med > 0)) return INFINITY;
    double sigma = 1.4826 * stats_mad(x, n);
    return 1.2533 * sigma / sqrt((double)n) / med;
}

int stats_converged(const double *const *series, int n_series, size_t n,
                    size_t min_n, double target_rse)
{
    if (n < min_n) return 0;
    for (int s = 0; s < n_series; s++)
        if (!(stats_rse_of_median(series[s], n) < target_rse)) return 0;
    return 1;
}
