// ATTACK: CUB inside a namespace of one's own (CUB_WRAPPED_NAMESPACE), so its
// symbols start with "sneaky::cub::" and a check for names starting with
// "cub::" misses them. Defended twice: the file includes CUB's headers, and
// its symbols contain ::cub:: anyway.
// EXPECT: from CUB: this lab forbids it
#define CUB_WRAPPED_NAMESPACE sneaky
#include <cub/cub.cuh>
#include <cuda_runtime.h>

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    size_t bytes = (size_t)(n + 1024) * sizeof(float);
    return sneaky::cub::DeviceReduce::Sum(d_scratch, bytes, d_in, d_out, n, stream);
}
