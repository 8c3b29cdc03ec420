// ATTACK: a GNU linemarker (# N "file" 1 3) that claims to enter a system
// header, spelled with a digraph.
// EXPECT: a #line directive
#include <cuda_runtime.h>
%: 1 "/usr/include/string.h" 1 3
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
