/* Part of the CPU emulation: cooperative-groups memcpy_async is not
 * emulated. It is declared so that a file using it fails to compile with
 * the mark the grader sends to a GPU (see emu/emu_cooperative_groups.h); a
 * file that only includes this header compiles. */
#ifndef EMU_COOPERATIVE_GROUPS_MEMCPY_ASYNC_ENTRY_H
#define EMU_COOPERATIVE_GROUPS_MEMCPY_ASYNC_ENTRY_H
#include "../cooperative_groups.h"

#define EMU_LACKS_CG_MEMCPY_ASYNC                                                                    \
    "CUDA_EMU_LACKS_CG_MEMCPY_ASYNC: cooperative-groups asynchronous copies (cg::memcpy_async, "      \
    "cg::wait, cg::wait_prior) need a GPU: the CPU emulation does not provide them yet"

namespace cooperative_groups {
template <class Group, class... Rest> void memcpy_async(const Group &, Rest &&...)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_MEMCPY_ASYNC);
}
template <class Group> void wait(const Group &)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_MEMCPY_ASYNC);
}
template <unsigned int Stages, class Group> void wait_prior(const Group &)
{
    static_assert(emu::unsupported<Group>::value, EMU_LACKS_CG_MEMCPY_ASYNC);
}
} // namespace cooperative_groups
#endif
