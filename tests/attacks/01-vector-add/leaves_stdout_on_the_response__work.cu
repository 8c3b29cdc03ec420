// ATTACK: point the C library's stdout at the runner's response file and
// leave it there, so that whatever the grader's own thread prints next (the
// CUDA driver writes a kernel's printf through stdout when someone
// synchronises) lands among its records. Defended: the runner checks
// stdout and stderr after every call.
// EXPECT: changed the C library's stdout or stderr
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    fflush(stdout);
    stdout->_fileno = 3;
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
