// ATTACK: a #line directive makes the next lines appear to come from a system
// header, so a check that trusts line markers skips their asm.
// EXPECT: a #line directive
#line 1 "/usr/include/stdio.h"
static void pause_cpu(void) { __asm__ volatile("pause"); }
static void (*volatile keep)(void) = pause_cpu;
#line 20 "incognito.cu"
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
