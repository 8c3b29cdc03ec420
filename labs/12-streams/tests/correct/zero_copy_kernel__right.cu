/* CORRECT, UNUSUAL: zero-copy. No copies and no use of d_work: one kernel
 * on the given stream reads h_in and writes h_out across the host link
 * itself (pinned memory is mapped for the GPU at the same address, on
 * every 64-bit system with unified addressing). Legal and right; how fast
 * depends on how many small reads across PCIe the warps keep in flight
 * (the ladder's v7 has the figure), so it only claims right.
 */
#include <cuda_runtime.h>

#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

/* A grid-stride loop: any n, however large, with a grid of at most 65535
 * blocks. */
__global__ static void apply_f_mapped(const float *in, float *out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = f(in[i]);
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    (void)d_work;
    (void)work_elems;
    if (n == 0) return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    apply_f_mapped<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, stream>>>(h_in, h_out,
                                                                                   n);
    return cudaGetLastError();
}
