// ATTACK: register a callback for the CUDA runtime's error log
// (cudaLogsRegisterCallback), then make the runner's own thread log an
// error: a kernel that faults makes the runner's next synchronisation
// fail, the log callback runs on the runner's thread, where the fence does
// not reach, and writes a made-up record to the response file. Defended:
// every runtime call that has the driver call host code later is refused
// at build, the log callback with the host functions.
// EXPECT: has the CUDA driver call host code later
#include <cuda_runtime.h>
#include <stdio.h>

static void forge(void *, cudaLogLevel, char *, size_t)
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
    static cudaLogsCallbackHandle handle;
    static int registered;
    if (!registered) registered = cudaLogsRegisterCallback(forge, NULL, &handle) == cudaSuccess;
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
