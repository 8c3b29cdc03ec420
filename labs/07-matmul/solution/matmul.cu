/* Lab 07 - matrix multiply: the reference solution.
 *
 * C (m x n) = A (m x k) B (k x n), every matrix row-major.
 *
 * The ladder (labs/07-matmul/solution/ladder.cu, `make ladder LAB=07`):
 *   v1 one thread per output: two global loads per FMA.
 *   v2 32 x 32 shared-memory tiles: one shared load per operand per FMA.
 *   v3 v2 with the next tile prefetched into registers (the lecture slides' example).
 *   v4 2-D register tiling: a 128 x 128 tile per block, 8 x 8 outputs per
 *      thread, float4 loads: 16 FMAs per shared-memory load.
 *   v5 (this file) v4 with two shared buffers: the next tile is loaded from
 *      global memory while this one is computed, one barrier per tile.
 *
 * How the threads map to the data. A block of 256 threads owns a 128 x 128
 * tile of C. Thread (ty, tx) = (t / 16, t % 16) holds 8 x 8 outputs in
 * registers: rows ty*4 .. ty*4+3 and 64+ty*4 .. 64+ty*4+3 of the tile,
 * columns tx*4 .. tx*4+3 and 64+tx*4 .. 64+tx*4+3. Splitting each side in
 * two halves 64 apart lets a warp read its operands from shared memory as
 * float4 without bank conflicts (16 threads read 16 consecutive float4s of
 * a B row; the A values are the same for 16 threads, a broadcast).
 *
 * Along k the block walks in steps of BK = 8. Per step each thread loads
 * one float4 of the A tile (128 x 8) and one of the B tile (8 x 128) from
 * global memory, stores them to shared memory (A transposed, so that the
 * 8 rows a thread needs at one k are 2 float4s), and then, for each of the
 * 8 k, reads 2 float4 of A and 2 of B (16 values) and does 64 FMAs with
 * them. That is 16 FMAs per shared load where the shared-tile kernel does
 * 0.5: the FMA units, not the shared-memory pipe, are now the limit.
 *
 * Any size. Loads outside A or B (a partial tile at the bottom, the right
 * or the end of k) read 0 instead, so a partial tile adds 0 * 0 to the
 * sums; stores outside C are skipped. float4 loads need 16-byte aligned
 * addresses: the rows of A start aligned when d_a is aligned and k % 4 ==
 * 0, the rows of B when d_b is aligned and n % 4 == 0. The host checks each
 * operand and picks a kernel that reads it as float4 or as four floats (the
 * same bytes, more instructions); C is stored as float4 under the same
 * kind of condition. k == 0 runs no tile and stores the zeros.
 *
 * Blocks are numbered along a column of GROUP = 8 tile rows before moving
 * right, so the blocks running at the same time share A rows and B columns
 * in the L2 cache.
 */
#include <stdint.h>

#include <cuda_runtime.h>

#define MM_BM 128    /* rows of C per block */
#define MM_BN 128    /* columns of C per block */
#define MM_BK 8      /* depth of one tile along k */
#define MM_PAD 4     /* A tile row padding: stores of the transposed A avoid bank conflicts */
#define MM_THREADS 256
#define MM_GROUP 8

/* One operand tile's share of one thread: a float4 from global memory, or 0
 * outside the matrix. VEC: read it as one float4 (the address is aligned
 * and the four values are all inside or all outside); else as four floats,
 * each checked. */
template <bool VEC>
__device__ __forceinline__ float4 mm_load4(const float *__restrict__ base, int row, int rows,
                                           int col, int cols)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows) return v;
    const float *p = base + (size_t)row * cols + col;
    if (VEC) {
        if (col < cols) v = __ldg(reinterpret_cast<const float4 *>(p));
    } else {
        if (col + 0 < cols) v.x = __ldg(p + 0);
        if (col + 1 < cols) v.y = __ldg(p + 1);
        if (col + 2 < cols) v.z = __ldg(p + 2);
        if (col + 3 < cols) v.w = __ldg(p + 3);
    }
    return v;
}

/* PREFETCH = true is this file's kernel (v5); false is the ladder's v4:
 * one shared buffer, loaded, used, and released with two barriers. */
