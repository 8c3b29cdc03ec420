/* WRONG ON PURPOSE: float4 loads that assume 16-byte aligned pointers and n a multiple of 4.
 * Must first fail the right stage.
 * REPORT-SAYS: float4 access on a pointer that is not 16-byte aligned
 */
#include <cuda_runtime.h>

__global__ void add(const float4 *a, const float4 *b, float4 *c, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    int n4 = (n + 3) / 4;
    if (n4 == 0) return cudaSuccess;
    add<<<(n4 + 255) / 256, 256, 0, stream>>>((const float4 *)d_a, (const float4 *)d_b,
                                              (float4 *)d_c, n4);
    return cudaGetLastError();
}
