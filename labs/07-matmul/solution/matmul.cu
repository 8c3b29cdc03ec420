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
 *   v5 v4 with two shared buffers: the next tile is loaded from global
 *      memory while this one is computed, one barrier per tile.
 *   v6 (this file) warp tiles, a pipeline of asynchronous copies, and tile
 *      sizes chosen by measuring; each idea below.
 *
 * v5 reached about 82% of cuBLAS. Its FMA units are nearly the limit, and
 * the gap is the instructions that are not FMAs: a warp issues one
 * instruction at a time, so every shared-memory load, address computation,
 * copy and barrier takes the place of an FMA. v6 removes most of them.
 *
 * 1. Warp tiles. The threads of a warp share a rectangle of C (WM x WN,
 *    here 64 x 64), laid out as 8 rows x 4 columns of threads, each with
 *    TM x TN outputs (8 x 16) in runs of 4 spread over the rectangle. At
 *    each k, a warp then needs only 64 values of A and 64 of B from shared
 *    memory: a float4 read of A touches 8 distinct addresses (threads in
 *    the same row of the warp get the same words, a broadcast), one of B
 *    4; 128 and 64 bytes, one pass through the banks each. In v5 a warp
 *    was two rows of 16 threads across the whole 128-wide tile: each float4
 *    read of B touched 16 addresses, 256 bytes, two passes.
 * 2. More outputs per thread. 8 x 16 outputs need 8 + 16 values per k: 6
 *    float4 loads feed 128 FMAs (v5: 4 loads for 64). The 128 accumulators
 *    take registers: about 210 per thread, so a block is 4 warps (128
 *    threads) and two blocks share an SM.
 * 3. Asynchronous copies (cp.async, sm_80 and later, through the
 *    __pipeline_* functions of <cuda_pipeline.h>). A copy goes from global
 *    to shared memory without passing through registers: no registers held
 *    for the next tile, no store instructions, and the thread does not wait
 *    for it until it needs the data. A is copied 4 bytes at a time so that
 *    it lands transposed (sA[k][m]), where a thread's rows at one k are
 *    float4s; B 16 bytes at a time, as it is (sB[k][n]).
 * 4. A pipeline of STAGES (3) shared buffers. While the FMAs work on tile
 *    t, the copies of tiles t + 1 and t + 2 are in flight, so a slow global
 *    load (hundreds of cycles) has two tiles' FMAs to hide behind, not one.
 *    Each thread commits its copies of a tile as a group; before tile t
 *    it waits until at most STAGES - 2 groups are still in flight (tile t's
 *    has landed), and one __syncthreads() makes every thread's copies
 *    visible and tells everyone that the buffer of tile t - 1 is free for
 *    tile t + STAGES - 1. One barrier per tile, as in v5.
 * 5. BK = 16 instead of 8: half the barriers, waits and address updates
 *    per FMA.
 * 6. The sizes (block tile, warp tile, BK, STAGES) were chosen by a sweep
 *    on the H100: a family of variants timed against cuBLAS at 4096^3, of
 *    which the constants below won. They are not universal; another GPU
 *    may prefer others.
 *
 * Any size. The interior tiles (all of the block's rows and columns
 * inside C, all of the tile's k inside A and B) copy without a single
 * test. The others copy what is inside and store 0 where a value would
 * lie outside, so a partial tile adds 0 * 0 to the sums; stores outside C
 * are skipped. k == 0 runs no tile and stores the zeros.
 *
 * Any alignment. A is copied 4 bytes at a time, which any float pointer
 * and any k allow. B's 16-byte copies need every row of B to start on 16
 * bytes: d_b aligned and n % 4 == 0. When that fails, a second version of
 * the kernel (VEC_B = false) copies B 4 bytes at a time. C is stored as
 * float4 under the same kind of condition (vec_c).
 *
 * Blocks are numbered along a column of GROUP = 8 tile rows before moving
 * right, so the blocks running at the same time share A rows and B columns
 * in the L2 cache.
 */
#include <stdint.h>

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

/* The reference's shape, chosen by the sweep. The ladder (ladder.cu) builds
 * its intermediate rungs from the same kernel with other values. */
#define MM_BM 128       /* rows of C per block */
#define MM_BN 128       /* columns of C per block */
#define MM_BK 16        /* depth of one tile along k */
#define MM_WM 64        /* rows of C per warp */
#define MM_WN 64        /* columns of C per warp */
#define MM_LANE_ROWS 8  /* a warp's 32 threads as 8 rows x 4 columns */
#define MM_STAGES 3     /* shared buffers in the copy pipeline */
#define MM_MIN_BLOCKS 2 /* blocks per SM the registers must allow (__launch_bounds__) */
#define MM_GROUP 8      /* tile rows walked together, for L2 reuse */

/* Everything that follows from a choice of tile sizes. */
template <int BM_, int BN_, int BK_, int WM_, int WN_, int LANE_ROWS_, int STAGES_, int MIN_BLOCKS_>
struct mm_tiling {
    static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
    static constexpr int STAGES = STAGES_, MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int LANE_ROWS = LANE_ROWS_, LANE_COLS = 32 / LANE_ROWS_;
    static constexpr int TM = WM / LANE_ROWS, TN = WN / LANE_COLS; /* outputs per thread */
    static constexpr int WARPS_N = BN / WN, WARPS = (BM / WM) * WARPS_N;
    static constexpr int THREADS = 32 * WARPS;
    /* Shared memory, per stage: sA[k][m] with rows padded by 4 floats (the
     * 4-byte copies of one warp then land in 32 different banks), and
     * sB[k][n]. float4 reads stay aligned: both row lengths are multiples
     * of 4. */
    static constexpr int A_LD = BM + 4;
    static constexpr int A_STAGE = BK * A_LD, STAGE = A_STAGE + BK * BN;
    static constexpr size_t SMEM = (size_t)STAGES * STAGE * sizeof(float);
    /* The copies of one tile. A: a warp copies 4 rows x 8 columns (k) per
     * instruction, whole 32-byte sectors from global memory; KH warps side
     * by side cover BK, the others further down, A_ROWS rows per pass, in
     * A_COPIES passes. B: a row is BN / 4 float4s; B_ROWS rows per pass,
     * B_COPIES passes. */
    static constexpr int KH = BK / 8;
    static constexpr int A_ROWS = 4 * (WARPS / KH), A_COPIES = BM / A_ROWS;
    static constexpr int B_ROWS = THREADS / (BN / 4), B_COPIES = BK / B_ROWS;

    static_assert(LANE_ROWS * LANE_COLS == 32, "a warp is 32 threads");
    static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles cover the block's tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "a thread's outputs come in runs of 4");
    static_assert(BK % 8 == 0 && WARPS % KH == 0 && BM % A_ROWS == 0, "A's copies fit the tile");
    static_assert(THREADS % (BN / 4) == 0 && BK % B_ROWS == 0, "B's copies fit the tile");
    static_assert(STAGES >= 2, "one stage computed while the next is copied");
};

typedef mm_tiling<MM_BM, MM_BN, MM_BK, MM_WM, MM_WN, MM_LANE_ROWS, MM_STAGES, MM_MIN_BLOCKS>
    mm_reference_tiling;

/* Four outputs of one row of C from column col on, skipping those outside
 * C: one float4 store when C's rows are 16-byte aligned (vec_c), else one
 * by one. Shared with the ladder's register-tiled rungs. */
__device__ __forceinline__ void mm_store_run(float *__restrict__ c, int row, int col, int n, const float *v,
                                             bool vec_c)
{
    float *dst = c + (size_t)row * n + col;
    if (vec_c && col < n) {
        *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int j = 0; j < 4; j++)
            if (col + j < n) dst[j] = v[j];
    }
}

