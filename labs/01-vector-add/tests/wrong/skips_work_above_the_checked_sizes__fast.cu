/* WRONG ON PURPOSE: right at every size the grader checks on the CPU, lazy
 * above them. A student who has read the lab's spec knows that work, right
 * and the fast stage's re-check never go beyond a few million elements,
 * while the timed calls add 2^26: above 2^24 elements this file adds only
 * the first half and leaves the rest alone, and is timed at half the cost.
 * Every timed call is compared, element by element, with the baseline's
 * answer on the same inputs; the half never written still holds the
 * grader's poison, and the stage fails with "the timed calls computed a
 * wrong answer".
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    int todo = n > (1 << 24) ? n / 2 : n;
    if (todo == 0) return cudaSuccess;
    add<<<(todo + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, todo);
    return cudaGetLastError();
}
