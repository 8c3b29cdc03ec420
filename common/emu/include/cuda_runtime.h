/* CPU emulation of the CUDA runtime and device built-ins (see common/emu/README.md).
 * Real CUDA code includes this header as <cuda_runtime.h>; the emulation puts
 * common/emu/include first on the include path so this one is found instead. */
#ifndef EMU_CUDA_RUNTIME_H
#define EMU_CUDA_RUNTIME_H

#ifndef CUDA_EMU
#define CUDA_EMU 1
#endif

#include "emu/emu_keywords.h"
#include "emu/emu_vector_types.h"
#include "emu/emu_runtime_api.h"
#include "emu/emu_thread.h"
#include "emu/emu_warp.h"
#include "emu/emu_atomics.h"
#include "emu/emu_intrinsics.h"
#include "emu/emu_launch.h"

#endif
