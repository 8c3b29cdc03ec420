/* Force-included (g++ -include) into every .cu compiled for CPU emulation.
 *
 * It marks the build as emulated, pulls in the standard headers that CUDA
 * code takes for granted *before* the CUDA keyword macros exist (libstdc++
 * spells some attributes __noinline__, which our macro would break), and then
 * provides the CUDA runtime API and device built-ins. */
#ifndef CUDA_EMU_H
#define CUDA_EMU_H

#define CUDA_EMU 1

/* Newer libstdc++ versions spell [[__gnu__::__noinline__]] in more headers
 * (GCC 13 in <string> and friends), so every standard header a CUDA program
 * is likely to include comes first. */
#include <algorithm>
#include <array>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <math.h> /* isnan, isfinite, ... in the global namespace, as nvcc has them */
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "include/cuda_runtime.h"

#endif
