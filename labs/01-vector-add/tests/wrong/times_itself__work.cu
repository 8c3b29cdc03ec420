/* WRONG ON PURPOSE: reads the host clock around its launch (e.g. to decide
 * whether to do less work when it is being timed). Graded code may not read
 * clocks: the grader finds clock_gettime (behind std::chrono) in the
 * compiled file and rejects it before it runs. Must first fail the work stage.
 */
#include <chrono>
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    static auto first_call = std::chrono::steady_clock::now();
    (void)first_call;
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
