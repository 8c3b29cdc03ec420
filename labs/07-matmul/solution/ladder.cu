/* Lab 07's ladder: SGEMM from one thread per output to register tiling,
 * warp tiles and a copy pipeline, with cuBLAS beside it. `make ladder
 * LAB=07` checks every rung on fresh inputs of 1000 x 1100 x 900 (no side
 * a multiple of a tile), then times them all, alternating, on 4096 x 4096
 * x 4096 (137 GFLOP per call).
 *
 * The lesson. Every output is a dot product of length k, so the arithmetic
 * is 2mnk and the data only 4(mk + kn + mn) bytes: at 4096 that is 680
 * flops per byte, far above what any GPU's memory needs to keep its FMA
 * units busy. Matrix multiply is limited by how fast operands reach the
 * FMA units, and each rung shortens that path:
 *   v1 reads both operands of every FMA from global memory (through L1/L2);
 *   v2 reads them from shared memory, each value fetched from global memory
 *      once per 32-wide tile (the 2010 lesson; on an H100 the caches had
 *      already caught most of that reuse, so it buys only 1.5x);
 *   v3 overlaps the next tile's global loads with this tile's FMAs;
 *   v4 keeps an 8 x 8 block of C per thread in registers: 16 values read
 *      from shared memory feed 64 FMAs, 16 FMAs per shared load instead of
 *      0.5, and the tiles are read with float4 loads;
 *   v5 gives v4 two shared buffers, so the next tile's global loads overlap
 *      the FMAs and one barrier per tile is enough.
 * From there the FMA units are nearly the limit, and what is left is every
 * instruction that is not an FMA (matmul.cu's header has the details):
 *   v6a keeps v5's tile (128 x 128, 8 x 8 per thread, k steps of 8, two
 *      buffers) but gives each warp a 32 x 64 rectangle of C, so its shared
 *      loads take fewer passes, and copies the tiles with cp.async, global
 *      to shared memory without registers or store instructions;
 *   v6b takes k in steps of 16 (half the barriers and loop overhead per
 *      FMA) through three buffers, so two tiles are in flight at a time;
 *   v6 (the reference, matmul.cu) gives each thread 8 x 16 outputs (6
 *      shared loads per 128 FMAs instead of 4 per 64) in 64 x 64 warp
 *      tiles, 128 threads per block: the sizes a sweep on the H100 chose.
 *
 * The vendor rung: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32
 * tensor cores), called as a caller of this entry point would: the handle
 * is made once, on the first call (a check call, never timed), and its
 * stream is set on every call. It is left out of the CPU emulation, which
 * has no cuBLAS.
 */
#include "matmul.cu" /* the reference solution: v6 */

#include "cuda_check.h"
#include "lab_spec.h"

#ifndef CUDA_EMU
#include <cublas_v2.h>
#endif

static int blocks_for(int count, int per_block) { return (count + per_block - 1) / per_block; }

/* v1: one thread per output, a block of 32 x 8 threads on 8 rows of 32
 * columns (the fast stage's baseline, labs/07-matmul/trusted/lab.cu, with a loop
 * over rows so that any m fits in the grid's y side). A warp shares one
 * row: A[row][p] is one word for all 32 threads (a broadcast), B[p][col..]
 * one coalesced line. Two loads per FMA, each from L1 at best: the load
 * pipe and the instruction issue, not the FMA units, set the pace. */
__global__ void mm_v1_naive(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= n) return;
    for (int row = blockIdx.y * blockDim.y + threadIdx.y; row < m;
         row += gridDim.y * blockDim.y) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++) sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

static int v1_naive(void *const *d, const int64_t *dims, void *s)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    if (m == 0 || n == 0) return cudaSuccess;
    int rows = blocks_for(m, 8);
    dim3 block(32, 8), grid(blocks_for(n, 32), rows < 65535 ? rows : 65535);
    mm_v1_naive<<<grid, block, 0, (cudaStream_t)s>>>((const float *)d[0], (const float *)d[1],
                                                     (float *)d[2], m, n, k);
    return cudaGetLastError();
}

