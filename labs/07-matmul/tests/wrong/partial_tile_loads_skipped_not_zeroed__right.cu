/* WRONG ON PURPOSE: the 16 x 16 shared-tile kernel with its loads guarded
 * the way a bounds check usually is, "if (inside) tile = value;", with no
 * else: the slots of a partial tile that lie outside A or B are simply not
 * written, and keep whatever the shared arrays held. The product loop then
 * adds all 16 products anyway. In the last tile along k (k = 17: the
 * second tile holds one column of A and one row of B) those slots still
 * hold the previous tile's values, so stale products are added to every
 * sum; where a block's first tile is partial, it is whatever the last
 * block left there. Every work size has k a multiple of 32 and m, n
 * multiples of 128, so no tile is partial and it passes; right's k = 17,
 * 31, 33, 65 ... come out wrong. The cure is the skeleton's: store 0.0f
 * outside the matrix, so the extra products add nothing.
 * Must first fail the right stage.
 */
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * TILE + ty;
    int col = (blockIdx.x % tiles_n) * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        if (row < m && p0 + tx < k) as[ty][tx] = a[(size_t)row * k + p0 + tx];
        if (p0 + ty < k && col < n) bs[ty][tx] = b[(size_t)(p0 + ty) * n + col];
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = (n + TILE - 1) / TILE;
    unsigned blocks = (unsigned)((m + TILE - 1) / TILE) * (unsigned)tiles_n;
    matmul_tiled<<<blocks, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k, tiles_n);
    return cudaGetLastError();
}
