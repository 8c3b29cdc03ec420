// ATTACK: a weak definition of the runner's own response writer, hoping the
// linker picks it and lets the file append made-up records.
// EXPECT: is a weak definition
#include <stddef.h>
typedef int proto_rec_kind;
__attribute__((weak)) void rsp_write(proto_rec_kind, int, const void *, size_t, const void *, size_t) {}
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
