// ATTACK: the same #line, spelled with a line splice and a comment so a
// pattern search for "#line" misses it.
// EXPECT: a #line directive
#include <cuda_runtime.h>
  # /* hidden */ li\
ne 1 "/usr/include/stdlib.h"
static void pause_cpu(void) { __asm__ volatile("pause"); }
static void (*volatile keep)(void) = pause_cpu;

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