/* v2: the classic shared-memory tiles. A block of 32 x 32 threads owns a
 * 32 x 32 tile of C, one output per thread, and walks along k in steps of
 * 32: it copies a 32 x 32 tile of A and of B to shared memory (each value
 * read from global memory once per block, not once per thread), waits,
 * and each thread does 32 FMAs from shared memory. Per FMA: two shared
 * loads (one a broadcast). The shared-memory pipe delivers 32 words per
 * cycle per SM, the FMA units take 128 FMAs' operands per cycle: at one
 * or two shared loads per FMA, the FMA units wait. Edges: loads outside A
 * or B store 0, stores outside C are skipped. 1-D grid over the tiles. */
#define V2_TILE 32
__global__ void mm_v2_shared_tiles(const float *a, const float *b, float *c, int m, int n,
                                   int k, int tiles_n)
{
    __shared__ float as[V2_TILE][V2_TILE];
    __shared__ float bs[V2_TILE][V2_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * V2_TILE + ty;
    int col = (blockIdx.x % tiles_n) * V2_TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += V2_TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < V2_TILE; p++) sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

static int v2_shared_tiles(void *const *d, const int64_t *dims, void *s)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = blocks_for(n, V2_TILE);
    mm_v2_shared_tiles<<<blocks_for(m, V2_TILE) * tiles_n, dim3(V2_TILE, V2_TILE), 0,
                         (cudaStream_t)s>>>((const float *)d[0], (const float *)d[1],
                                            (float *)d[2], m, n, k, tiles_n);
    return cudaGetLastError();
}

/* v3: v2 with the lecture slides' prefetching (lecture 002, "carga anticipada"):
 * each thread keeps its next A and B elements in two registers. Loop: store
 * the registers to the shared tiles, issue the global loads of the next
 * tile into the registers, barrier, compute from shared memory, barrier.
 * The loads are in flight during the 32 FMAs instead of before them. On a
 * GPU that keeps 32 warps per SM (the 1024-thread block), other warps
 * already hid most of that latency, so the gain is small: the shared loads
 * per FMA, v2's real limit, are unchanged. */