/* VEC_B: B is copied as float4s (16-byte aligned rows); else as floats. */
template <class T, bool VEC_B>
__global__ void __launch_bounds__(T::THREADS, T::MIN_BLOCKS)
mm_warp_tiled(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
              int m, int n, int k, int tiles_m, int tiles_n, bool vec_c)
{
    /* STAGES buffers of A and B tiles: more than the 48 KiB a static
     * __shared__ array may have, so dynamic (sized at the launch). float4:
     * 16-byte aligned. */
    extern __shared__ float4 mm_smem[];
    float *smem = reinterpret_cast<float *>(mm_smem);

    /* Which tile of C: groups of MM_GROUP tile rows, column after column. */
    int per_group = MM_GROUP * tiles_n;
    int group = blockIdx.x / per_group, first_m = group * MM_GROUP;
    int rows_in_group = min(tiles_m - first_m, MM_GROUP);
    int in_group = blockIdx.x - group * per_group;
    int row0 = (first_m + in_group % rows_in_group) * T::BM;
    int col0 = (in_group / rows_in_group) * T::BN;

    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    /* This thread's outputs: warp (wr, wc) of the block, lane (ly, lx) of
     * the warp. */
    int wr = warp / T::WARPS_N, wc = warp % T::WARPS_N;
    int ly = lane / T::LANE_COLS, lx = lane % T::LANE_COLS;

    /* This thread's copies: A row a_r, column a_k of the tile, then A_ROWS
     * rows further per pass; B row b_r, columns b_c .. b_c + 3, then B_ROWS
     * rows further per pass. Each is a pointer for the first tile and a
     * fixed step, so the loop computes almost no addresses. */
    int a_r = lane / 8 + 4 * (warp / T::KH), a_k = lane % 8 + 8 * (warp % T::KH);
    int b_r = t / (T::BN / 4), b_c = (t % (T::BN / 4)) * 4;
    const float *a_src = a + (size_t)(row0 + a_r) * k + a_k;
    const float *b_src = b + (size_t)b_r * n + col0 + b_c;
    size_t a_step = (size_t)T::A_ROWS * k, b_step = (size_t)T::B_ROWS * n;
    int a_dst = a_k * T::A_LD + a_r, b_dst = b_r * T::BN + b_c;
    /* For the edge tiles: how many of this thread's A passes are on rows
     * of A (they are in order down the tile), and whether the block's tile
     * lies inside C. */
    int a_left = m - row0 - a_r;
    int a_passes_in = a_left <= 0 ? 0 : (a_left + T::A_ROWS - 1) / T::A_ROWS;
    bool whole_block = row0 + T::BM <= m && col0 + T::BN <= n;
    int tiles_k = (k + T::BK - 1) / T::BK;

    /* Start the copies of tile `tile` into stage s. */
    auto copy_tile = [&](int s, int tile) {
        int k0 = (tile) * T::BK;
        float *sa = smem + s * T::STAGE + a_dst, *sb = smem + s * T::STAGE + T::A_STAGE + b_dst;
        const float *pa = a_src + k0, *pb = b_src + (size_t)k0 * n;
        if (VEC_B && whole_block && k0 + T::BK <= k) {
            /* Interior: no tests. */
#pragma unroll
            for (int i = 0; i < T::A_COPIES; i++)
                __pipeline_memcpy_async(sa + i * T::A_ROWS, pa + i * a_step, 4);
#pragma unroll
            for (int i = 0; i < T::B_COPIES; i++)
                __pipeline_memcpy_async(sb + i * T::B_ROWS * T::BN, pb + i * b_step, 16);
            return;
        }
        /* An edge: copy what lies inside A and B, store 0 for the rest. */
        bool a_k_in = k0 + a_k < k;
#pragma unroll
        for (int i = 0; i < T::A_COPIES; i++) {
            if (a_k_in && i < a_passes_in)
                __pipeline_memcpy_async(sa + i * T::A_ROWS, pa + i * a_step, 4);
            else
                sa[i * T::A_ROWS] = 0.0f;
        }
#pragma unroll
        for (int i = 0; i < T::B_COPIES; i++) {
            bool row_in = k0 + b_r + i * T::B_ROWS < k;
            float *d = sb + i * T::B_ROWS * T::BN;
            const float *p = pb + i * b_step;
            if (VEC_B) {
                /* n % 4 == 0: the four columns are all inside or all outside. */
                if (row_in && col0 + b_c < n)
                    __pipeline_memcpy_async(d, p, 16);
                else
                    *reinterpret_cast<float4 *>(d) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    if (row_in && col0 + b_c + j < n)
                        __pipeline_memcpy_async(d + j, p + j, 4);
                    else
                        d[j] = 0.0f;
                }
            }
        }
    };

    float acc[T::TM][T::TN];
