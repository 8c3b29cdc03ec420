/* WRONG ON PURPOSE: a right vector add whose entry point lost its
 * extern "C". C++ then names the function _Z10vector_add... after its
 * argument types, and the grader, which calls vector_add, would not find
 * it: the grader says so before running anything.
 * Must first fail the work stage.
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
