/* Part of the CPU emulation: everything lives in cuda_runtime.h. */
#ifndef EMU_CUDA_RUNTIME_API_H
#define EMU_CUDA_RUNTIME_API_H
#include "cuda_runtime.h"
#endif
