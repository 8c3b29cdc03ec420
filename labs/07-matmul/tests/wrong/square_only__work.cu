/* WRONG ON PURPOSE: written and tested on square matrices only, the kernel
 * takes one size for everything: the grid covers m x m outputs, and m is
 * used as the row length of B and C too. Right when m == n == k, wrong
 * (and partly unwritten, or written past) on any rectangular size.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_square(const float *a, const float *b, float *c, int size)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float sum = 0.0f;
    for (int p0 = 0; p0 < size; p0 += TILE) {
        as[threadIdx.y][threadIdx.x] =
            row < size && p0 + threadIdx.x < size ? a[row * size + p0 + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] =
            p0 + threadIdx.y < size && col < size ? b[(p0 + threadIdx.y) * size + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE; p++) sum += as[threadIdx.y][p] * bs[p][threadIdx.x];
        __syncthreads();
    }
    if (row < size && col < size) c[row * size + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    (void)n;
    (void)k;
    if (m == 0) return cudaSuccess;
    dim3 block(TILE, TILE), grid((m + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_square<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m);
    return cudaGetLastError();
}
