/* Part of the CPU emulation: cooperative-groups scans are not emulated.
 * They are declared so that a file using them fails to compile with the
 * mark the grader sends to a GPU (see emu/emu_cooperative_groups.h); a file
 * that only includes this header compiles. */
#ifndef EMU_COOPERATIVE_GROUPS_SCAN_ENTRY_H
#define EMU_COOPERATIVE_GROUPS_SCAN_ENTRY_H
#include "reduce.h"

#define EMU_LACKS_CG_SCAN                                                                            \
    "CUDA_EMU_LACKS_CG_SCAN: cooperative-groups scans (cg::inclusive_scan, cg::exclusive_scan) need " \
    "a GPU: the CPU emulation does not provide them yet"

namespace cooperative_groups {
template <class Group, class T, class... Rest> std::decay_t<T> inclusive_scan(const Group &, T &&, Rest &&...)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_SCAN);
    __builtin_unreachable();
}
template <class Group, class T, class... Rest> std::decay_t<T> exclusive_scan(const Group &, T &&, Rest &&...)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_SCAN);
    __builtin_unreachable();
}
template <class Group, class... Rest> auto inclusive_scan_update(const Group &, Rest &&...)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_SCAN);
    return 0;
}
template <class Group, class... Rest> auto exclusive_scan_update(const Group &, Rest &&...)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_SCAN);
    return 0;
}
} // namespace cooperative_groups
#endif
