// ATTACK: include the reference solution through common/ on the include path
// (common/../labs/NN-name/solution/...).
// EXPECT: which is outside what a submission may include
#define vector_add reference_vector_add
#include "../labs/01-vector-add/solution/vector_add.cu"
#undef vector_add
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
