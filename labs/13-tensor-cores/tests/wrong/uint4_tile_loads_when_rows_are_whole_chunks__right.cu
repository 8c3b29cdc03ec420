/* WRONG ON PURPOSE: the shared tiles of A and B are filled with 16-byte
 * loads (a uint4 of 8 halves) whenever the matrix's rows are whole chunks
 * of 8 halves (k % 8 == 0 for A, n % 8 == 0 for B), on the assumption that
 * the chunk at row r, column 8 c then starts on a 16-byte boundary. It does
 * only if d_a (d_b) itself is 16-byte aligned, and the contract promises
 * only 2 bytes. Everything else is right (zeros past m, n and k, element
 * by element where a row is not whole chunks, WMMA from padded shared
 * tiles, the epilogue through a per-warp scratch with a bounds check), so
 * every output is right wherever d_a and d_b are 16-byte aligned: work's
 * pointers are, and it passes work. Right offsets d_a and d_b by 2 to 14
 * bytes (or none), each differently, and the first uint4 load from such
 * an address faults (misaligned address) on the GPU: no fragment is ever
 * loaded from or stored to global memory. The right cases before it have
 * m or n 0, or k and n not multiples of 8, so the first to fail is
 * 1 x 1 x 1000 on the GPU (d_a 12 bytes off); the emulation's list has
 * 1 x 1 x 300 in its place, so there it is 16 x 16 x 16 (d_a 6 bytes and
 * d_b 8 bytes off).
 * Must first fail the right stage.
 * REPORT-SAYS: a 16-byte vector access at an address that is not aligned
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define BM 64       /* rows of C per block */
#define BN 64       /* columns of C per block */
#define BK 32       /* depth of one shared tile along k */
#define PAD 8       /* halves added to each shared row: ldm stays a multiple of 8 */
#define THREADS 128 /* 4 warps, 2 x 2, each a 32 x 32 part: 2 x 2 fragments */

/* Copies the chunk of 8 halves at row r, columns c .. c + 7 of a rows x
 * cols row-major matrix to dst (16-byte aligned shared memory), zeros past
 * its edges. `whole_chunks` says cols % 8 == 0 (c is a multiple of 8, so
 * a chunk that starts inside a row ends inside it). */
__device__ static void copy_chunk(__half *dst, const __half *src, int rows, int cols, int r,
                                  int c, bool whole_chunks)
{
    if (whole_chunks && r < rows && c < cols) {
        /* BUG: src + r * cols + c is a multiple of 8 halves from src, but
         * src is only 2-byte aligned. */
        uint4 chunk = *reinterpret_cast<const uint4 *>(src + (size_t)r * cols + c);
        *reinterpret_cast<uint4 *>(dst) = chunk;
    } else {
        for (int e = 0; e < 8; e++)
            dst[e] = (r < rows && c + e < cols) ? src[(size_t)r * cols + c + e]
                                                : __float2half(0.0f);
    }
}

__global__ void __launch_bounds__(THREADS)
hgemm_chunked(const __half *a, const __half *b, float *c, int m, int n, int k, int tiles_m,
              bool a_whole_chunks, bool b_whole_chunks)
{
    __shared__ __align__(32) __half as[BM][BK + PAD];
    __shared__ __align__(32) __half bs[BK][BN + PAD];
    __shared__ __align__(32) float scratch[THREADS / 32][16 * 16];

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / 2, wn = warp % 2; /* the warp's 32 x 32 part of the tile */
    int col0 = blockIdx.x * BN;

    /* Rows of tiles from blockIdx.y on, gridDim.y apart (65535 at most). */
    for (int tile_m = blockIdx.y; tile_m < tiles_m; tile_m += gridDim.y) {
        int row0 = tile_m * BM;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);

        for (int k0 = 0; k0 < k; k0 += BK) {
            /* A tile: 64 rows x 4 chunks; B tile: 32 rows x 8 chunks. 256
             * chunks each, 2 per thread. */
            for (int t = threadIdx.x; t < BM * BK / 8; t += THREADS) {
                int r = t / (BK / 8), ch = t % (BK / 8) * 8;
                copy_chunk(&as[r][ch], a, m, k, row0 + r, k0 + ch, a_whole_chunks);
            }
            for (int t = threadIdx.x; t < BK * BN / 8; t += THREADS) {
                int r = t / (BN / 8), ch = t % (BN / 8) * 8;
                copy_chunk(&bs[r][ch], b, k, n, k0 + r, col0 + ch, b_whole_chunks);
            }
            __syncthreads();
            for (int kk = 0; kk < BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
                for (int i = 0; i < 2; i++)
                    wmma::load_matrix_sync(fa[i], &as[wm * 32 + i * 16][kk], BK + PAD);
                for (int j = 0; j < 2; j++)
                    wmma::load_matrix_sync(fb[j], &bs[kk][wn * 32 + j * 16], BN + PAD);
                for (int i = 0; i < 2; i++)
                    for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            __syncthreads(); /* before the next tile overwrites as and bs */
        }

        /* Epilogue: each fragment to the warp's scratch, then to C element
         * by element, only inside m x n. */
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
                __syncwarp();
                for (int e = lane; e < 16 * 16; e += 32) {
                    int r = row0 + wm * 32 + i * 16 + e / 16;
                    int col = col0 + wn * 32 + j * 16 + e % 16;
                    if (r < m && col < n) c[(size_t)r * n + col] = scratch[warp][e];
                }
                __syncwarp(); /* before the scratch is overwritten */
            }
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess; /* nothing to write */
    int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    dim3 grid(tiles_n, tiles_m < 65535 ? tiles_m : 65535);
    hgemm_chunked<<<grid, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k, tiles_m, k % 8 == 0,
                                                n % 8 == 0);
    return cudaGetLastError();
}
