/* WRONG ON PURPOSE: a register tile of two outputs per thread: thread
 * (tx, ty) of a 16 x 16 block computes rows 2 ty and 2 ty + 1 of a 32 x 16
 * tile of C, at column tx, so each B value read from shared memory feeds
 * two FMAs. The tile loads are guarded (zeros outside A and B), but one
 * test, that of the first row, guards both stores: when m is odd, the
 * thread whose first row is the last row of C also stores its second row,
 * row m, which starts just past the end of C (its n values are zeros).
 * Every element of C is right. Work's m are multiples of 128, so it
 * passes; right's m = 1, 31, 33, 127, ... write one row into the guard
 * bytes behind d_c (at most n = 2051 floats, 8 KiB, on the GPU).
 * REPORT-SAYS: threads of the last partial tile must not store
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

#define TM 32 /* rows of C per block, two per thread */
#define TN 16 /* columns of C per block, one per thread */
#define TK 16 /* depth of the tiles of A and B */

__global__ void matmul_two_rows(const float *a, const float *b, float *c, int m, int n, int k,
                                int tiles_n)
{
    __shared__ float a_tile[TM][TK]; /* A[row0 + r][p0 + p] */
    __shared__ float b_tile[TK][TN]; /* B[p0 + p][col0 + j] */
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = (blockIdx.x / tiles_n) * TM, col0 = (blockIdx.x % tiles_n) * TN;
    int row = row0 + 2 * ty, col = col0 + tx; /* this thread: rows row and row + 1 */
    float sum0 = 0.0f, sum1 = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TK) {
        /* A's tile is 32 x 16: each thread loads rows ty and ty + 16. */
        for (int r = ty; r < TM; r += TN) {
            int ar = row0 + r, ap = p0 + tx;
            a_tile[r][tx] = ar < m && ap < k ? a[(size_t)ar * k + ap] : 0.0f;
        }
        int bp = p0 + ty;
        b_tile[ty][tx] = bp < k && col < n ? b[(size_t)bp * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TK; p++) {
            float bv = b_tile[p][tx];
            sum0 += a_tile[2 * ty][p] * bv;
            sum1 += a_tile[2 * ty + 1][p] * bv;
        }
        __syncthreads();
    }

    if (row < m && col < n) {
        c[(size_t)row * n + col] = sum0;
        c[(size_t)(row + 1) * n + col] = sum1; /* the mistake: row + 1 < m is not checked */
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_m = (m + TM - 1) / TM, tiles_n = (n + TN - 1) / TN;
    matmul_two_rows<<<tiles_m * tiles_n, dim3(TN, TM / 2), 0, stream>>>(d_a, d_b, d_c, m, n, k,
                                                                         tiles_n);
    return cudaGetLastError();
}
