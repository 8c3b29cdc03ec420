// ATTACK: no raw system call at all: point the C library's stdout at the
// runner's response file (the first file it opens, descriptor 3) and
// fwrite a made-up record through it. Defended: lab functions run on a
// fenced thread that may not write to the response file (the write is
// stopped); the runner writes its records with raw descriptors, and checks
// stdout and stderr after every call.
// EXPECT: which touches the grader's response file
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* A made-up record in the runner's format (grader/protocol.h): a fatal
 * one would do; any bytes there are a forgery. */
static const unsigned FORGED[4] = {0x4c414231u, 4, -1u, 0};

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    fflush(stdout);
    int saved = stdout->_fileno;
    stdout->_fileno = 3;
    fwrite(FORGED, sizeof FORGED, 1, stdout);
    fflush(stdout);
    stdout->_fileno = saved;
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
