// ATTACK: pin a page of the runner's own memory (found from this file's
// address: its data lies beside the runner's) for the GPU with
// cudaHostRegister, and leave a kernel running that writes it later, while
// the runner's thread works: a second, unfenced writer in the process.
// Defended: cudaHostRegister is refused at build (cudaMallocHost gives
// pinned memory of one's own).
// EXPECT: lets the GPU write host memory that is not yours
#include <cuda_runtime.h>
#include <stdint.h>

static int beside_the_runner;

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    void *page = (void *)((uintptr_t)&beside_the_runner & ~(uintptr_t)4095);
    cudaHostRegister(page, 4096, cudaHostRegisterMapped);
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
