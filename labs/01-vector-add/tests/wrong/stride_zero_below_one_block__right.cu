/* WRONG ON PURPOSE: the grid-stride loop's stride is n rounded down to
 * whole blocks, which is 0 below one block: for n < 256 the loop never
 * advances. Every work size is a multiple of 256, so it passes work and
 * hangs in right (at n = 1), stopped by right's own time limit, which
 * starts once work's calls have ended in the same run: graded with work's
 * 30 s and a right of 10 s, it times out after 10 to 19 s, not the 40 of
 * both limits together.
 * TIME-LIMITS: 30,10
 * REPORT-SAYS: timed out after 1
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n, int stride)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + 255) / 256;
    int stride = (n / 256) * 256; /* the threads of the whole blocks */
    add<<<blocks, 256, 0, stream>>>(d_a, d_b, d_c, n, stride);
    return cudaGetLastError();
}
