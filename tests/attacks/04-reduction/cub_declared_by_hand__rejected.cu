// ATTACK: call CUB without including it: declare the one function by hand,
// inside a namespace of one's own, and let the linker find it. Defended: a
// symbol with ::cub:: anywhere in its name is CUB's.
// EXPECT: uses CUB
#include <cuda_runtime.h>

namespace sneaky {
namespace cub {
struct DeviceReduce {
    static cudaError_t Sum(void *temp, size_t &bytes, const float *in, float *out, int n,
                           cudaStream_t stream);
};
} // namespace cub
} // namespace sneaky

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    size_t bytes = (size_t)(n + 1024) * sizeof(float);
    return sneaky::cub::DeviceReduce::Sum(d_scratch, bytes, d_in, d_out, n, stream);
}
