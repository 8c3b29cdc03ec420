/* WRONG ON PURPOSE: four elements per thread, read and written as float4
 * through d_x and d_y as given (the last n % 4 one by one), as if the
 * pointers were 16-byte aligned. The values are right and work's pointers
 * are aligned, so it passes work; the contract promises only 4 bytes, and
 * right offsets the pointers by 4, 8 or 12 bytes: a 16-byte access there
 * faults on the GPU every time (misaligned address).
 * Must first fail the right stage.
 * REPORT-SAYS: float4 access on a pointer that is not 16-byte aligned
 */
#include <cuda_runtime.h>

__global__ void @ENTRY@_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = reinterpret_cast<const float4 *>(x)[i];
        v.x = 2.0f * v.x + 1.0f;
        v.y = 2.0f * v.y + 1.0f;
        v.z = 2.0f * v.z + 1.0f;
        v.w = 2.0f * v.w + 1.0f;
        reinterpret_cast<float4 *>(y)[i] = v;
    }
    int tail = n / 4 * 4 + i;
    if (i < n % 4) y[tail] = 2.0f * x[tail] + 1.0f;
}

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int per_block = 256 * 4;
    @ENTRY@_kernel<<<(n + per_block - 1) / per_block, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
