/* WRONG ON PURPOSE: launches a kernel that does nothing; d_out keeps the
 * grader's "never written" pattern.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_kernel<<<grid, dim3(32, 8), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
