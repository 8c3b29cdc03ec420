/* WRONG ON PURPOSE: the shared-memory tiled kernel of the skeleton, but
 * when k is a multiple of 4 the A tile is loaded as float4 (a quarter of
 * the threads, one 16-byte load each) from d_a + row * k + p0 + q. The
 * check makes every row of A start a whole number of float4 after d_a,
 * but d_a itself need not be 16-byte aligned: the contract promises only
 * 4 bytes. A float4 load is one 16-byte load, and the GPU raises a
 * misaligned address fault for certain when its address is not a
 * multiple of 16. Everything else is right (zeros for the parts of a
 * partial tile outside A and B, k == 0 writes zeros, a 1-D grid of
 * tiles, scalar loads of A when k is not a multiple of 4), so every
 * output is right wherever d_a is 16-byte aligned: work's pointers are,
 * and it passes work. Right offsets d_a by 0, 4, 8 or 12 bytes; before
 * 1 x 1 x 1000 (1 x 1 x 300 in the emulation) no case loads a tile with
 * k a multiple of 4, and there d_a is 8 bytes off: the first to fail.
 * Must first fail the right stage.
 * REPORT-SAYS: a float4 access at an address that is not 16-byte aligned
 */
#include <cuda_runtime.h>

#define TILE 16

/* Block b owns the TILE x TILE tile of C at tile row b / tiles_n, tile
 * column b % tiles_n; thread (tx, ty) its output (row0 + ty, col0 + tx). */
__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k,
                             int tiles_n, bool rows_of_float4)
{
    __shared__ float a_tile[TILE][TILE]; /* a_tile[r][p]: A[row0 + r][p0 + p] */
    __shared__ float b_tile[TILE][TILE]; /* b_tile[p][j]: B[p0 + p][col0 + j] */
    int row0 = (blockIdx.x / tiles_n) * TILE, col0 = (blockIdx.x % tiles_n) * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE) {
        if (rows_of_float4) {
            /* TILE rows of TILE / 4 float4. k % 4 == 0 and q % 4 == 0: the
             * four are all inside the row of A or all outside. */
            int id = ty * TILE + tx;
            if (id < TILE * TILE / 4) {
                int r = id / (TILE / 4), q = 4 * (id % (TILE / 4));
                float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                if (row0 + r < m && p0 + q < k) /* BUG: d_a is only 4-byte aligned */
                    v = *reinterpret_cast<const float4 *>(a + (size_t)(row0 + r) * k + p0 + q);
                a_tile[r][q] = v.x;
                a_tile[r][q + 1] = v.y;
                a_tile[r][q + 2] = v.z;
                a_tile[r][q + 3] = v.w;
            }
        } else {
            a_tile[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        }
        b_tile[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads(); /* both tiles in place */
        for (int p = 0; p < TILE; p++) sum += a_tile[ty][p] * b_tile[p][tx];
        __syncthreads(); /* everyone done before the next tiles overwrite these */
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess; /* C is empty */
    int tiles_m = (m + TILE - 1) / TILE, tiles_n = (n + TILE - 1) / TILE;
    unsigned blocks = (unsigned)tiles_m * (unsigned)tiles_n;
    matmul_tiled<<<blocks, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, d_c, m, n, k, tiles_n,
                                                          k % 4 == 0);
    return cudaGetLastError();
}
