/* Part of the CPU emulation (see common/emu/README.md): tensor-core WMMA,
 * nvcuda::wmma, for the shape 16 x 16 x 16 with __half inputs and a float
 * or __half accumulator.
 *
 * Warp-wide, as on the GPU: load_matrix_sync, mma_sync and
 * store_matrix_sync wait at their start until every lane of the warp that
 * has not exited arrives (a __syncwarp), so a tile stored by another warp
 * without a __syncthreads() in between is not seen, as on the GPU.
 * The pointer must be 32-byte aligned and ldm a multiple of 16 bytes (8
 * halves, 4 floats), as the CUDA Programming Guide requires; anything else
 * traps at the call, where the GPU's behaviour is undefined.
 *
 * Where the elements live is the emulation's own (the GPU's is not
 * published and differs): every lane keeps the whole 16 x 16 tile of a
 * matrix_a or matrix_b fragment (num_elements 256, x[r * 16 + c] for row r
 * and column c of the tile), and lane l keeps 8 elements of an accumulator,
 * row l / 2, columns 8 (l % 2) to 8 (l % 2) + 7 (num_elements 8). A kernel
 * that touches x[i] only to do the same thing to every element is right on
 * both; one that relies on the GPU's mapping is not portable.
 *
 * The arithmetic is what a tensor core is allowed to do (Fasi, Higham,
 * Mikaitis and Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ
 * Computer Science 7:e330, 2021): the products of halves are exact; every 4
 * of them along k and the accumulator are aligned to the largest of the
 * five, cut to 24 bits below its leading bit (truncated, not rounded),
 * added exactly, and the sum truncated to float. That is the least
 * accurate of the published models (the V100's; later GPUs keep more bits
 * or add more products at once), so a tolerance that passes here holds on
 * the GPU. A __half accumulator is the float result rounded to nearest. */
#ifndef EMU_MMA_H
#define EMU_MMA_H

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "cuda_fp16.h"
#include "cuda_runtime.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
/* The element types of the shapes the emulation lacks, declared so that a
 * fragment of them reaches the static_assert below (whose mark sends the
 * file to a GPU) instead of failing to parse. */
namespace precision {
struct tf32 {};
struct b1 {};
struct s4 {};
struct u4 {};
} // namespace precision
float __float_to_tf32(float in);

namespace detail {
template <class T> struct always_false : std::false_type {};

inline void sync_lanes(const char *file, int line)
{
    emu::vote(emu::warp_op::sync, 0xffffffffu, 0, false, file, line);
}
[[noreturn]] inline void misuse(const char *what, const char *file, int line)
{
    std::fprintf(stderr, "%s:%d: %s\n", file, line, what);
    emu::kernel_trap(file, line);
}
inline void check_access(const void *p, unsigned ldm, unsigned elem, const char *file, int line)
{
    if ((std::uintptr_t)p % 32 != 0)
        misuse("wmma load/store: the pointer is not 32-byte (256-bit) aligned", file, line);
    if (ldm * elem % 16 != 0)
        misuse("wmma load/store: ldm is not a multiple of 16 bytes (8 halves or 4 floats)", file,
               line);
}
inline unsigned lane() { return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32; }
/* Where element i of this lane's accumulator fragment lives in a 16 x 16
 * tile with leading dimension ldm: lane l holds row l / 2, columns
 * (l % 2) * 8 to (l % 2) * 8 + 7 (the emulation's own mapping). */
inline size_t accumulator_offset(unsigned i, unsigned ldm, layout_t layout)
{
    unsigned l = lane(), r = l / 2, c = (l % 2) * 8 + i;
    return layout == mem_row_major ? (size_t)r * ldm + c : (size_t)c * ldm + r;
}

/* One block of the tensor core's sum: acc and up to four exact products,
 * aligned to the largest, truncated to 24 bits below its leading bit,
 * added exactly, the sum truncated to float. */
inline float block_sum(float acc, const double *products, int n)
{
    double terms[5];
    int count = 0;
    terms[count++] = acc;
    for (int i = 0; i < n; i++) terms[count++] = products[i];
    double plain = 0, biggest = 0;
    for (int i = 0; i < count; i++) {
        plain += terms[i];
        biggest = std::fmax(biggest, std::fabs(terms[i]));
    }
    if (!std::isfinite(plain) || biggest == 0) return (float)plain;
    int unit = std::ilogb(biggest) - 23; /* the last bit kept */
    double sum = 0;
    for (int i = 0; i < count; i++) sum += std::ldexp(std::trunc(std::ldexp(terms[i], -unit)), unit);
    float r = (float)sum;
    if (std::fabs((double)r) > std::fabs(sum)) r = std::nextafter(r, 0.0f);
    return r;
}
} // namespace detail

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
    static_assert(detail::always_false<T>::value,
                  "CUDA_EMU_LACKS_WMMA_SHAPE: the emulation has WMMA fragments of 16 x 16 x 16 "
                  "only, __half for matrix_a and matrix_b, float or __half for the accumulator");
};

