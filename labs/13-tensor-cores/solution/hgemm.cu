/* Lab 13 reference solution: C = A B, A (m x k) and B (k x n) half, C (m x n)
 * float, every matrix row-major, on the tensor cores through WMMA.
 *
 * Each block of 256 threads (8 warps) computes a 128 x 128 tile of C. Along
 * k it walks tiles of depth 32: a 128 x 32 tile of A and a 32 x 128 tile of
 * B are staged in shared memory, and each warp, owning a 64 x 32 part of
 * the block's tile (4 x 2 accumulator fragments), loads 4 fragments of A
 * and 2 of B per step of 16 and issues 8 mma_sync: every fragment loaded
 * from shared memory feeds 2 or 4 tensor-core operations, and every element
 * of A and B loaded from global memory is used by 128 outputs.
 *
 * - Double buffering: two shared stages. The next tile's loads from global
 *   memory are issued into registers before the tensor cores start on this
 *   one, and stored to the other stage after, so their latency hides behind
 *   the arithmetic, with one __syncthreads() per tile.
 * - Padding: rows of the shared tiles are 8 halves (16 bytes) longer than
 *   the data, so the 8 rows a fragment load reads at once start in
 *   different banks; ldm stays a multiple of 8 halves and every fragment
 *   32-byte aligned, as load_matrix_sync requires.
 * - Tails: a tile element past m, n or k is stored as zero, so partial tiles
 *   along k add nothing and partial tiles of C compute garbage-free values
 *   that are simply not stored. 16-byte vector loads only where the pointer
 *   and the row length allow them (k, n multiples of 8, 16-byte aligned
 *   pointers); element by element elsewhere.
 * - The epilogue: each accumulator fragment goes through a small per-warp
 *   shared scratch and is copied to C element by element with a bounds
 *   check, since C may be unaligned and its tiles partial.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

#define BM 128
#define BN 128
#define BK 32
#define PAD 8                     /* halves added to every shared row */
#define WARPS 8                   /* 2 x 4 warps, 64 x 32 outputs each */
#define THREADS (WARPS * 32)
#define FRAG_M 4                  /* accumulator fragments per warp, down */
#define FRAG_N 2                  /* and across */
#define CS_LD 20                  /* the epilogue's scratch row, in floats */

/* One thread's share of a tile: two 16-byte chunks of 8 halves. */
struct chunks {
    uint4 v[2];
};

/* A chunk of 8 halves starting at row r, column c of a rows x cols
 * row-major matrix; zeros past its edges. */
