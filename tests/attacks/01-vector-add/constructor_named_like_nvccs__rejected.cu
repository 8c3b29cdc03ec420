// ATTACK: a constructor whose name contains that of nvcc's own registration
// function (__sti____cudaRegisterAll), hoping a check that looks for that name
// inside the constructor's lets it through.
// EXPECT: has a constructor
static void fake__sti____cudaRegisterAll(void) __attribute__((constructor, used));
static volatile int touched;
static void fake__sti____cudaRegisterAll(void) { touched = 1; }
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
