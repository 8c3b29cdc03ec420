/* cg::reduce over a thread_block_tile and its operators
 * (<cooperative_groups/reduce.h>).
 *
 * The tree is the one CUDA's headers use for a tile: a butterfly of
 * shfl_xor with lane masks Size/2, Size/4, ..., 1, each lane doing
 * out = op(out, partner's out). Float sums therefore round exactly as on a
 * GPU, and every lane ends with the same value (each step adds the same two
 * numbers on both sides, and a + b == b + a). For 32-bit integer operators
 * on tiles of 16 or 32 threads a GPU uses the redux instruction instead;
 * those operators are associative, so the result is the same. */
#ifndef EMU_COOPERATIVE_GROUPS_REDUCE_H
#define EMU_COOPERATIVE_GROUPS_REDUCE_H

#include <type_traits>

#define EMU_CG_SITE const char *file = __builtin_FILE(), int line = __builtin_LINE()

namespace cooperative_groups {

template <class T> struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less { /* the smaller, the first on a tie */
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater { /* the larger, the first on a tie */
    T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

namespace emu_detail {
template <class T> using bare = std::remove_cv_t<std::remove_reference_t<T>>;

template <class Group> struct tile_size : std::integral_constant<unsigned int, 0> {};
template <unsigned int Size, class ParentT>
struct tile_size<thread_block_tile<Size, ParentT>> : std::integral_constant<unsigned int, Size> {};

/* An operator written as a one-argument template (cg::plus<int>) must be
 * made for the value's type, as the CUDA headers insist. */
template <class Op, class Value> struct op_matches : std::true_type {};
template <template <class> class Op, class Argument, class Value>
struct op_matches<Op<Argument>, Value> : std::is_same<bare<Argument>, bare<Value>> {};
} // namespace emu_detail

template <class Group, class T, class Op>
auto reduce(const Group &group, T &&value, Op &&op, EMU_CG_SITE) -> decltype(op(value, value))
{
    using value_type = emu_detail::bare<T>;
    constexpr unsigned int size = emu_detail::tile_size<Group>::value;
    static_assert(size != 0, "This group does not exclusively represent a tile");
    static_assert(std::is_same<value_type, emu_detail::bare<decltype(op(value, value))>>::value,
                  "Operator input and output types differ");
    static_assert(emu_detail::op_matches<emu_detail::bare<Op>, T>::value, "Operator and argument types differ");
    value_type out = value;
    if constexpr (size != 0) /* else the static_assert above is the only error */
        for (unsigned int lane_mask = size / 2; lane_mask > 0; lane_mask /= 2)
            out = op(out, group.shfl_xor(out, lane_mask, file, line));
    return out;
}

} // namespace cooperative_groups

#undef EMU_CG_SITE
#endif
