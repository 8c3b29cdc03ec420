/* Force-included (g++ -include) into every .cu compiled for CPU emulation.
 *
 * It marks the build as emulated, pulls in the standard headers that CUDA
 * code takes for granted *before* the CUDA keyword macros exist (libstdc++
 * spells some attributes __noinline__, which our macro would break), and then
 * provides the CUDA runtime API and device built-ins. */
#ifndef CUDA_EMU_H
#define CUDA_EMU_H

#define CUDA_EMU 1

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "include/cuda_runtime.h"

#endif