__global__ void mm_v3_prefetch(const float *a, const float *b, float *c, int m, int n, int k,
                               int tiles_n)
{
    __shared__ float as[V2_TILE][V2_TILE];
    __shared__ float bs[V2_TILE][V2_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = (blockIdx.x / tiles_n) * V2_TILE + ty;
    int col = (blockIdx.x % tiles_n) * V2_TILE + tx;
    float ra = row < m && tx < k ? a[(size_t)row * k + tx] : 0.0f;
    float rb = ty < k && col < n ? b[(size_t)ty * n + col] : 0.0f;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += V2_TILE) {
        as[ty][tx] = ra;
        bs[ty][tx] = rb;
        int q = p0 + V2_TILE; /* the next tile */
        ra = row < m && q + tx < k ? a[(size_t)row * k + q + tx] : 0.0f;
        rb = q + ty < k && col < n ? b[(size_t)(q + ty) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < V2_TILE; p++) sum += as[ty][p] * bs[p][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = sum;
}

static int v3_prefetch(void *const *d, const int64_t *dims, void *s)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_n = blocks_for(n, V2_TILE);
    mm_v3_prefetch<<<blocks_for(m, V2_TILE) * tiles_n, dim3(V2_TILE, V2_TILE), 0,
                     (cudaStream_t)s>>>((const float *)d[0], (const float *)d[1],
                                        (float *)d[2], m, n, k, tiles_n);
    return cudaGetLastError();
}

/* v4 and v5: 2-D register tiling.
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
 * Any size, as the reference: loads outside A or B read 0, stores outside
 * C are skipped. float4 loads need 16-byte aligned rows (d_a aligned and
 * k % 4 == 0 for A, d_b aligned and n % 4 == 0 for B): when either operand
 * misses that, both are read as single floats (VEC = false), which only
 * the right stage's odd sizes and offset pointers take. */
#define RT_BM 128    /* rows of C per block */
#define RT_BN 128    /* columns of C per block */
#define RT_BK 8      /* depth of one tile along k */
#define RT_PAD 4     /* A tile row padding: stores of the transposed A avoid bank conflicts */
#define RT_THREADS 256
#define RT_GROUP 8

/* One operand tile's share of one thread: a float4 from global memory, or 0
 * outside the matrix. VEC: read it as one float4 (the address is aligned
 * and the four values are all inside or all outside); else as four floats,
 * each checked. */
template <bool VEC>
__device__ __forceinline__ float4 rt_load4(const float *__restrict__ base, int row, int rows,
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

/* PREFETCH = true is v5; false is v4: one shared buffer, loaded, used, and
 * released with two barriers. */
template <bool VEC, bool PREFETCH>
__global__ void __launch_bounds__(RT_THREADS, 2)
rt_register_tiled(const float *__restrict__ a, const float *__restrict__ b,
                  float *__restrict__ c, int m, int n, int k, int tiles_m, int tiles_n,
                  bool vec_c)
{
    __shared__ __align__(16) float sa[2][RT_BK][RT_BM + RT_PAD]; /* sa[.][kk][row] */
    __shared__ __align__(16) float sb[2][RT_BK][RT_BN];          /* sb[.][kk][col] */

    /* Which tile of C: groups of RT_GROUP tile rows, column after column. */
    int per_group = RT_GROUP * tiles_n;
    int group = blockIdx.x / per_group, first_m = group * RT_GROUP;
    int rows_in_group = min(tiles_m - first_m, RT_GROUP);
    int in_group = blockIdx.x - group * per_group;
    int row0 = (first_m + in_group % rows_in_group) * RT_BM;
    int col0 = (in_group / rows_in_group) * RT_BN;

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

    int tiles_k = (k + RT_BK - 1) / RT_BK;
    float4 ra, rb;

#define RT_LOAD(tile)                                                                   \
    do {                                                                                \
        ra = rt_load4<VEC>(a, row0 + a_r, m, (tile) * RT_BK + a_c, k);                  \
        rb = rt_load4<VEC>(b, (tile) * RT_BK + b_r, k, col0 + b_c, n);                  \
    } while (0)
#define RT_STORE(buf)                                                                   \
    do {                                                                                \
        sa[buf][a_c + 0][a_r] = ra.x;                                                   \
        sa[buf][a_c + 1][a_r] = ra.y;                                                   \
        sa[buf][a_c + 2][a_r] = ra.z;                                                   \
        sa[buf][a_c + 3][a_r] = ra.w;                                                   \
        *reinterpret_cast<float4 *>(&sb[buf][b_r][b_c]) = rb;                           \
    } while (0)

    if (PREFETCH) {
        if (tiles_k > 0) {
            RT_LOAD(0);
            RT_STORE(0);
        }
        __syncthreads();
    }
    for (int tile = 0; tile < tiles_k; tile++) {
        int cur = PREFETCH ? tile & 1 : 0;
        if (PREFETCH) {
            /* Issue the next tile's loads now; they travel while we compute. */
            if (tile + 1 < tiles_k) RT_LOAD(tile + 1);
        } else {
            RT_LOAD(tile);
            RT_STORE(0);
            __syncthreads();
        }

#pragma unroll
        for (int kk = 0; kk < RT_BK; kk++) {
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
            if (tile + 1 < tiles_k) RT_STORE(cur ^ 1);
        }
        __syncthreads(); /* this tile is used up (v4) / the next one is stored (v5) */
    }
#undef RT_LOAD
#undef RT_STORE

    /* Store the 8 x 8 outputs, skipping those outside C. */
#pragma unroll
    for (int i = 0; i < 8; i++) {
        int row = row0 + (i / 4) * 64 + ty * 4 + i % 4;
        if (row >= m) continue;
#pragma unroll
        for (int h = 0; h < 2; h++) mm_store_run(c, row, col0 + h * 64 + tx * 4, n, &acc[i][h * 4], vec_c);
    }
}

/* Launch the register-tiled kernel, float4 reads when both operands allow. */
template <bool PREFETCH>
static cudaError_t rt_launch(const float *d_a, const float *d_b, float *d_c, int m, int n, int k,
                             cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess; /* C is empty: nothing to write */
    int tiles_m = (m + RT_BM - 1) / RT_BM, tiles_n = (n + RT_BN - 1) / RT_BN;
    unsigned blocks = (unsigned)tiles_m * (unsigned)tiles_n;
    bool vec = k % 4 == 0 && mm_aligned16(d_a) && n % 4 == 0 && mm_aligned16(d_b);
    bool vec_c = n % 4 == 0 && mm_aligned16(d_c);
    if (vec)
        rt_register_tiled<true, PREFETCH><<<blocks, RT_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    else
        rt_register_tiled<false, PREFETCH><<<blocks, RT_THREADS, 0, stream>>>(
            d_a, d_b, d_c, m, n, k, tiles_m, tiles_n, vec_c);
    return cudaGetLastError();
}

/* v4: register tiles with one shared buffer. Each tile is loaded, stored,
 * used and released with two barriers; while a block waits for its loads,
 * only the other block on the SM (two fit, by registers) keeps the FMA
 * units busy. */
static int v4_register_tiles(void *const *d, const int64_t *dims, void *s)
{
    return rt_launch<false>((const float *)d[0], (const float *)d[1], (float *)d[2],
                            (int)dims[0], (int)dims[1], (int)dims[2], (cudaStream_t)s);
}

/* v5: v4 with two shared buffers (the reference until v6). */
static int v5_double_buffered(void *const *d, const int64_t *dims, void *s)
{
    return rt_launch<true>((const float *)d[0], (const float *)d[1], (float *)d[2],
                           (int)dims[0], (int)dims[1], (int)dims[2], (cudaStream_t)s);
}

/* v6a: v5's tile, 256 threads with 8 x 8 outputs each and k steps of 8
 * through two buffers, but in 32 x 64 warp tiles (lanes 4 x 8) and copied
 * with cp.async: the reference's kernel (matmul.cu) with v5's sizes. */
typedef mm_tiling<128, 128, 8, 32, 64, 4, 2, 2> v6a_tiling;
static int v6a_warp_tiles_cp_async(void *const *d, const int64_t *dims, void *s)
{
    return mm_launch_warp_tiled<v6a_tiling>((const float *)d[0], (const float *)d[1],
                                            (float *)d[2], (int)dims[0], (int)dims[1],
                                            (int)dims[2], (cudaStream_t)s);
}

/* v6b: v6a with k steps of 16 through three buffers: half the barriers,
 * waits and address updates per FMA, and two tiles in flight. */
typedef mm_tiling<128, 128, 16, 32, 64, 4, 3, 2> v6b_tiling;
static int v6b_bk16_three_stages(void *const *d, const int64_t *dims, void *s)
{
    return mm_launch_warp_tiled<v6b_tiling>((const float *)d[0], (const float *)d[1],
                                            (float *)d[2], (int)dims[0], (int)dims[1],
                                            (int)dims[2], (cudaStream_t)s);
}

/* v6: the reference, matmul.cu: v6b with 8 x 16 outputs per thread in
 * 64 x 64 warp tiles, 128 threads per block, two blocks per SM. */
static int v6_reference(void *const *d, const int64_t *dims, void *s)
{
    return matmul((const float *)d[0], (const float *)d[1], (float *)d[2], (int)dims[0],
                  (int)dims[1], (int)dims[2], (cudaStream_t)s);
}

#ifndef CUDA_EMU
/* cuBLAS SGEMM, the fast stage's roof (labs/07-matmul/trusted/lab.cu has the same
 * call): the row-major C = A B is the column-major C^T = B^T A^T. */
static int vendor_cublas_sgemm(void *const *d, const int64_t *dims, void *s)
{
    static cublasHandle_t handle; /* made once; lives as long as the process */
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    cudaStream_t stream = (cudaStream_t)s;
    if (!handle) {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
        if (cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS)
            return cudaErrorUnknown;
    }
    if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
    if (m == 0 || n == 0) return cudaSuccess;
    if (k == 0) return cudaMemsetAsync(d[2], 0, (size_t)m * n * sizeof(float), stream);
    const float one = 1.0f, zero = 0.0f;
    if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)d[1], n,
                    (const float *)d[0], k, &zero, (float *)d[2], n) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
#endif

static const lab_rung RUNGS[] = {
    {"v1_naive", v1_naive},
    {"v2_shared_tiles", v2_shared_tiles},
    {"v3_prefetch", v3_prefetch},
    {"v4_register_tiles", v4_register_tiles},
    {"v5_double_buffered", v5_double_buffered},
    {"v6a_warp_tiles_cp_async", v6a_warp_tiles_cp_async},
    {"v6b_bk16_three_stages", v6b_bk16_three_stages},
    {"v6_reference", v6_reference},
#ifndef CUDA_EMU
    {"vendor_cublas_sgemm", vendor_cublas_sgemm},
#endif
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
