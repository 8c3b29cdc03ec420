/* WRONG ON PURPOSE: right everywhere, and the baseline itself
 * (labs/13-tensor-cores/trusted/lab.cu): one warp per 16 x 16 tile of C,
 * fragments loaded straight from global memory, one mma_sync per two
 * fragment loads; one thread per output on the CUDA cores where the sizes
 * or the pointers do not allow fragments from global memory. Not faster
 * than itself.
 * Must first fail the fast stage (on a GPU).
 * REPORT-SAYS: stage 128 x 32 tiles of A and B in shared memory
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

__global__ void warp_per_tile(const __half *a, const __half *b, float *c, int m, int n, int k)
{
    int warp = threadIdx.x / 32;
    int tile_row = (blockIdx.y * 2 + warp / 2) * 16, tile_col = (blockIdx.x * 2 + warp % 2) * 16;
    if (tile_row >= m || tile_col >= n) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p = 0; p < k; p += 16) {
        wmma::load_matrix_sync(fa, a + (size_t)tile_row * k + p, k);
        wmma::load_matrix_sync(fb, b + (size_t)p * n + tile_col, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tile_row * n + tile_col, acc, n, wmma::mem_row_major);
}

__global__ void thread_per_output(const __half *a, const __half *b, float *c, int m, int n, int k,
                                  int row0)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += __half2float(a[(size_t)row * k + p]) * __half2float(b[(size_t)p * n + col]);
    c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    bool aligned = ((uintptr_t)d_a | (uintptr_t)d_b | (uintptr_t)d_c) % 32 == 0;
    if (aligned && m % 16 == 0 && n % 16 == 0 && k % 16 == 0 && k > 0 && m / 32 < 65535) {
        dim3 grid((n + 31) / 32, (m + 31) / 32);
        warp_per_tile<<<grid, 128, 0, stream>>>(d_a, d_b, d_c, m, n, k);
        return cudaGetLastError();
    }
    /* 8 rows per block, at most 65535 blocks down per launch */
    for (int row0 = 0; row0 < m; row0 += 8 * 65535) {
        int rows = m - row0 < 8 * 65535 ? m - row0 : 8 * 65535;
        dim3 block(32, 8), grid((n + 31) / 32, (rows + 7) / 8);
        thread_per_output<<<grid, block, 0, stream>>>(d_a, d_b, d_c, m, n, k, row0);
    }
    return cudaGetLastError();
}
