/* dim3, uint3 and the CUDA vector types with CUDA's sizes and alignments.
 *
 * Two- and four-component types are over-aligned (float4 is 16-byte aligned).
 * On the GPU a copy of one of them is a single vector load or store, which
 * faults with cudaErrorMisalignedAddress when the address is not a multiple of
 * the alignment.  The host compiler may split such a copy into scalar loads
 * that never fault, so these types copy through a checked path instead.  The
 * price: they have constructors (so `float4 v = {1, 2, 3, 4}` still works) but
 * are not trivially copyable. */
#ifndef EMU_VECTOR_TYPES_H
#define EMU_VECTOR_TYPES_H

#include <cstddef>
#include <cstdint>

namespace emu {
extern bool kernel_is_running;
[[noreturn]] void report_misaligned_access(const void *address, std::size_t alignment);

inline void check_vector_access(const void *address, std::size_t alignment)
{
    if (__builtin_expect(((std::uintptr_t)address & (alignment - 1)) != 0, 0) && kernel_is_running)
        report_misaligned_access(address, alignment);
}

/* The whole vector in one access, as the GPU's one vector load or store:
 * a fixed-size copy the compiler does in one move, which the memory
 * counters (a file built for counting) then see as one access, not as two
 * or four of its components. A copy through a temporary, so that a vector
 * assigned to itself stays whole. */
template <class V> inline void vector_copy(V *to, const V *from)
{
    unsigned char bytes[sizeof(V)];
    __builtin_memcpy(bytes, static_cast<const void *>(from), sizeof(V));
    __builtin_memcpy(static_cast<void *>(to), bytes, sizeof(V));
}
} // namespace emu

#define EMU_VECTOR1(name, T)                                                                    \
    struct name { T x; };                                                                       \
    inline name make_##name(T x) { name v; v.x = x; return v; }

#define EMU_VECTOR3(name, T)                                                                    \
    struct name { T x, y, z; };                                                                 \
    inline name make_##name(T x, T y, T z) { name v; v.x = x; v.y = y; v.z = z; return v; }

#define EMU_VECTOR2(name, T, A)                                                                 \
    struct alignas(A) name {                                                                    \
        T x, y;                                                                                 \
        name() = default;                                                                       \
        constexpr name(T vx, T vy = 0) : x(vx), y(vy) {}                                      \
        name(const name &o) { emu::check_vector_access(&o, A); emu::vector_copy(this, &o); }   \
        name &operator=(const name &o) /* a vector load, then a vector store */              \
        {                                                                                       \
            emu::check_vector_access(&o, A);                                                    \
            emu::check_vector_access(this, A);                                                  \
            emu::vector_copy(this, &o);                                                         \
            return *this;                                                                       \
        }                                                                                       \
    };                                                                                          \
    inline name make_##name(T x, T y) { return name(x, y); }

#define EMU_VECTOR4(name, T, A)                                                                 \
    struct alignas(A) name {                                                                    \
        T x, y, z, w;                                                                           \
        name() = default;                                                                       \
        constexpr name(T vx, T vy = 0, T vz = 0, T vw = 0) : x(vx), y(vy), z(vz), w(vw) {} \
        name(const name &o) { emu::check_vector_access(&o, A); emu::vector_copy(this, &o); }   \
        name &operator=(const name &o) /* a vector load, then a vector store */              \
        {                                                                                       \
            emu::check_vector_access(&o, A);                                                    \
            emu::check_vector_access(this, A);                                                  \
            emu::vector_copy(this, &o);                                                         \
            return *this;                                                                       \
        }                                                                                       \
    };                                                                                          \
    inline name make_##name(T x, T y, T z, T w) { return name(x, y, z, w); }

#define EMU_VECTOR_FAMILY(prefix, T, A2, A4)                                                    \
    EMU_VECTOR1(prefix##1, T)                                                                   \
    EMU_VECTOR2(prefix##2, T, A2)                                                               \
    EMU_VECTOR3(prefix##3, T)                                                                   \
    EMU_VECTOR4(prefix##4, T, A4)

EMU_VECTOR_FAMILY(char, signed char, 2, 4)
EMU_VECTOR_FAMILY(uchar, unsigned char, 2, 4)
EMU_VECTOR_FAMILY(short, short, 4, 8)
EMU_VECTOR_FAMILY(ushort, unsigned short, 4, 8)
EMU_VECTOR_FAMILY(int, int, 8, 16)
EMU_VECTOR_FAMILY(uint, unsigned int, 8, 16)
EMU_VECTOR_FAMILY(long, long, 2 * sizeof(long), 16)
EMU_VECTOR_FAMILY(ulong, unsigned long, 2 * sizeof(long), 16)
EMU_VECTOR_FAMILY(longlong, long long, 16, 16)
EMU_VECTOR_FAMILY(ulonglong, unsigned long long, 16, 16)
EMU_VECTOR_FAMILY(float, float, 8, 16)
EMU_VECTOR_FAMILY(double, double, 16, 16)

#undef EMU_VECTOR1
#undef EMU_VECTOR2
#undef EMU_VECTOR3
#undef EMU_VECTOR4
#undef EMU_VECTOR_FAMILY

/* Launch dimensions: unspecified components default to 1, as in CUDA. */
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

#endif
