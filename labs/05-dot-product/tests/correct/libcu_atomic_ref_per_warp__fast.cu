/* CORRECT, UNUSUAL: the per-warp sums reach the result through libcu++'s
 * cuda::atomic_ref (a relaxed fetch_add at device scope, the same hardware
 * reduction as atomicAdd) instead of the atomicAdd intrinsic. A grid that
 * fills the GPU loops over the data; each warp adds its 32 sums with
 * shuffles. Must pass every stage up to fast.
 * EMULATION: skipped skipped: libcu++ is not emulated yet, so the grader
 * sends the file to a GPU instead of failing it (exit 3)
 */
#include <cuda/atomic>
#include <cuda_runtime.h>

__global__ void dot_warps(const float *__restrict__ x, const float *__restrict__ y, int n,
                          float *result)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += x[i] * y[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) {
        cuda::atomic_ref<float, cuda::thread_scope_device> total(*result);
        total.fetch_add(sum, cuda::memory_order_relaxed);
    }
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int device, sms;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    int blocks = (n + 255) / 256;
    if (blocks > 8 * sms) blocks = 8 * sms;
    dot_warps<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
