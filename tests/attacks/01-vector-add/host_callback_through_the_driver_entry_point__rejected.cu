// ATTACK: the runtime's cudaLaunchHostFunc is refused at build, so ask the
// runtime for the driver's own cuLaunchHostFunc (cudaGetDriverEntryPoint
// hands out a pointer to any driver call by its name, past every symbol
// rule) and queue a host function with it: the driver calls it on a
// thread of its own, outside the fence, and it writes a made-up record to
// the response file. Defended: the calls that hand out the driver's
// functions are refused at build, like the host callbacks themselves.
// EXPECT: hands out the CUDA driver's own calls
#include <cuda_runtime.h>
#include <stdio.h>

typedef int (*launch_host_func)(cudaStream_t, void (*)(void *), void *);

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
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuLaunchHostFunc", &fn, 12000, cudaEnableDefault,
                                         &found) == cudaSuccess && fn)
        ((launch_host_func)fn)(stream, forge, NULL);
    return cudaGetLastError();
}
