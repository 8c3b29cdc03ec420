/* WRONG ON PURPOSE: a race on shared memory. Each block reduces one tile of
 * 256 products per loop iteration in the same shared array. After the last
 * barrier of the tree, warp 0 still reads partial[32..63] (written by warp
 * 1) while warp 1 may already be in the next iteration, overwriting them:
 * a __syncthreads() is missing before the array is refilled. On the GPU
 * warp 1 must first wait hundreds of cycles for its next loads, so the
 * result is almost always right; compute-sanitizer racecheck reports the
 * write-after-read hazard on every run (the sanitize size 300007 makes each
 * block go round more than once).
 * Must first fail the right stage.
 * EMULATION: fail skipped: the emulator runs each thread up to its next barrier, so the missing one corrupts the sum at once; on a GPU memory latency hides it until racecheck
 * SMALLEST: the race needs several tiles of a block's 256 threads in flight
 */
#include <cuda_runtime.h>

__global__ void dot_kernel(const float *x, const float *y, int n, float *result)
{
    __shared__ float partial[256];
    float block_sum = 0.0f; /* kept by thread 0 */
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        int i = base + threadIdx.x;
        /* missing: __syncthreads(); the previous tile may still be read */
        partial[threadIdx.x] = i < n ? x[i] * y[i] : 0.0f;
        __syncthreads();
        for (int half = blockDim.x / 2; half > 32; half /= 2) {
            if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
            __syncthreads();
        }
        if (threadIdx.x < 32) { /* the last warp: 64 values -> 1 */
            float v = partial[threadIdx.x] + partial[threadIdx.x + 32];
            for (int offset = 16; offset > 0; offset /= 2)
                v += __shfl_down_sync(0xffffffffu, v, offset);
            if (threadIdx.x == 0) block_sum += v;
        }
    }
    if (threadIdx.x == 0) atomicAdd(result, block_sum);
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
    if (blocks > 4 * sms) blocks = 4 * sms;
    dot_kernel<<<blocks, 256, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
