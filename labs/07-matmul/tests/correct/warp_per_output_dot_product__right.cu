/* CORRECT, in an unusual way: one warp per element of C instead of one
 * thread. The 32 lanes of a warp split the dot product of row i of A with
 * column j of B along k (lane l takes p = l, l + 32, ...), so the loads
 * of A are 32 consecutive floats; then a butterfly of __shfl_xor_sync adds
 * the 32 partial sums, and lane 0 stores C[i][j]. Every lane of a warp
 * runs the same loops (the output index is the warp's, not the lane's),
 * so the full mask is always right. Warps walk C with a grid-stride loop,
 * so any m x n fits; with k == 0 every sum is 0 and is still stored. A
 * float sum in another order, which the bound allows; far too slow for the
 * fast stage (B is read down a column, 32 times over).
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void warp_dot(const float *a, const float *b, float *c, int m, int n, int k)
{
    unsigned lane = threadIdx.x % 32;
    size_t count = (size_t)m * n;
    size_t first = (size_t)blockIdx.x * WARPS + threadIdx.x / 32;
    for (size_t e = first; e < count; e += (size_t)gridDim.x * WARPS) {
        size_t i = e / n, j = e % n;
        float sum = 0.0f;
        for (int p = lane; p < k; p += 32) sum += a[i * k + p] * b[(size_t)p * n + j];
        for (int mask = 16; mask > 0; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
        if (lane == 0) c[e] = sum;
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    size_t blocks = ((size_t)m * n + WARPS - 1) / WARPS;
    if (blocks > 65536) blocks = 65536;
    warp_dot<<<(unsigned)blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
