/* Lab 07 - matrix multiply: C (m x n) = A (m x k) B (k x n).
 *
 * This is the only file you edit. Read labs/07-matmul/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=07
 *
 * The contract (the grader relies on it):
 *   - d_a, d_b and d_c are device pointers the grader owns. Every matrix is
 *     row-major: A[i][p] is d_a[i * k + p], B[p][j] is d_b[p * n + j],
 *     C[i][j] is d_c[i * n + j].
 *   - m, n, k >= 0, and every size must work: k == 0 means C is all zeros
 *     (write them), m == 0 or n == 0 means C is empty (write nothing).
 *   - d_c holds garbage on entry; every C[i][j] must be written.
 *   - The pointers are 4-byte aligned, not necessarily 16.
 *   - Launch on `stream`, do not synchronize, and return the launch status.
 *
 * The plan (make it work, make it right): a block of TILE x TILE threads
 * computes a TILE x TILE tile of C, one output per thread. It walks along
 * k one tile at a time: the block copies a TILE x TILE tile of A and one of
 * B into shared memory, waits, and every thread adds TILE products from
 * shared memory to its sum. Each value of A and B is then read from global
 * memory once per block instead of once per thread.
 * Making it fast is a different kernel: see "Making it fast" in the README.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define TILE 16

__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n)
{
    __shared__ float a_tile[TILE][TILE]; /* a_tile[r][p]: A[row0 + r][p0 + p] */
    __shared__ float b_tile[TILE][TILE]; /* b_tile[p][j]: B[p0 + p][col0 + j] */

    /* Which tile of C this block owns: the grid is one-dimensional (a grid's
     * x side holds 2^31 - 1 blocks, its y side only 65535), tile after
     * tile along each row of tiles. */
    int row0 = (blockIdx.x / tiles_n) * TILE;
    int col0 = (blockIdx.x % tiles_n) * TILE;

    /* TODO(1): this thread's output: row = row0 + threadIdx.y and
     *          col = col0 + threadIdx.x (threadIdx.x along a row of C, so a
     *          warp reads consecutive elements of B: coalesced). Start a sum
     *          at 0.0f. Do NOT return early when row or col is outside C:
     *          every thread must reach every __syncthreads() below. */

    /* TODO(2): walk along k, one tile at a time:
     *              for (int p0 = 0; p0 < k; p0 += TILE) { ... }
     *          (with k == 0 the loop does nothing and the sum stays 0).
     *          In the loop, each thread copies one element of each tile:
     *              a_tile[threadIdx.y][threadIdx.x] = A[row][p0 + threadIdx.x]
     *              b_tile[threadIdx.y][threadIdx.x] = B[p0 + threadIdx.y][col]
     *          A partial tile (at the bottom, the right edge, or the end of
     *          k) reaches outside the matrix: store 0.0f there instead, so
     *          that it adds nothing (check row < m and p0 + threadIdx.x < k
     *          for A, p0 + threadIdx.y < k and col < n for B). */

    /* TODO(3): still in the loop: __syncthreads(), so the whole tile is in
     *          shared memory; then add the TILE products
     *              sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x]
     *          for p = 0 .. TILE-1; then __syncthreads() again, so that no
     *          thread overwrites the tile while others still read it. */

    /* TODO(4): after the loop, store the sum to C[row][col], only if
     *          row < m and col < n. */
    (void)a;
    (void)b;
    (void)c;
    (void)m;
    (void)n;
    (void)k;
    (void)row0;
    (void)col0;
    (void)a_tile;
    (void)b_tile;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    /* TODO(5): when m == 0 or n == 0, C is empty: return cudaSuccess at once
     *          (a grid of zero blocks is an invalid launch). When k == 0 the
     *          kernel must still run: it writes the zeros. */

    /* TODO(6): one block of TILE x TILE threads per tile of C, as a 1-D grid:
     *              int tiles_m = (m + TILE - 1) / TILE, tiles_n = (n + TILE - 1) / TILE;
     *              dim3 block(TILE, TILE);
     *              matmul_tiled<<<tiles_m * tiles_n, block, 0, stream>>>(
     *                  d_a, d_b, d_c, m, n, k, tiles_n);
     *          Launch on the stream you were given. */
    (void)d_a;
    (void)d_b;
    (void)d_c;
    (void)m;
    (void)n;
    (void)k;
    (void)stream;

    /* TODO(7): return cudaGetLastError(), so that a refused launch is heard.
     *          Then read "Making it fast" in the README: shared tiles alone
     *          are far from the fast stage's threshold on a modern GPU. */
    return cudaSuccess;
}
