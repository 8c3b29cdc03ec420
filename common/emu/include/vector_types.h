/* Part of the CPU emulation: everything lives in cuda_runtime.h. */
#ifndef EMU_VECTOR_TYPES_H
#define EMU_VECTOR_TYPES_H
#include "cuda_runtime.h"
#endif