#pragma unroll
    for (int i = 0; i < T::TM; i++)
#pragma unroll
        for (int j = 0; j < T::TN; j++) acc[i][j] = 0.0f;

    /* Fill the pipeline: tiles 0 .. STAGES - 2 in flight, one group each
     * (a group may be empty: the counting stays the same for every tile). */
#pragma unroll
    for (int s = 0; s < T::STAGES - 1; s++) {
        if (s < tiles_k) copy_tile(s, s);
        __pipeline_commit();
    }

    int s_read = 0, s_write = T::STAGES - 1; /* the stages of tile and tile + STAGES - 1 */
    for (int tile = 0; tile < tiles_k; tile++) {
        /* This thread's copies of `tile` have landed (later groups may
         * still be in flight); after the barrier everyone's have, and
         * everyone has finished with tile - 1, whose stage is s_write. */
        __pipeline_wait_prior(T::STAGES - 2);
        __syncthreads();
        if (tile + T::STAGES - 1 < tiles_k) copy_tile(s_write, tile + T::STAGES - 1);
        __pipeline_commit();

        /* The FMAs: at each k, a float4 per run of 4 rows of A and of 4
         * columns of B, and TM x TN FMAs. */
        const float *sa = smem + s_read * T::STAGE + wr * T::WM + ly * 4;
        const float *sb = smem + s_read * T::STAGE + T::A_STAGE + wc * T::WN + lx * 4;
#pragma unroll
        for (int kk = 0; kk < T::BK; kk++) {
            float av[T::TM], bv[T::TN];
#pragma unroll
            for (int i = 0; i < T::TM / 4; i++) {
                float4 v = *reinterpret_cast<const float4 *>(sa + kk * T::A_LD + i * T::LANE_ROWS * 4);
                av[4 * i] = v.x, av[4 * i + 1] = v.y, av[4 * i + 2] = v.z, av[4 * i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < T::TN / 4; j++) {
                float4 v = *reinterpret_cast<const float4 *>(sb + kk * T::BN + j * T::LANE_COLS * 4);
                bv[4 * j] = v.x, bv[4 * j + 1] = v.y, bv[4 * j + 2] = v.z, bv[4 * j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < T::TM; i++)
#pragma unroll
                for (int j = 0; j < T::TN; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
        s_read = s_read + 1 == T::STAGES ? 0 : s_read + 1;
        s_write = s_write + 1 == T::STAGES ? 0 : s_write + 1;
    }

    /* Store the outputs, skipping those outside C. */
#pragma unroll
    for (int i = 0; i < T::TM; i++) {
        int row = row0 + wr * T::WM + (i / 4) * (T::LANE_ROWS * 4) + ly * 4 + i % 4;
        if (row >= m) continue;
#pragma unroll
        for (int h = 0; h < T::TN / 4; h++) {
            int col = col0 + wc * T::WN + h * (T::LANE_COLS * 4) + lx * 4;
            mm_store_run(c, row, col, n, &acc[i][h * 4], vec_c);
        }
    }
}

static bool mm_aligned16(const void *p)
{
    return ((uintptr_t)p & 15) == 0;
}

template <class T, bool VEC_B>
static cudaError_t mm_launch_warp_tiled_as(const float *d_a, const float *d_b, float *d_c, int m,
                                           int n, int k, cudaStream_t stream)
{
    /* A kernel may use more than 48 KiB of dynamic shared memory only once
     * it has asked for it; asked once per kernel, on the first call. */
    static const cudaError_t opted_in = cudaFuncSetAttribute(
        mm_warp_tiled<T, VEC_B>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)T::SMEM);
    if (opted_in != cudaSuccess) return opted_in;
    int tiles_m = (m + T::BM - 1) / T::BM, tiles_n = (n + T::BN - 1) / T::BN;
    unsigned blocks = (unsigned)tiles_m * (unsigned)tiles_n;
    bool vec_c = n % 4 == 0 && mm_aligned16(d_c);
    mm_warp_tiled<T, VEC_B><<<blocks, T::THREADS, T::SMEM, stream>>>(d_a, d_b, d_c, m, n, k,
                                                                      tiles_m, tiles_n, vec_c);
    return cudaGetLastError();
}

/* Any tiling T: pick the kernel that copies B as float4s when its rows
 * are 16-byte aligned. Shared with the ladder's intermediate rungs. */
template <class T>
static cudaError_t mm_launch_warp_tiled(const float *d_a, const float *d_b, float *d_c, int m,
                                        int n, int k, cudaStream_t stream)
{
    if (m <= 0 || n <= 0) return cudaSuccess; /* C is empty: nothing to write */
    if (n % 4 == 0 && mm_aligned16(d_b))
        return mm_launch_warp_tiled_as<T, true>(d_a, d_b, d_c, m, n, k, stream);
    return mm_launch_warp_tiled_as<T, false>(d_a, d_b, d_c, m, n, k, stream);
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    return mm_launch_warp_tiled<mm_reference_tiling>(d_a, d_b, d_c, m, n, k, stream);
}
