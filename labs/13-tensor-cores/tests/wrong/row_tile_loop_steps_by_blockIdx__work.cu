/* WRONG ON PURPOSE: the loop over row tiles of C (for C taller than
 * 65535 tiles, the grid's y limit) steps by blockIdx.y where gridDim.y
 * was meant. The blocks of grid row 0 step by 0: they compute and store
 * tile row 0 for ever (loads, both barriers, mma_sync and the epilogue's
 * stores every pass; every thread of the block the same way, so no
 * barrier waits on anything). Grid row 0 exists in every launch, so the
 * first work call (128 x 128 x 128) hangs, on every GPU.
 * Everything else is right: zeros in the tails of the tiles, four warps
 * per 32 x 32 tile, the epilogue through a per-warp scratch, guarded.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every tile loop advance
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define T 32   /* a block computes a 32 x 32 tile of C, 32 along k at a time */
#define LDS 40 /* shared row length in halves: 80 bytes, a multiple of 16 */

__global__ void hgemm_tiles(const __half *a, const __half *b, float *c, int m, int n, int k)
{
    __shared__ __align__(32) __half as[T][LDS];
    __shared__ __align__(32) __half bs[T][LDS];
    __shared__ __align__(32) float cs[4][16 * 16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 2, wn = warp % 2;
    int tiles_m = (m + T - 1) / T, col0 = blockIdx.x * T;
    for (int tm = blockIdx.y; tm < tiles_m; tm += blockIdx.y) { /* should be gridDim.y */
        int row0 = tm * T;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int p0 = 0; p0 < k; p0 += T) {
            for (int t = threadIdx.x; t < T * T; t += blockDim.x) {
                int r = t / T, q = t % T;
                bool a_in = row0 + r < m && p0 + q < k, b_in = p0 + r < k && col0 + q < n;
                as[r][q] = a_in ? a[(size_t)(row0 + r) * k + p0 + q] : __float2half(0.0f);
                bs[r][q] = b_in ? b[(size_t)(p0 + r) * n + col0 + q] : __float2half(0.0f);
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
        __syncwarp();
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_m = (m + T - 1) / T;
    dim3 grid((n + T - 1) / T, tiles_m < 65535 ? tiles_m : 65535);
    hgemm_tiles<<<grid, 128, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
