/* CORRECT, UNUSUAL: one stream (the given one), cudaMemcpyAsync only, and
 * chunks of uneven size: 1 element, then 2, 4, 8, ... up to the whole of
 * d_work, then whatever is left. No overlap at all, so slow; but every
 * chunk is in order on one stream, so right on every size.
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
    size_t chunk = 1;
    for (size_t at = 0; at < n; at += chunk, chunk *= 2) {
        if (chunk > work_elems) chunk = work_elems;
        size_t count = n - at < chunk ? n - at : chunk;
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
