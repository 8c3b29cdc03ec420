/* CORRECT, in an unusual way: float4 only when all three pointers are 16-byte aligned, else scalar; 1024-thread blocks.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void add4(const float4 *a, const float4 *b, float4 *c, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

__global__ void add1(const float *a, const float *b, float *c, int from, int n)
{
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    bool aligned = (((uintptr_t)d_a | (uintptr_t)d_b | (uintptr_t)d_c) & 15) == 0;
    int n4 = aligned ? n / 4 : 0;
    if (n4 > 0)
        add4<<<(n4 + 1023) / 1024, 1024, 0, stream>>>((const float4 *)d_a, (const float4 *)d_b,
                                                     (float4 *)d_c, n4);
    int rest = n - 4 * n4;
    if (rest > 0) add1<<<(rest + 1023) / 1024, 1024, 0, stream>>>(d_a, d_b, d_c, 4 * n4, n);
    return cudaGetLastError();
}
