/* CORRECT, UNUSUAL: the kernel is launched through the runtime API,
 * cudaLaunchKernel, with its arguments as an array of pointers, instead of
 * <<< >>>: the same launch, on the given stream. Grid-stride loop over a
 * grid that fills the GPU. Must pass every stage.
 * EMULATION: skipped skipped: the emulation runs only kernels launched with
 * <<< >>>, so the grader sends the file to a GPU instead of failing it (exit 3)
 */
#include <cuda_runtime.h>

__global__ void add_strided(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int device, sms;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    int blocks = (n + 255) / 256;
    if (blocks > 8 * sms) blocks = 8 * sms;
    void *args[] = {(void *)&d_a, (void *)&d_b, (void *)&d_c, (void *)&n};
    return cudaLaunchKernel((const void *)add_strided, dim3(blocks), dim3(256), args, 0, stream);
}
