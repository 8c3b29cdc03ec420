/* WRONG ON PURPOSE: the lecture slides' shared-tile kernel as written for sizes
 * that are multiples of the tile: no bounds checks at all. On the work
 * sizes (multiples of 128, k of 32) every tile is whole and the answer is
 * right; on 31 x 33 x 17 the tiles reach past the ends of A and B (reads
 * out of bounds, wrong terms in the sums) and the last block stores past
 * the end of C.
 * Must first fail the right stage. */
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_tiled(const float *a, const float *b, float *c, int n, int k,
                             int tiles_n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * TILE + ty, col = (blockIdx.x % tiles_n) * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = a[row * k + p0 + tx];
        bs[ty][tx] = b[(p0 + ty) * n + col];
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    c[row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = (n + TILE - 1) / TILE;
    matmul_tiled<<<((m + TILE - 1) / TILE) * tiles_n, dim3(TILE, TILE), 0, stream>>>(
        d_a, d_b, d_c, n, k, tiles_n);
    return cudaGetLastError();
}
