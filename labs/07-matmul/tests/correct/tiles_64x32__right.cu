/* CORRECT, UNUSUAL: rectangular tiles. A block of 32 x 16 threads owns a
 * 64-row x 32-column tile of C and walks along k in steps of 8: the A
 * tile is 64 x 8, the B tile 8 x 32, neither the shape of the block, so
 * every thread loads one element of each by its flat index. Thread (ty,
 * tx) computes the 4 outputs at rows ty, ty + 16, ty + 32, ty + 48 of
 * column tx: each B value read from shared memory feeds 4 FMAs. The grid
 * is 2-D, tile rows on x (up to 2^31 - 1 blocks) and tile columns on y;
 * y holds only 65535 blocks, so a block loops over every gridDim.y-th
 * tile column (the loop's bounds are the same for the whole block, so
 * every thread reaches every barrier).
 * Must pass every stage up to right. */
#include <cuda_runtime.h>

#define TM 64
#define TN 32
#define TK 8

__global__ void matmul_64x32(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TM][TK + 1];
    __shared__ float bs[TK][TN];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx; /* 512 threads */
    int row0 = blockIdx.x * TM;
    for (int col0 = blockIdx.y * TN; col0 < n; col0 += gridDim.y * TN) {
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int p0 = 0; p0 < k; p0 += TK) {
            { /* A tile: 64 x 8 = 512 elements, one per thread */
                int r = t / TK, p = t % TK;
                as[r][p] = row0 + r < m && p0 + p < k ? a[(size_t)(row0 + r) * k + p0 + p] : 0.0f;
            }
            if (t < TK * TN) { /* B tile: 8 x 32 = 256 elements */
                int p = t / TN, j = t % TN;
                bs[p][j] = p0 + p < k && col0 + j < n ? b[(size_t)(p0 + p) * n + col0 + j] : 0.0f;
            }
            __syncthreads();
            for (int p = 0; p < TK; p++) {
                float bv = bs[p][tx];
                for (int i = 0; i < 4; i++) acc[i] += as[ty + 16 * i][p] * bv;
            }
            __syncthreads();
        }
        int col = col0 + tx;
        for (int i = 0; i < 4; i++) {
            int row = row0 + ty + 16 * i;
            if (row < m && col < n) c[(size_t)row * n + col] = acc[i];
        }
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int col_tiles = (n + TN - 1) / TN;
    dim3 block(32, 16), grid((m + TM - 1) / TM, col_tiles < 65535 ? col_tiles : 65535);
    matmul_64x32<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
