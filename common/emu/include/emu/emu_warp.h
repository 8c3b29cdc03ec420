/* Warp-level primitives: shuffles, votes, __syncwarp, __activemask.
 *
 * Every call is a rendezvous of the lanes named in the mask (those that have
 * not exited): a lane waits on its fiber until the others arrive, then all of
 * them receive what the hardware would give them. */
#ifndef EMU_WARP_H
#define EMU_WARP_H

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace emu {
enum class warp_op : unsigned char {
    sync,
    shfl_idx,
    shfl_up,
    shfl_down,
    shfl_xor,
    ballot,
    all,
    any,
    reduce_add,
    reduce_min,
    reduce_max,
    reduce_and,
    reduce_or,
    reduce_xor,
    match_any
};
struct warp_request {
    warp_op op;
    unsigned int mask;
    std::uint64_t value; /* the lane's contribution, as raw bits */
    int lane_argument;   /* source lane, delta or xor mask */
    int width;
    bool is_signed;      /* for the min/max reductions */
    const char *file;
    int line;
};
std::uint64_t warp_exchange(const warp_request &request);
unsigned int warp_active_mask();

template <class T> std::uint64_t to_warp_bits(T value)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "warp shuffles take 4- or 8-byte scalar types");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return bits;
}
template <class T> T from_warp_bits(std::uint64_t bits)
{
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}
template <class T>
T shuffle(warp_op op, unsigned int mask, T value, int lane_argument, int width, const char *file, int line)
{
    warp_request request{op, mask, to_warp_bits(value), lane_argument, width, false, file, line};
    return from_warp_bits<T>(warp_exchange(request));
}
inline std::uint64_t vote(warp_op op, unsigned int mask, std::uint64_t value, bool is_signed, const char *file,
                          int line)
{
    warp_request request{op, mask, value, 0, 32, is_signed, file, line};
    return warp_exchange(request);
}
} // namespace emu

#define EMU_SITE_PARAMS const char *file = __builtin_FILE(), int line = __builtin_LINE()

template <class T> T __shfl_sync(unsigned int mask, T var, int src_lane, int width = 32, EMU_SITE_PARAMS)
{
    return emu::shuffle(emu::warp_op::shfl_idx, mask, var, src_lane, width, file, line);
}
template <class T> T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32, EMU_SITE_PARAMS)
{
    return emu::shuffle(emu::warp_op::shfl_up, mask, var, (int)delta, width, file, line);
}
template <class T> T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32, EMU_SITE_PARAMS)
{
    return emu::shuffle(emu::warp_op::shfl_down, mask, var, (int)delta, width, file, line);
}
template <class T> T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32, EMU_SITE_PARAMS)
{
    return emu::shuffle(emu::warp_op::shfl_xor, mask, var, lane_mask, width, file, line);
}

inline void __syncwarp(unsigned int mask = 0xffffffffu, EMU_SITE_PARAMS)
{
    emu::vote(emu::warp_op::sync, mask, 0, false, file, line);
}
inline unsigned int __ballot_sync(unsigned int mask, int predicate, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::ballot, mask, predicate != 0, false, file, line);
}
inline int __all_sync(unsigned int mask, int predicate, EMU_SITE_PARAMS)
{
    return (int)emu::vote(emu::warp_op::all, mask, predicate != 0, false, file, line);
}
inline int __any_sync(unsigned int mask, int predicate, EMU_SITE_PARAMS)
{
    return (int)emu::vote(emu::warp_op::any, mask, predicate != 0, false, file, line);
}
inline unsigned int __activemask() { return emu::warp_active_mask(); }

inline unsigned int __reduce_add_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_add, mask, value, false, file, line);
}
inline unsigned int __reduce_min_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_min, mask, value, false, file, line);
}
inline int __reduce_min_sync(unsigned int mask, int value, EMU_SITE_PARAMS)
{
    return (int)emu::vote(emu::warp_op::reduce_min, mask, (std::uint64_t)(std::int64_t)value, true, file, line);
}
inline unsigned int __reduce_max_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_max, mask, value, false, file, line);
}
inline int __reduce_max_sync(unsigned int mask, int value, EMU_SITE_PARAMS)
{
    return (int)emu::vote(emu::warp_op::reduce_max, mask, (std::uint64_t)(std::int64_t)value, true, file, line);
}
inline unsigned int __reduce_and_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_and, mask, value, false, file, line);
}
inline unsigned int __reduce_or_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_or, mask, value, false, file, line);
}
inline unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::reduce_xor, mask, value, false, file, line);
}
template <class T> unsigned int __match_any_sync(unsigned int mask, T value, EMU_SITE_PARAMS)
{
    return (unsigned int)emu::vote(emu::warp_op::match_any, mask, emu::to_warp_bits(value), false, file, line);
}

#undef EMU_SITE_PARAMS
#endif
