/* WRONG ON PURPOSE: the shared tiles of A and B are loaded with a bounds
 * check that SKIPS the elements past m, n and k, "they are outside the
 * matrix, so there is nothing to load", instead of writing zeros there.
 * WMMA multiplies whole 16 x 16 x 16 blocks: in the last tile along k the
 * skipped columns of A and rows of B still hold the previous tile's values
 * (or, in the first tile, whatever shared memory held), and their products
 * are added to C. Work's sides are all multiples of 32, so no element is
 * ever skipped there; right's k = 17, 65, 31, ... are not. Everything
 * else is right (four warps per 32 x 32 tile of C, the epilogue through a
 * per-warp scratch with a bounds check).
 * Must first fail the right stage.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "cuda_check.h"

using namespace nvcuda;

#define T 32  /* a block computes a 32 x 32 tile of C, 32 along k at a time */
#define LDS 40 /* shared row length in halves: 80 bytes, a multiple of 16 */

__global__ void hgemm_tiles(const __half *a, const __half *b, float *c, int m, int n, int k)
{
    __shared__ __align__(32) __half as[T][LDS];
    __shared__ __align__(32) __half bs[T][LDS];
    __shared__ __align__(32) float cs[4][16 * 16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 2, wn = warp % 2;
    int row0 = blockIdx.x * T, col0 = blockIdx.y * T;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p0 = 0; p0 < k; p0 += T) {
        for (int t = threadIdx.x; t < T * T; t += blockDim.x) {
            int r = t / T, q = t % T;
            if (row0 + r < m && p0 + q < k) as[r][q] = a[(size_t)(row0 + r) * k + p0 + q];
            if (p0 + r < k && col0 + q < n) bs[r][q] = b[(size_t)(p0 + r) * n + col0 + q];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        for (int q = 0; q < T; q += 16) {
            wmma::load_matrix_sync(fa, &as[wm * 16][q], LDS);
            wmma::load_matrix_sync(fb, &bs[q][wn * 16], LDS);
            wmma::mma_sync(acc, fa, fb, acc);
        }
        __syncthreads();
    }
    wmma::store_matrix_sync(cs[warp], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int t = lane; t < 16 * 16; t += 32) {
        int r = row0 + wm * 16 + t / 16, q = col0 + wn * 16 + t % 16;
        if (r < m && q < n) c[(size_t)r * n + q] = cs[warp][t];
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 grid((m + T - 1) / T, (n + T - 1) / T); /* m along x: no 65535 limit there */
    hgemm_tiles<<<grid, 128, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
