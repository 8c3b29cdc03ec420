/* Part of the CPU emulation (see common/emu/README.md): IEEE binary16, the
 * __half type of CUDA's <cuda_fp16.h>, with the conversions and the scalar
 * arithmetic a kernel needs. Every operation is done in float and rounded
 * to the nearest half (ties to even), which for +, -, * and / gives the
 * correctly rounded half (float has more than 2 * 11 + 2 bits); __hfma is
 * done in double and rounded once more, right except in cases far from any
 * this workbook meets. __half2 and the half-precision math functions are
 * not provided. */
#ifndef EMU_CUDA_FP16_H
#define EMU_CUDA_FP16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace emu {
inline unsigned short float_to_half_bits(float f)
{
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    unsigned short sign = (unsigned short)((x >> 16) & 0x8000u);
    std::uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (unsigned short)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu)); /* NaN */
    if (ax >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u); /* 65520 and up: Inf */
    if (ax < 0x38800000u) { /* below 2^-14: a subnormal half, in units of 2^-24 */
        float a;
        std::memcpy(&a, &ax, sizeof a);
        return (unsigned short)(sign | (unsigned short)std::nearbyint(a * 16777216.0f));
    }
    std::uint32_t h = ((ax >> 23) - 112u) << 10 | ((ax >> 13) & 0x3ffu), rest = ax & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* a carry moves the exponent */
    return (unsigned short)(sign | h);
}
inline float half_bits_to_float(unsigned short h)
{
    int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v = exp == 0x1f   ? (mant ? NAN : INFINITY)
              : exp == 0    ? std::ldexp((float)mant, -24)
                            : std::ldexp((float)(mant | 0x400), exp - 25);
    return (h & 0x8000) ? -v : v;
}
} // namespace emu

struct __half_raw {
    unsigned short x;
};

struct __half {
    unsigned short __x;
    __half() = default;
    __half(const __half_raw &r) : __x(r.x) {}
    __half(float f) : __x(emu::float_to_half_bits(f)) {}
    __half(double d) : __x(emu::float_to_half_bits((float)d)) {} /* as nvcc: via float */
    __half(int i) : __x(emu::float_to_half_bits((float)i)) {}
    __half(unsigned int i) : __x(emu::float_to_half_bits((float)i)) {}
    operator float() const { return emu::half_bits_to_float(__x); }
    operator __half_raw() const { return __half_raw{__x}; }
    __half &operator=(float f) { __x = emu::float_to_half_bits(f); return *this; }
    __half &operator+=(const __half &o) { return *this = (float)*this + (float)o; }
    __half &operator-=(const __half &o) { return *this = (float)*this - (float)o; }
    __half &operator*=(const __half &o) { return *this = (float)*this * (float)o; }
    __half &operator/=(const __half &o) { return *this = (float)*this / (float)o; }
};
typedef __half half;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half((float)d); }
inline float __half2float(__half h) { return (float)h; }
inline __half __int2half_rn(int i) { return __half((float)i); }
inline int __half2int_rz(__half h) { return (int)(float)h; }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return (short)h.__x; }
inline __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
inline __half __short_as_half(short s) { return __half(__half_raw{(unsigned short)s}); }

inline __half __hadd(__half a, __half b) { return __half((float)a + (float)b); }
inline __half __hsub(__half a, __half b) { return __half((float)a - (float)b); }
inline __half __hmul(__half a, __half b) { return __half((float)a * (float)b); }
inline __half __hdiv(__half a, __half b) { return __half((float)a / (float)b); }
inline __half __hneg(__half a) { return __half(__half_raw{(unsigned short)(a.__x ^ 0x8000u)}); }
inline __half __habs(__half a) { return __half(__half_raw{(unsigned short)(a.__x & 0x7fffu)}); }
inline __half __hfma(__half a, __half b, __half c)
{
    return __half((float)std::fma((double)(float)a, (double)(float)b, (double)(float)c));
}
inline bool __hisnan(__half a) { return std::isnan((float)a); }
inline bool __hisinf(__half a) { return std::isinf((float)a); }
inline bool __heq(__half a, __half b) { return (float)a == (float)b; }
inline bool __hlt(__half a, __half b) { return (float)a < (float)b; }
inline bool __hgt(__half a, __half b) { return (float)a > (float)b; }
inline __half __hmax(__half a, __half b) { return (float)a < (float)b ? b : a; }
inline __half __hmin(__half a, __half b) { return (float)b < (float)a ? b : a; }

inline __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
inline __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
inline __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
inline __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
inline __half operator-(const __half &a) { return __hneg(a); }
inline bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
inline bool operator!=(const __half &a, const __half &b) { return !__heq(a, b); }
inline bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
inline bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
inline bool operator<=(const __half &a, const __half &b) { return (float)a <= (float)b; }
inline bool operator>=(const __half &a, const __half &b) { return (float)a >= (float)b; }

#endif
