/* WRONG ON PURPOSE: WMMA with a half accumulator,
 * fragment<accumulator, 16, 16, 16, __half>: every mma_sync rounds the
 * running sums to 11 bits, so at k = 128 the sums are off by about 2^-11 of
 * their size, hundreds of times the float bound. (Half accumulation is
 * twice as fast on some GPUs; the lab asks for float.) One warp per 16 x 16
 * tile from shared memory, tails handled: only the accumulator is wrong.
 * Must first fail the work stage.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

__global__ void hgemm_half_acc(const __half *a, const __half *b, float *c, int m, int n, int k)
{
    __shared__ __align__(32) __half as[16 * 16];
    __shared__ __align__(32) __half bs[16 * 16];
    __shared__ __align__(32) __half cs[16 * 16];
    int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
    wmma::fill_fragment(acc, __float2half(0.0f));
    for (int p = 0; p < k; p += 16) {
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, q = e % 16;
            as[e] = row0 + r < m && p + q < k ? a[(size_t)(row0 + r) * k + p + q] : __float2half(0.0f);
            bs[e] = p + r < k && col0 + q < n ? b[(size_t)(p + r) * n + col0 + q] : __float2half(0.0f);
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, as, 16);
        wmma::load_matrix_sync(fb, bs, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(cs, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int r = row0 + e / 16, q = col0 + e % 16;
        if (r < m && q < n) c[(size_t)r * n + q] = __half2float(cs[e]);
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    dim3 grid((n + 15) / 16, (m + 15) / 16);
    hgemm_half_acc<<<grid, 32, 0, stream>>>(d_a, d_b, d_c, m, n, k);
    return cudaGetLastError();
}
