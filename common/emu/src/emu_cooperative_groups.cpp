/* Cooperative groups live in the header; only their trap needs the
 * runtime's fault report. */
#include "emu_internal.h"

#include <cooperative_groups.h>

#include <cstdio>

namespace emu {
void cooperative_groups_trap(const char *what, const char *file, int line)
{
    char detail[512];
    std::snprintf(detail, sizeof detail, "%s at %s:%d (the CUDA headers call __trap() here)", what, file, line);
    fatal_kernel_fault(cudaErrorIllegalInstruction, detail);
}
} // namespace emu
