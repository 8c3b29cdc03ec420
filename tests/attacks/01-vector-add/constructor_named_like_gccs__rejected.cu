// ATTACK: a constructor with a C name that starts like the host compiler's
// own static initialiser (_GLOBAL__sub_I_), which the CPU emulation allows.
// EXPECT: _GLOBAL__ names are the compiler's own
extern "C" {
static void _GLOBAL__sub_I_fake(void) __attribute__((constructor, used));
}
static volatile int touched;
extern "C" void _GLOBAL__sub_I_fake(void) { touched = 1; }
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
