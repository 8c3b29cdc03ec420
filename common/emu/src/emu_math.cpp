/* glibc's <math.h> declares __expf, __sinf, ... (its internal names) but
 * does not export them, while CUDA code calls them as fast intrinsics.  Give
 * them definitions with the accurate functions. */
#include <math.h>

extern "C" {
float __expf(float x) noexcept { return expf(x); }
float __exp10f(float x) noexcept { return exp10f(x); }
float __logf(float x) noexcept { return logf(x); }
float __log2f(float x) noexcept { return log2f(x); }
float __log10f(float x) noexcept { return log10f(x); }
float __sinf(float x) noexcept { return sinf(x); }
float __cosf(float x) noexcept { return cosf(x); }
float __tanf(float x) noexcept { return tanf(x); }
float __powf(float x, float y) noexcept { return powf(x, y); }
}
