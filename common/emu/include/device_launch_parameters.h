/* Part of the CPU emulation: everything lives in cuda_runtime.h. */
#ifndef EMU_DEVICE_LAUNCH_PARAMETERS_H
#define EMU_DEVICE_LAUNCH_PARAMETERS_H
#include "cuda_runtime.h"
#endif
