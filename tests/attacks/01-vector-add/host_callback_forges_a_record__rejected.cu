// ATTACK: queue a host function on the stream (cudaLaunchHostFunc): the
// CUDA driver calls it later on a thread of its own, outside the fence
// that keeps graded code from the response file, and it writes a made-up
// record there. Defended: the symbol rules refuse every runtime call that
// has the driver call host code later.
// EXPECT: has the CUDA driver call host code later
#include <cuda_runtime.h>
#include <stdio.h>

static void forge(void *)
{
    fflush(stdout);
    stdout->_fileno = 3;
    printf("LAB1");
    fflush(stdout);
}

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    cudaLaunchHostFunc(stream, forge, NULL);
    return cudaGetLastError();
}
