// ATTACK: a raw system call from host code, around every allowlist.
// EXPECT: host code may not use inline assembly
static long raw_getpid(void) { long r; asm volatile("syscall" : "=a"(r) : "0"(39L) : "rcx", "r11", "memory"); return r; }
static long (*volatile keep)(void) = raw_getpid;
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
