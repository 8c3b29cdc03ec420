/* WRONG ON PURPOSE: WMMA tiles staged in shared memory with zeros past m,
 * n and k; each warp stores its 16 x 16 accumulator to a shared scratch
 * and its lanes copy it to C, guarded, as the lecture says. But the row
 * guard reads "row <= m": the copy keeps rows 0 .. m, one row too many.
 * Row m lies past the end of C, so in a tile that holds it (m not a
 * multiple of 32) the zeros of that scratch row, up to n floats, are
 * written behind C. Columns keep their guard (col < n), so nothing inside
 * C changes: every element is right. Work's m are multiples of 128, so
 * no tile holds row m; right's 33 x 31 (k = 0) writes C[33 * 31 ..).
 * REPORT-SAYS: the last partial tile must not store its whole 16 x 16 fragment
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define TM 32       /* rows of C per block */
#define TN 32       /* columns of C per block */
#define TK 16       /* depth of one shared tile along k */
#define THREADS 128 /* 4 warps, each one 16 x 16 fragment of the 32 x 32 tile */

/* Block b computes the TM x TN tile (b / tiles_n, b % tiles_n) of C: a
 * one-dimensional grid, so a tall C needs no more than 65535 blocks down. */
__global__ void hgemm_tiles(const __half *a, const __half *b, float *c, int m, int n, int k,
                            int tiles_n)
{
    __shared__ __align__(32) __half as[TM][TK];
    __shared__ __align__(32) __half bs[TK][TN];
    __shared__ __align__(32) float cs[THREADS / 32][16][16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = (blockIdx.x / tiles_n) * TM, col0 = (blockIdx.x % tiles_n) * TN;
    int wr = (warp / 2) * 16, wc = (warp % 2) * 16; /* the warp's fragment in the tile */

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p0 = 0; p0 < k; p0 += TK) {
        /* the tiles of A and B, zero past m, n and k */
        for (int e = threadIdx.x; e < TM * TK; e += THREADS) {
            int r = e / TK, p = e % TK;
            int gr = row0 + r, gp = p0 + p;
            as[r][p] = gr < m && gp < k ? a[(size_t)gr * k + gp] : __float2half(0.0f);
        }
        for (int e = threadIdx.x; e < TK * TN; e += THREADS) {
            int p = e / TN, col = e % TN;
            int gp = p0 + p, gc = col0 + col;
            bs[p][col] = gp < k && gc < n ? b[(size_t)gp * n + gc] : __float2half(0.0f);
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, &as[wr][0], TK);
        wmma::load_matrix_sync(fb, &bs[0][wc], TN);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncthreads(); /* before the next tiles overwrite as and bs */
    }

    /* The epilogue: through shared memory, then only what lies in C. */
    wmma::store_matrix_sync(&cs[warp][0][0], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int r = e / 16, col = e % 16;
        int gr = row0 + wr + r, gc = col0 + wc + col;
        if (gr <= m && gc < n) /* the mistake: gr < m */
            c[(size_t)gr * n + gc] = cs[warp][r][col];
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess; /* nothing to write */
    int tiles_m = (m + TM - 1) / TM, tiles_n = (n + TN - 1) / TN;
    hgemm_tiles<<<(unsigned)tiles_m * tiles_n, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k,
                                                                      tiles_n);
    return cudaGetLastError();
}
