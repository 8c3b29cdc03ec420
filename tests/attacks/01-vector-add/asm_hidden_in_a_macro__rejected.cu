// ATTACK: the asm keyword spelled by a macro, so a search of the source for
// 'asm' finds nothing.
// EXPECT: host code may not use inline assembly
#define KEYWORD __as ## m__
#define GLUE(a) a
#define NOTHING(x) GLUE(__asm__)(x)
static void pause_cpu(void) { NOTHING("pause"); }
static void (*volatile keep)(void) = pause_cpu;
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
