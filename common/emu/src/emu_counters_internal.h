/* The counters' side of the launch loop and of the access hooks
 * (emu_counters.cpp). */
#ifndef EMU_COUNTERS_INTERNAL_H
#define EMU_COUNTERS_INTERNAL_H

#include <cstddef>
#include <cstdint>

#include "emu/emu_counters.h"
#include "emu_internal.h"

namespace emu {

extern bool counting; /* counters_start was called */

void counters_launch(dim3 grid, dim3 block);
/* Whether the next block of this launch is to be run (counters_start's limit). */
bool counters_block_wanted();
void counters_block_begin();
void counters_barrier();
void counters_block_end(unsigned int threads);
/* One load or store of the running thread at the instruction `pc`. */
void counters_access(const void *address, std::size_t size, bool store, std::uint64_t pc);

} // namespace emu

#endif