template <bool VEC_A, bool VEC_B, bool PREFETCH>
__global__ void __launch_bounds__(MM_THREADS, 2)
mm_register_tiled(const float *__restrict__ a, const float *__restrict__ b,
                  float *__restrict__ c, int m, int n, int k, int tiles_m, int tiles_n,
                  bool vec_c)
{
    __shared__ __align__(16) float sa[2][MM_BK][MM_BM + MM_PAD]; /* sa[.][kk][row] */
    __shared__ __align__(16) float sb[2][MM_BK][MM_BN];          /* sb[.][kk][col] */

    /* Which tile of C: groups of MM_GROUP tile rows, column after column. */
    int per_group = MM_GROUP * tiles_n;
    int group = blockIdx.x / per_group, first_m = group * MM_GROUP;
    int rows_in_group = min(tiles_m - first_m, MM_GROUP);
    int in_group = blockIdx.x - group * per_group;
    int row0 = (first_m + in_group % rows_in_group) * MM_BM;
    int col0 = (in_group / rows_in_group) * MM_BN;

    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    /* This thread's share of the loads: A tile row a_r, columns a_c..+3;
     * B tile row b_r, columns b_c..+3. */
    int a_r = t / 2, a_c = (t % 2) * 4;
    int b_r = t / 32, b_c = (t % 32) * 4;

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = 0.0f;

    int tiles_k = (k + MM_BK - 1) / MM_BK;
    float4 ra, rb;

#define MM_LOAD(tile)                                                                   \
    do {                                                                                \
        ra = mm_load4<VEC_A>(a, row0 + a_r, m, (tile) * MM_BK + a_c, k);                \
        rb = mm_load4<VEC_B>(b, (tile) * MM_BK + b_r, k, col0 + b_c, n);                \
    } while (0)
#define MM_STORE(buf)                                                                   \
    do {                                                                                \
        sa[buf][a_c + 0][a_r] = ra.x;                                                   \
        sa[buf][a_c + 1][a_r] = ra.y;                                                   \
        sa[buf][a_c + 2][a_r] = ra.z;                                                   \
        sa[buf][a_c + 3][a_r] = ra.w;                                                   \
        *reinterpret_cast<float4 *>(&sb[buf][b_r][b_c]) = rb;                           \
    } while (0)

    if (PREFETCH) {
        if (tiles_k > 0) {
            MM_LOAD(0);
            MM_STORE(0);
        }
        __syncthreads();
    }
    for (int tile = 0; tile < tiles_k; tile++) {
        int cur = PREFETCH ? tile & 1 : 0;
        if (PREFETCH) {
            /* Issue the next tile's loads now; they travel while we compute. */
            if (tile + 1 < tiles_k) MM_LOAD(tile + 1);
        } else {
            MM_LOAD(tile);
            MM_STORE(0);
            __syncthreads();
        }

#pragma unroll
        for (int kk = 0; kk < MM_BK; kk++) {
            float4 a0 = *reinterpret_cast<const float4 *>(&sa[cur][kk][ty * 4]);
            float4 a1 = *reinterpret_cast<const float4 *>(&sa[cur][kk][64 + ty * 4]);
            float4 b0 = *reinterpret_cast<const float4 *>(&sb[cur][kk][tx * 4]);
            float4 b1 = *reinterpret_cast<const float4 *>(&sb[cur][kk][64 + tx * 4]);
            float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }

        if (PREFETCH) {
            /* The other buffer was last read before the previous barrier. */
            if (tile + 1 < tiles_k) MM_STORE(cur ^ 1);
        }
        __syncthreads(); /* this tile is used up (v4) / the next one is stored (v5) */
    }
#undef MM_LOAD
#undef MM_STORE

    /* Store the 8 x 8 outputs, skipping those outside C. */
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i / 4) * 64 + ty * 4 + i % 4;
        if (row >= m) continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int col = col0 + h * 64 + tx * 4;
            float *dst = c + (size_t)row * n + col;
            const float *v = &acc[i][h * 4];
            if (vec_c && col < n) {
                *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < n) dst[j] = v[j];
            }
        }
    }
}

static bool mm_aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

/* Launch the register-tiled kernel, picking float4 or scalar reads for
 * each operand. Shared by the ladder's v4 (PREFETCH = false). */
template <bool PREFETCH>
static cudaError_t mm_launch_register_tiled(const float *d_a, const float *d_b, float *d_c,
                                            int m, int n, int k, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess; /* C is empty: nothing to write */
    int tiles_m = (m + MM_BM - 1) / MM_BM, tiles_n = (n + MM_BN - 1) / MM_BN;
    unsigned blocks = (unsigned)tiles_m * (unsigned)tiles_n;
    bool vec_a = k % 4 == 0 && mm_aligned16(d_a);
    bool vec_b = n % 4 == 0 && mm_aligned16(d_b);
    bool vec_c = n % 4 == 0 && mm_aligned16(d_c);
    if (vec_a && vec_b)
        mm_register_tiled<true, true, PREFETCH><<<blocks, MM_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    else if (vec_a)
        mm_register_tiled<true, false, PREFETCH><<<blocks, MM_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    else if (vec_b)
        mm_register_tiled<false, true, PREFETCH><<<blocks, MM_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    else
        mm_register_tiled<false, false, PREFETCH><<<blocks, MM_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    return cudaGetLastError();
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    return mm_launch_register_tiled<true>(d_a, d_b, d_c, m, n, k, stream);
}
