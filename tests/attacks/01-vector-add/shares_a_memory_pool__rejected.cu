// ATTACK: export a memory pool to a file descriptor another process can
// import (cudaMemPoolExportToShareableHandle), so that memory of this run
// is reachable from outside it. Defended: the calls that share memory with
// other processes are refused at build, memory pools with IPC handles.
// EXPECT: shares memory with other processes
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    cudaMemPool_t pool;
    int fd = -1;
    if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess)
        cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0);
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
