/* WRONG ON PURPOSE: right answer, but computed in place in the input a.
 * Must first fail the right stage.
 * REPORT-SAYS: d_a and d_b are inputs: never
 */
#include <cuda_runtime.h>

__global__ void add(float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        a[i] += b[i];
        c[i] = a[i];
    }
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(const_cast<float *>(d_a), d_b, d_c, n);
    return cudaGetLastError();
}