__device__ static uint4 load_chunk(const __half *p, int rows, int cols, int r, int c, bool vec)
{
    if (vec && r < rows && c < cols) /* cols % 8 == 0: the whole chunk is inside */
        return *reinterpret_cast<const uint4 *>(p + (size_t)r * cols + c);
    unsigned w[4];
    for (int i = 0; i < 4; i++) {
        unsigned short lo = 0, hi = 0; /* the bits of +0 */
        if (r < rows && c + 2 * i < cols) lo = __half_as_ushort(p[(size_t)r * cols + c + 2 * i]);
        if (r < rows && c + 2 * i + 1 < cols) hi = __half_as_ushort(p[(size_t)r * cols + c + 2 * i + 1]);
        w[i] = lo | (unsigned)hi << 16;
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

/* Tile (tile_m, kt) of A: 128 rows x 32 columns = 512 chunks, 4 per row. */
__device__ static chunks load_a(const __half *a, int m, int k, int row0, int k0, bool vec)
{
    chunks t;
    for (int i = 0; i < 2; i++) {
        int id = threadIdx.x + i * THREADS;
        t.v[i] = load_chunk(a, m, k, row0 + id / 4, k0 + id % 4 * 8, vec);
    }
    return t;
}

/* Tile (kt, tile_n) of B: 32 rows x 128 columns = 512 chunks, 16 per row. */
__device__ static chunks load_b(const __half *b, int k, int n, int k0, int col0, bool vec)
{
    chunks t;
    for (int i = 0; i < 2; i++) {
        int id = threadIdx.x + i * THREADS;
        t.v[i] = load_chunk(b, k, n, k0 + id / 16, col0 + id % 16 * 8, vec);
    }
    return t;
}

__global__ void __launch_bounds__(THREADS)
hgemm_kernel(const __half *a, const __half *b, float *c, int m, int n, int k, int tiles_m,
             bool vec_a, bool vec_b)
{
    __shared__ __align__(128) __half as[2][BM][BK + PAD];
    __shared__ __align__(128) __half bs[2][BK][BN + PAD];
    __shared__ __align__(128) float cs[WARPS][16 * CS_LD];

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / 4, wn = warp % 4; /* the warp's 64 x 32 part of the tile */
    int col0 = blockIdx.x * BN;
    int k_tiles = (k + BK - 1) / BK;

    for (int tile_m = blockIdx.y; tile_m < tiles_m; tile_m += gridDim.y) {
        int row0 = tile_m * BM;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FRAG_M][FRAG_N];
        for (int i = 0; i < FRAG_M; i++)
            for (int j = 0; j < FRAG_N; j++) wmma::fill_fragment(acc[i][j], 0.0f);

        chunks ra, rb;
        if (k_tiles > 0) {
            ra = load_a(a, m, k, row0, 0, vec_a);
            rb = load_b(b, k, n, 0, col0, vec_b);
        }
        int stage = 0;
        for (int kt = 0; kt < k_tiles; kt++) {
            /* Store the tile in registers to this stage, then fetch the
             * next one while the tensor cores work on this. */
            for (int i = 0; i < 2; i++) {
                int id = threadIdx.x + i * THREADS;
                *reinterpret_cast<uint4 *>(&as[stage][id / 4][id % 4 * 8]) = ra.v[i];
                *reinterpret_cast<uint4 *>(&bs[stage][id / 16][id % 16 * 8]) = rb.v[i];
            }
            __syncthreads();
            if (kt + 1 < k_tiles) {
                ra = load_a(a, m, k, row0, (kt + 1) * BK, vec_a);
                rb = load_b(b, k, n, (kt + 1) * BK, col0, vec_b);
            }
            for (int kk = 0; kk < BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[FRAG_M];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[FRAG_N];
                for (int i = 0; i < FRAG_M; i++)
                    wmma::load_matrix_sync(fa[i], &as[stage][wm * 64 + i * 16][kk], BK + PAD);
                for (int j = 0; j < FRAG_N; j++)
                    wmma::load_matrix_sync(fb[j], &bs[stage][kk][wn * 32 + j * 16], BN + PAD);
                for (int i = 0; i < FRAG_M; i++)
                    for (int j = 0; j < FRAG_N; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            /* The other stage is written next; the one just read is not
             * touched again until after the next __syncthreads(). */
            stage ^= 1;
        }

        /* Epilogue: each fragment through the warp's scratch, then to C
         * with a bounds check; lane l copies row l / 2, 8 columns. */
        for (int i = 0; i < FRAG_M; i++)
            for (int j = 0; j < FRAG_N; j++) {
                wmma::store_matrix_sync(cs[warp], acc[i][j], CS_LD, wmma::mem_row_major);
                __syncwarp();
                int r = row0 + wm * 64 + i * 16 + lane / 2;
                int cbase = col0 + wn * 32 + j * 16 + lane % 2 * 8;
                if (r < m)
                    for (int e = 0; e < 8; e++)
                        if (cbase + e < n)
                            c[(size_t)r * n + cbase + e] = cs[warp][lane / 2 * CS_LD + lane % 2 * 8 + e];
                __syncwarp();
            }
        /* The next row of tiles (if this block has one) reuses the stages. */
        __syncthreads();
    }
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    bool vec_a = k % 8 == 0 && (uintptr_t)d_a % 16 == 0;
    bool vec_b = n % 8 == 0 && (uintptr_t)d_b % 16 == 0;
    dim3 grid(tiles_n, tiles_m < 65535 ? tiles_m : 65535);
    hgemm_kernel<<<grid, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k, tiles_m, vec_a, vec_b);
    return cudaGetLastError();
}
