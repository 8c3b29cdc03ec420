/* WRONG ON PURPOSE: the right answer, then x[i] is "tidied up" to 0: the
 * input belongs to the grader. Must first fail the right stage: work does
 * not look at the inputs after the call, right does.
 * REPORT-SAYS: d_x is an input: never write
 *
 * Written by `make new-lab` for the placeholder problem. TODO(author):
 * every lab has a file that writes an input and names its hint. */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = 2.0f * x[i] + 1.0f;
        x[i] = 0.0f;
    }
}

extern "C" cudaError_t conv2d(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    conv2d_kernel<<<(n + 255) / 256, 256, 0, stream>>>((float *)d_x, d_y, n);
    return cudaGetLastError();
}
