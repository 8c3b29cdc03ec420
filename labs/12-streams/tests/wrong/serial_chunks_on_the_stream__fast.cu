/* WRONG ON PURPOSE (slow, not wrong): the baseline, the way TODO(1) has it:
 * chunks of work_elems, copy in, kernel, copy out, all on the given stream
 * with cudaMemcpyAsync. Right on every size, and one engine busy at a
 * time: about the sum of the three parts, where the bound is the largest.
 */
#include <cuda_runtime.h>

#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

__global__ static void apply_f(float *data, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = f(data[i]);
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    for (size_t at = 0; at < n; at += work_elems) {
        size_t count = n - at < work_elems ? n - at : work_elems;
        cudaError_t e = cudaMemcpyAsync(d_work, h_in + at, count * sizeof(float),
                                        cudaMemcpyHostToDevice, stream);
        if (e != cudaSuccess) return e;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, stream>>>(d_work, count);
        e = cudaMemcpyAsync(h_out + at, d_work, count * sizeof(float), cudaMemcpyDeviceToHost,
                            stream);
        if (e != cudaSuccess) return e;
    }
    return cudaGetLastError();
}
