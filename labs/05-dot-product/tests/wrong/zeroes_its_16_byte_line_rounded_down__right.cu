/* WRONG ON PURPOSE: instead of a memset, d_result is zeroed by a tiny
 * kernel with ONE float4 store ("one instruction"). A float4 store needs a
 * 16-byte aligned address and d_result is only 4-byte aligned, so the
 * store goes to d_result rounded DOWN to 16 bytes: the zeros cover the
 * 16-byte line that holds d_result. The dot product itself is right. In
 * work d_result is aligned: the line is d_result[0..3], a stray write past
 * the end that work only notes. Right offsets d_result by 12 bytes in its
 * first call (n == 0, which must still zero it): the line is then
 * d_result[-3..0], and the guard bytes in front of d_result catch it.
 * REPORT-SAYS: only d_result[0] is yours to write: a negative index, or a vector access rounded down
 */
#include <stdint.h>

#include <cuda_runtime.h>

#define T 256

/* Zero the 16-byte line that holds *result. */
__global__ void zero_line(float *result)
{
    float4 *line = (float4 *)((uintptr_t)result & ~(uintptr_t)15); /* the mistake */
    *line = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

__global__ void dot_blocks(const float *x, const float *y, int n, float *result)
{
    __shared__ float s[T];
    float v = 0.0f;
    for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) v += x[i] * y[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    zero_line<<<1, 1, 0, stream>>>(d_result);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + T - 1) / T;
    if (blocks > 1024) blocks = 1024;
    dot_blocks<<<blocks, T, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
