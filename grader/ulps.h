/* ulps.h - how far apart two floats are in ulps: how many representable
 * values lie between them. One definition for the CPU judge (compare.c)
 * and for the runner's kernels that check the timed calls on the GPU
 * (runner/verify.cu). */
#ifndef ULPS_H
#define ULPS_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define ULPS_FN static inline __host__ __device__
#else
#define ULPS_FN static inline
#endif

/* Map a float onto the integers so that neighbours differ by one and the
 * order is kept; both zeros map to 0. */
ULPS_FN int64_t ulps_ordered_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

/* A double's ordered index needs 64 bits; a double holds the distance to
 * within rounding, which is all a check or a report needs. */
ULPS_FN double ulps_ordered_f64(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return (u >> 63) ? -(double)(u & 0x7fffffffffffffffull) : (double)u;
}

/* For finite a and b: a NaN is the caller's to handle. */
ULPS_FN double ulps_between_f32(float a, float b)
{
    int64_t d = ulps_ordered_f32(a) - ulps_ordered_f32(b);
    return (double)(d < 0 ? -d : d);
}

ULPS_FN double ulps_between_f64(double a, double b)
{
    double d = ulps_ordered_f64(a) - ulps_ordered_f64(b);
    return d < 0 ? -d : d;
}

#endif
