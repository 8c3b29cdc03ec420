/* Part of the CPU emulation: cooperative groups, the block and tile part
 * (see common/emu/README.md and emu/emu_cooperative_groups.h). */
#ifndef EMU_COOPERATIVE_GROUPS_ENTRY_H
#define EMU_COOPERATIVE_GROUPS_ENTRY_H
#include "cuda_runtime.h"
#include "emu/emu_cooperative_groups.h"
#endif
