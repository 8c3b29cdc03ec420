/* WRONG ON PURPOSE: each thread computes four neighbouring outputs of a
 * row, reading B and writing C as float4, with no check that this is
 * allowed. A float4 access needs a 16-byte aligned address; the rows of B
 * and C start aligned only if the pointers are 16-byte aligned and n is a
 * multiple of 4. Both hold on every work size (cudaMalloc'd buffers, n a
 * multiple of 128); the right stage's pointers are offset by 4, 8 or 12
 * bytes and n = 1, 31, 33, 127, ... : misaligned address, or outputs left
 * unwritten and written past the row's end.
 * Must first fail the right stage. */
#include <cuda_runtime.h>

__global__ void matmul_vec4(const float *a, const float *b, float *c, int m, int n, int k)
{
    int c4 = blockIdx.x * blockDim.x + threadIdx.x; /* outputs 4*c4 .. 4*c4+3 */
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || 4 * c4 >= n) return;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int p = 0; p < k; p++) {
        float av = a[(size_t)row * k + p];
        float4 bv = reinterpret_cast<const float4 *>(b + (size_t)p * n)[c4];
        sum.x += av * bv.x;
        sum.y += av * bv.y;
        sum.z += av * bv.z;
        sum.w += av * bv.w;
    }
    reinterpret_cast<float4 *>(c + (size_t)row * n)[c4] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int quads = (n + 3) / 4;
    dim3 block(32, 8), grid((quads + 31) / 32, (m + 7) / 8);
    if (grid.y > 65535) grid.y = 65535; /* (rows past that are another bug) */
    matmul_vec4<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