template <class Use, class Layout> struct input_fragment {
    typedef __half element_type;
    typedef __half storage_element_type;
    enum { num_elements = 256 };
    __half x[256];
};
template <class T> struct accumulator_fragment {
    typedef T element_type;
    typedef T storage_element_type;
    enum { num_elements = 8 };
    T x[8];
};

template <class Layout>
class fragment<matrix_a, 16, 16, 16, __half, Layout> : public input_fragment<matrix_a, Layout> {
    static_assert(std::is_same<Layout, row_major>::value || std::is_same<Layout, col_major>::value,
                  "matrix_a fragments take row_major or col_major");
};
template <class Layout>
class fragment<matrix_b, 16, 16, 16, __half, Layout> : public input_fragment<matrix_b, Layout> {
    static_assert(std::is_same<Layout, row_major>::value || std::is_same<Layout, col_major>::value,
                  "matrix_b fragments take row_major or col_major");
};
template <> class fragment<accumulator, 16, 16, 16, float, void> : public accumulator_fragment<float> {};
template <> class fragment<accumulator, 16, 16, 16, __half, void> : public accumulator_fragment<__half> {};

template <class Use, class Layout, class V>
inline void fill_fragment(input_fragment<Use, Layout> &f, const V &v)
{
    for (int i = 0; i < 256; i++) f.x[i] = __half((float)v);
}
template <class T, class V> inline void fill_fragment(accumulator_fragment<T> &f, const V &v)
{
    for (int i = 0; i < 8; i++) f.x[i] = T((float)v);
}

/* matrix_a (16 x 16, rows m, columns k) or matrix_b (rows k, columns n):
 * element (r, c) of the tile at p[r * ldm + c] (row_major) or
 * p[c * ldm + r] (col_major). */
template <class Use, class Layout>
inline void load_matrix_sync(input_fragment<Use, Layout> &f, const __half *p, unsigned ldm,
                             const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    detail::sync_lanes(file, line);
    detail::check_access(p, ldm, 2, file, line);
    bool row = std::is_same<Layout, row_major>::value;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            f.x[r * 16 + c] = row ? p[(size_t)r * ldm + c] : p[(size_t)c * ldm + r];
}

template <class T>
inline void load_matrix_sync(accumulator_fragment<T> &f, const T *p, unsigned ldm, layout_t layout,
                             const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    detail::sync_lanes(file, line);
    detail::check_access(p, ldm, sizeof(T), file, line);
    for (unsigned i = 0; i < 8; i++) f.x[i] = p[detail::accumulator_offset(i, ldm, layout)];
}

template <class T>
inline void store_matrix_sync(T *p, const accumulator_fragment<T> &f, unsigned ldm, layout_t layout,
                              const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    detail::sync_lanes(file, line);
    detail::check_access(p, ldm, sizeof(T), file, line);
    for (unsigned i = 0; i < 8; i++) p[detail::accumulator_offset(i, ldm, layout)] = f.x[i];
}

/* d = a b + c; d may be c. */
template <class LA, class LB, class TD, class TC>
inline void mma_sync(accumulator_fragment<TD> &d, const input_fragment<matrix_a, LA> &a,
                     const input_fragment<matrix_b, LB> &b, const accumulator_fragment<TC> &c,
                     const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    detail::sync_lanes(file, line);
    unsigned l = detail::lane(), r = l / 2;
    TD out[8];
    for (unsigned i = 0; i < 8; i++) {
        unsigned col = (l % 2) * 8 + i;
        float acc = (float)c.x[i];
        for (int k0 = 0; k0 < 16; k0 += 4) {
            double products[4];
            for (int k = 0; k < 4; k++)
                products[k] = (double)(float)a.x[r * 16 + k0 + k] * (double)(float)b.x[(k0 + k) * 16 + col];
            acc = detail::block_sum(acc, products, 4);
        }
        out[i] = TD(acc);
    }
    for (unsigned i = 0; i < 8; i++) d.x[i] = out[i];
}

} // namespace wmma
} // namespace nvcuda

#endif
