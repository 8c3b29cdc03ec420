/* WRONG ON PURPOSE: a good register-tiled kernel (64 x 64 tiles, 4 x 4
 * outputs per thread), launched without a stream argument, so on the
 * legacy default stream instead of the one it is given. The work and right
 * stages wait for the whole device after each call, so the answers are
 * right there; the timing's events on the grader's (non-blocking) stream
 * see no work at all between them.
 * Must first fail the fast stage: the GPU is still busy after the timed
 * stream is done. */
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16

__global__ void __launch_bounds__(256)
matmul_rt64(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
            int m, int n, int k, int tiles_n)
{
    __shared__ float as[BK][BM + 1]; /* as[p][r] = A[row0 + r][p0 + p] */
    __shared__ float bs[BK][BN];     /* bs[p][j] = B[p0 + p][col0 + j] */
    int t = threadIdx.y * 16 + threadIdx.x, tx = threadIdx.x, ty = threadIdx.y;
    int row0 = (blockIdx.x / tiles_n) * BM, col0 = (blockIdx.x % tiles_n) * BN;
    float acc[4][4] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
#pragma unroll
        for (int r = 0; r < 4; r++) {
            int e = t + 256 * r;
            int ar = e / BK, ap = e % BK; /* A tile: 64 rows of 16 */
            int bp = e / BN, bc = e % BN; /* B tile: 16 rows of 64 */
            as[ap][ar] = row0 + ar < m && p0 + ap < k ? a[(size_t)(row0 + ar) * k + p0 + ap] : 0.0f;
            bs[bp][bc] = p0 + bp < k && col0 + bc < n ? b[(size_t)(p0 + bp) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float av[4], bv[4];
#pragma unroll
            for (int i = 0; i < 4; i++) av[i] = as[p][ty + 16 * i];
#pragma unroll
            for (int j = 0; j < 4; j++) bv[j] = bs[p][tx + 16 * j];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            int row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (row < m && col < n) c[(size_t)row * n + col] = acc[i][j];
        }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = (n + BN - 1) / BN;
    unsigned blocks = (unsigned)((m + BM - 1) / BM) * (unsigned)tiles_n;
    (void)stream; /* the bug: the launch below goes to the legacy default stream */
    matmul_rt64<<<blocks, dim3(16, 16)>>>(d_a, d_b, d_c, m, n, k, tiles_n);
    return cudaGetLastError();
}
