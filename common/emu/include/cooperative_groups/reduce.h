/* Part of the CPU emulation: cg::reduce and its operators (see
 * emu/emu_cooperative_groups_reduce.h). */
#ifndef EMU_COOPERATIVE_GROUPS_REDUCE_ENTRY_H
#define EMU_COOPERATIVE_GROUPS_REDUCE_ENTRY_H
#include "../cooperative_groups.h"
#include "../emu/emu_cooperative_groups_reduce.h"
#endif
