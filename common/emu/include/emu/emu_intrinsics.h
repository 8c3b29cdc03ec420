/* Device math: CUDA's intrinsics and the math functions that the C library
 * lacks, plus CUDA's global min/max overloads.
 *
 * The _rn intrinsics are single IEEE-754 operations rounded to nearest, which
 * is exactly what the host's SSE arithmetic does (compile with
 * -ffp-contract=off so that the compiler does not fuse a*b+c behind your
 * back).  The fast intrinsics (__expf, __fdividef, ...) are computed with the
 * accurate functions: on the GPU they are less accurate (see README). */
#ifndef EMU_INTRINSICS_H
#define EMU_INTRINSICS_H

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>

/* glibc's <math.h> declares __expf, __logf, __sinf, __cosf, __powf, __tanf,
 * __log2f, __log10f and __exp10f itself (without exporting them); the
 * emulation runtime defines them, so they are usable as declared. */

inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __frsqrt_rn(float a) { return (float)(1.0 / std::sqrt((double)a)); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline double __drcp_rn(double a) { return 1.0 / a; }
/* Directed rounding (_rz, _ru, _rd): the nearest result r, then one step
 * towards the wanted side when the exact result lies on it. The sign of the
 * rounding error comes from TwoSum (exact), the product in double (exact),
 * or the quotient and square root in double (a float quotient or root can
 * only lie within 2^-53 of a float if it equals it), so no rounding mode is
 * ever switched. */
enum emu_round { EMU_RZ, EMU_RU, EMU_RD };
inline float emu_round_from(float r, double err, emu_round mode, bool exact_overflow)
{
    if (std::isnan(r)) return r;
    if (std::isinf(r) && exact_overflow) { /* finite operands overflowed */
        bool up = r > 0;
        if (mode == EMU_RZ || (mode == EMU_RU && !up) || (mode == EMU_RD && up))
            return std::copysign(FLT_MAX, r);
        return r;
    }
    if (err == 0 || std::isinf(r)) return r;
    bool toward_zero = (err > 0) != (r > 0) && r != 0;
    if (mode == EMU_RZ) return toward_zero ? std::nextafter(r, 0.0f) : r;
    if (mode == EMU_RU) return err > 0 ? std::nextafter(r, INFINITY) : r;
    return err < 0 ? std::nextafter(r, -INFINITY) : r;
}
/* The float nearest to a double, and the rounding error's sign. */
inline float emu_round_double(double exact, emu_round m, bool finite_operands)
{
    float r = (float)exact;
    return emu_round_from(r, std::isfinite(r) ? exact - (double)r : 0, m,
                          finite_operands && std::isfinite(exact) && std::isinf(r));
}
inline float emu_add_round(float a, float b, emu_round m)
{
    float r = a + b;
    if (!std::isfinite(r)) return emu_round_from(r, 0, m, std::isfinite(a) && std::isfinite(b));
    /* An exact zero sum is +0, but -0 when rounding down (IEEE-754 6.3);
     * -0 + -0 stays -0 in every mode. */
    if (r == 0) return (m == EMU_RD || (std::signbit(a) && std::signbit(b))) ? -0.0f : 0.0f;
    float bb = r - a; /* TwoSum: the exact error of a + b */
    double err = (double)(a - (r - bb)) + (double)(b - bb);
    return emu_round_from(r, err, m, false);
}
inline float emu_mul_round(float a, float b, emu_round m)
{
    return emu_round_double((double)a * (double)b, m, std::isfinite(a) && std::isfinite(b));
}
inline float emu_div_round(float a, float b, emu_round m)
{
    return emu_round_double((double)a / (double)b, m, std::isfinite(a) && b != 0);
}
inline float emu_sqrt_round(float a, emu_round m)
{
    return emu_round_double(std::sqrt((double)a), m, true);
}
inline float __fadd_rz(float a, float b) { return emu_add_round(a, b, EMU_RZ); }
inline float __fadd_ru(float a, float b) { return emu_add_round(a, b, EMU_RU); }
inline float __fadd_rd(float a, float b) { return emu_add_round(a, b, EMU_RD); }
inline float __fsub_rz(float a, float b) { return emu_add_round(a, -b, EMU_RZ); }
inline float __fsub_ru(float a, float b) { return emu_add_round(a, -b, EMU_RU); }
inline float __fsub_rd(float a, float b) { return emu_add_round(a, -b, EMU_RD); }
inline float __fmul_rz(float a, float b) { return emu_mul_round(a, b, EMU_RZ); }
inline float __fmul_ru(float a, float b) { return emu_mul_round(a, b, EMU_RU); }
inline float __fmul_rd(float a, float b) { return emu_mul_round(a, b, EMU_RD); }
inline float __fdiv_rz(float a, float b) { return emu_div_round(a, b, EMU_RZ); }
inline float __fdiv_ru(float a, float b) { return emu_div_round(a, b, EMU_RU); }
inline float __fdiv_rd(float a, float b) { return emu_div_round(a, b, EMU_RD); }
inline float __frcp_rz(float a) { return emu_div_round(1.0f, a, EMU_RZ); }
inline float __frcp_ru(float a) { return emu_div_round(1.0f, a, EMU_RU); }
inline float __frcp_rd(float a) { return emu_div_round(1.0f, a, EMU_RD); }
inline float __fsqrt_rz(float a) { return emu_sqrt_round(a, EMU_RZ); }
inline float __fsqrt_ru(float a) { return emu_sqrt_round(a, EMU_RU); }
inline float __fsqrt_rd(float a) { return emu_sqrt_round(a, EMU_RD); }

inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __saturatef(float a) { return a >= 1.0f ? 1.0f : (a > 0.0f ? a : 0.0f); } /* NaN -> 0 */
inline void __sincosf(float a, float *s, float *c) { *s = std::sin(a); *c = std::cos(a); }

inline float rsqrtf(float a) { return 1.0f / std::sqrt(a); }
inline double rsqrt(double a) { return 1.0 / std::sqrt(a); }
inline float rcbrtf(float a) { return 1.0f / std::cbrt(a); }
/* sin(pi x) and cos(pi x) with x reduced exactly to [-1, 1] first (x - 2
 * rint(x / 2) is exact in floating point), so they are exact where the
 * true value is 0 and accurate for large x, as CUDA's are. */
inline double emu_reduce_pi(double x) { return x - 2.0 * std::rint(0.5 * x); }
inline double sinpi(double a)
{
    if (!std::isfinite(a)) return NAN;
    double r = emu_reduce_pi(a);
    if (r == 0.0 || std::fabs(r) == 1.0) return std::copysign(0.0, a);
    return std::sin(M_PI * r);
}
inline double cospi(double a)
{
    if (!std::isfinite(a)) return NAN;
    double r = std::fabs(emu_reduce_pi(a));
    if (r == 0.5) return 0.0;
    return std::cos(M_PI * r);
}
inline float sinpif(float a) { return (float)sinpi((double)a); }
inline float cospif(float a) { return (float)cospi((double)a); }
inline float normcdff(float a) { return 0.5f * std::erfc(-a * (float)M_SQRT1_2); }
inline double normcdf(double a) { return 0.5 * std::erfc(-a * M_SQRT1_2); }
inline float rhypotf(float a, float b) { return 1.0f / std::hypot(a, b); }
inline float norm3df(float a, float b, float c) { return (float)std::sqrt((double)a * a + (double)b * b + (double)c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }

inline int __float2int_rn(float a) { return (int)std::nearbyint(a); }
inline int __float2int_rz(float a) { return (int)a; }
inline int __float2int_rd(float a) { return (int)std::floor(a); }
inline int __float2int_ru(float a) { return (int)std::ceil(a); }
inline unsigned int __float2uint_rn(float a) { return (unsigned int)std::nearbyint(a); }
inline unsigned int __float2uint_rz(float a) { return (unsigned int)a; }
inline float __int2float_rn(int a) { return (float)a; }
inline float __uint2float_rn(unsigned int a) { return (float)a; }
inline long long __float2ll_rn(float a) { return (long long)std::nearbyint(a); }
inline int __double2int_rn(double a) { return (int)std::nearbyint(a); }
inline float __double2float_rn(double a) { return (float)a; }

template <class To, class From> inline To emu_bit_cast(From value)
{
    static_assert(sizeof(To) == sizeof(From), "bit casts keep the size");
    To result;
    std::memcpy(&result, &value, sizeof(To));
    return result;
}
inline float __int_as_float(int a) { return emu_bit_cast<float>(a); }
inline int __float_as_int(float a) { return emu_bit_cast<int>(a); }
inline float __uint_as_float(unsigned int a) { return emu_bit_cast<float>(a); }
inline unsigned int __float_as_uint(float a) { return emu_bit_cast<unsigned int>(a); }
inline double __longlong_as_double(long long a) { return emu_bit_cast<double>(a); }
inline long long __double_as_longlong(double a) { return emu_bit_cast<long long>(a); }

inline int __popc(unsigned int a) { return __builtin_popcount(a); }
inline int __popcll(unsigned long long a) { return __builtin_popcountll(a); }
inline int __clz(int a) { return a == 0 ? 32 : __builtin_clz((unsigned int)a); }
inline int __clzll(long long a) { return a == 0 ? 64 : __builtin_clzll((unsigned long long)a); }
inline int __ffs(int a) { return __builtin_ffs(a); }
inline int __ffsll(long long a) { return __builtin_ffsll(a); }
inline unsigned int __brev(unsigned int a)
{
    unsigned int reversed = 0;
    for (int bit = 0; bit < 32; ++bit)
        reversed |= ((a >> bit) & 1u) << (31 - bit);
    return reversed;
}
inline unsigned long long __brevll(unsigned long long a)
{
    return ((unsigned long long)__brev((unsigned int)a) << 32) | __brev((unsigned int)(a >> 32));
}
/* 24-bit multiplies use the low 24 bits of each operand (sign-extended for __mul24). */
inline int __mul24(int a, int b)
{
    long long a24 = (long long)(a << 8) >> 8, b24 = (long long)(b << 8) >> 8;
    return (int)(a24 * b24);
}
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b)
{
    return (unsigned int)(((unsigned long long)a * b) >> 32);
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int selector)
{
    unsigned long long bytes = ((unsigned long long)y << 32) | x;
    unsigned int result = 0;
    for (int i = 0; i < 4; ++i)
        result |= (unsigned int)((bytes >> (8 * ((selector >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return result;
}
inline unsigned int __sad(int a, int b, unsigned int c) { return c + (unsigned int)(a > b ? a - b : b - a); }
#if defined(__x86_64__)
inline long long clock64() { return (long long)__builtin_ia32_rdtsc(); }
#else
inline long long clock64() { return (long long)__builtin_readcyclecounter(); }
#endif

/* Cache-hinted loads and stores are plain accesses on the CPU. */
template <class T> inline T __ldg(const T *p) { return *p; }
template <class T> inline T __ldcg(const T *p) { return *p; }
template <class T> inline T __ldca(const T *p) { return *p; }
template <class T> inline T __ldcs(const T *p) { return *p; }
template <class T> inline T __ldlu(const T *p) { return *p; }
template <class T> inline T __ldcv(const T *p) { return *p; }
template <class T> inline void __stwb(T *p, T v) { *p = v; }
template <class T> inline void __stcg(T *p, T v) { *p = v; }
template <class T> inline void __stcs(T *p, T v) { *p = v; }
template <class T> inline void __stwt(T *p, T v) { *p = v; }

/* CUDA's global min/max overloads (the host has only std::min/std::max). */
#define EMU_MIN_MAX(A, B, R)                                                                    \
    inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                                \
    inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
EMU_MIN_MAX(int, int, int)
EMU_MIN_MAX(unsigned int, unsigned int, unsigned int)
EMU_MIN_MAX(int, unsigned int, unsigned int)
EMU_MIN_MAX(unsigned int, int, unsigned int)
EMU_MIN_MAX(long, long, long)
EMU_MIN_MAX(unsigned long, unsigned long, unsigned long)
EMU_MIN_MAX(long long, long long, long long)
EMU_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
EMU_MIN_MAX(long long, unsigned long long, unsigned long long)
EMU_MIN_MAX(unsigned long long, long long, unsigned long long)
#undef EMU_MIN_MAX
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin((double)a, b); }
inline double max(float a, double b) { return std::fmax((double)a, b); }
inline double min(double a, float b) { return std::fmin(a, (double)b); }
inline double max(double a, float b) { return std::fmax(a, (double)b); }

#endif
