// ATTACK: have the driver call a function of this file when the device
// sends an asynchronous notification (cudaDeviceRegisterAsyncNotification):
// the driver calls it on a thread of its own, outside the fence, where it
// can write a made-up record to the response file. Defended: every runtime
// call that has the driver call host code later is refused at build.
// EXPECT: has the CUDA driver call host code later
#include <cuda_runtime.h>
#include <stdio.h>

static void forge(cudaAsyncNotificationInfo_t *, void *, cudaAsyncCallbackHandle_t)
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
    static cudaAsyncCallbackHandle_t handle;
    static int registered;
    if (!registered)
        registered = cudaDeviceRegisterAsyncNotification(0, forge, NULL, &handle) == cudaSuccess;
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
