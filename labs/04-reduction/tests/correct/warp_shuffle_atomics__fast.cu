/* CORRECT, in an unusual way: no shared memory and no __syncthreads at
 * all. Each warp reduces its 32 lanes with shuffles and lane 0 adds the
 * warp's sum to d_out with atomicAdd (zeroed on the stream first: it holds
 * garbage on entry). The grid is kept at four 256-thread blocks per SM so
 * there are only a few thousand atomics, and each thread keeps two 16-byte
 * loads in flight. Atomics land in any order, so the last bits vary from
 * run to run; the error bound allows any order. Must pass every stage. */
#include <stdint.h>

#include <cuda_runtime.h>

#define T 256

__global__ void __launch_bounds__(T) warp_atomics(const float *in, int n, int head, float *out)
{
    int tid = blockIdx.x * T + threadIdx.x, stride = gridDim.x * T;
    float a = tid < head ? in[tid] : 0.0f, b = 0.0f;
    const float4 *in4 = reinterpret_cast<const float4 *>(in + head);
    int n4 = (n - head) / 4, i = tid;
    for (; i + stride < n4; i += 2 * stride) {
        float4 x = in4[i], y = in4[i + stride];
        a += (x.x + x.y) + (x.z + x.w);
        b += (y.x + y.y) + (y.z + y.w);
    }
    if (i < n4) {
        float4 x = in4[i];
        a += (x.x + x.y) + (x.z + x.w);
    }
    if (head + 4 * n4 + tid < n) b += in[head + 4 * n4 + tid];
    float v = a + b;
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    static int sms = 0;
    if (sms == 0) {
        int device;
        cudaError_t e = cudaGetDevice(&device);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (e != cudaSuccess) return e;
    }
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int head = (int)(((16 - ((uintptr_t)d_in & 15)) & 15) / 4);
    if (head > n) head = n;
    int blocks = ((n - head) / 4 + T - 1) / T;
    if (blocks > 4 * sms) blocks = 4 * sms;
    if (blocks < 1) blocks = 1;
    warp_atomics<<<blocks, T, 0, stream>>>(d_in, n, head, d_out);
    return cudaGetLastError();
}
