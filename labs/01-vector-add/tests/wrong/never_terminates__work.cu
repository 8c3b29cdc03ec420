/* WRONG ON PURPOSE: a grid-stride loop that forgets to advance: it never ends.
 * Must first fail the work stage, at work's time limit (5 s in the tests),
 * with the lab's hint for a hang.
 * TIME-LIMITS: 5,10
 * REPORT-SAYS: does every loop's index move towards its end?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) c[i] = a[i] + b[i]; /* i never changes */
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
