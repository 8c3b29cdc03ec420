/* WRONG ON PURPOSE: looks for a file of answers before computing (the kind
 * of shortcut that would let precomputed results through). Graded code may
 * not open files: the grader finds fopen in the compiled file and rejects
 * it before it runs. Must first fail the work stage.
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    FILE *cached = std::fopen("answers.bin", "rb");
    if (cached) std::fclose(cached);
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
