/* WRONG ON PURPOSE: the GEMM is right (WMMA tiles staged in shared
 * memory, zeros past m, n and k, a guarded epilogue). With k == 0 it
 * skips the GEMM and zeroes C with a fill kernel of float4 stores,
 * "memset for floats, four at a time". C is only 4-byte aligned, so the
 * float4s are counted from C rounded DOWN to 16 bytes. The last float4 is
 * cut at C's end (one float at a time), but the first is never cut at
 * C's start: when C is not aligned it begins in front of C.
 * Every element is right; work has no k == 0 case, right's 33 x 31 with
 * k = 0 and C offset by 8 bytes writes C[-2] and C[-1].
 * REPORT-SAYS: only C[0 .. m*n) is yours to write: a negative index, or a vector store rounded below C's start
 */
#include <stdint.h>

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
        if (gr < m && gc < n) c[(size_t)gr * n + gc] = cs[warp][r][col];
    }
}

/* C[0 .. total) = 0 in float4 stores, counted from C rounded down to 16
 * bytes (head floats in front of C): float4 q covers C[4q - head ..
 * 4q - head + 4). */
__global__ void zero_c(float *c, long long total, int head)
{
    long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long first = 4 * q - head; /* the mistake: below 0 for q = 0, never clamped */
    if (first >= total) return;
    if (first + 4 <= total) {
        *(float4 *)(c + first) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        return;
    }
    for (long long i = first; i < total; i++) c[i] = 0.0f; /* the partial float4 at the end */
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess; /* nothing to write */
    if (k == 0) { /* C = 0: a fill, no GEMM */
        long long total = (long long)m * n;
        int head = (int)(((uintptr_t)d_c & 15) / sizeof(float));
        long long quads = (total + head + 3) / 4;
        zero_c<<<(unsigned)((quads + 255) / 256), 256, 0, stream>>>(d_c, total, head);
        return cudaGetLastError();
    }
    int tiles_m = (m + TM - 1) / TM, tiles_n = (n + TN - 1) / TN;
    hgemm_tiles<<<(unsigned)tiles_m * tiles_n, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k,
                                                                      tiles_n);
    return cudaGetLastError();
}
