/* WRONG ON PURPOSE: the reference solution wherever the CPU checks the
 * answer; at the timed size (every side a multiple of 64 and
 * more than 2^33 multiply-adds: only 4096^3 gets there) the tensor cores
 * multiply in TF32, whose inputs keep 10 bits of mantissa instead of 23.
 * At k = 4096 that puts C[i][j] up to 4e-5 of the output's scale from the
 * float answer (a quarter of them past 1e-5): inside Higham's bound for k
 * terms (the bound grows with k far faster than the error of a sum of
 * random sign) and inside a relative 1e-3, so neither the bound nor a
 * loose agreement sees it; any float order differs from the baseline by
 * about 5e-7 of the scale.
 * Must first fail the fast stage.
 * EMULATION: skipped skipped: the emulation has WMMA with half inputs only,
 * not tf32, so the grader says it needs a GPU.
 * REPORT-SAYS: so close an answer is lower precision, not a bug in the indexing
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <mma.h>

using namespace nvcuda;

/* TF32 tensor cores: a 64 x 64 tile of C per block of 4 warps, each warp a
 * 32 x 32 quarter (2 x 2 fragments of 16 x 16), 32 of k staged in shared
 * memory at a time. Sides must be multiples of 64 (and k of 32). */
#define TB 64
#define TK 32
#define PAD 4 /* rows stay 32-byte aligned: 36 and 68 floats */

__global__ void matmul_tf32(const float *a, const float *b, float *c, int n, int k)
{
    __shared__ __align__(32) float as[TB][TK + PAD];
    __shared__ __align__(32) float bs[TK][TB + PAD];
    int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
    int row0 = blockIdx.y * TB, col0 = blockIdx.x * TB;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int p0 = 0; p0 < k; p0 += TK) {
        for (int e = threadIdx.x; e < TB * TK; e += blockDim.x) {
            as[e / TK][e % TK] = a[(size_t)(row0 + e / TK) * k + p0 + e % TK];
            bs[e / TB][e % TB] = b[(size_t)(p0 + e / TB) * n + col0 + e % TB];
        }
        __syncthreads();
        for (int kk = 0; kk < TK; kk += 8) {
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb[2];
            for (int i = 0; i < 2; i++) {
                wmma::load_matrix_sync(fa[i], &as[wr * 32 + i * 16][kk], TK + PAD);
                for (int t = 0; t < fa[i].num_elements; t++) fa[i].x[t] = wmma::__float_to_tf32(fa[i].x[t]);
            }
            for (int j = 0; j < 2; j++) {
                wmma::load_matrix_sync(fb[j], &bs[kk][wc * 32 + j * 16], TB + PAD);
                for (int t = 0; t < fb[j].num_elements; t++) fb[j].x[t] = wmma::__float_to_tf32(fb[j].x[t]);
            }
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            wmma::store_matrix_sync(c + (size_t)(row0 + wr * 32 + i * 16) * n + col0 + wc * 32 + j * 16,
                                    acc[i][j], n, wmma::mem_row_major);
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    bool aligned = ((uintptr_t)d_c % 32) == 0;
    if (aligned && m % TB == 0 && n % TB == 0 && k % TK == 0 &&
        (double)m * n * k > 8589934592.0) {
        matmul_tf32<<<dim3(n / TB, m / TB), 128, 0, stream>>>(d_a, d_b, d_c, n, k);
        return cudaGetLastError();
    }
    return reference_matmul(d_a, d_b, d_c, m, n, k, stream);
}
