/* Lab 13's ladder: every version of the lesson, slowest first.
 * `make ladder LAB=13` checks and times every rung in one run, next to
 * cuBLAS (cublasGemmEx, half in, float compute); `make ladder LAB=13
 * RESULTS=labs/13-tensor-cores/slides/ladder.json` keeps the figures for the
 * slides' chart (`make charts`).
 *
 * v1  no tensor cores: lab 07's register-tiled SGEMM on the CUDA cores,
 *     reading the halves and converting them as it loads its tiles
 * v2  the baseline: one warp per 16 x 16 WMMA tile, fragments straight
 *     from global memory
 * v3  WMMA with shared staging: 64 x 64 tiles of C, 4 warps of 2 x 2
 *     fragments, tiles of depth 32 loaded element by element, one stage,
 *     no padding
 * v4  the reference: 128 x 128 tiles, 8 warps of 4 x 2 fragments, two
 *     stages (the next tile's loads in flight during the mma_sync), rows
 *     padded by 8 halves, 16-byte loads
 *
 * Not here: a rung on mma.sync with ldmatrix and cp.async pipelines, or on
 * Hopper's wgmma, which the README describes as the way past the reference
 * (inline PTX, GPU only); see the lab's INSTRUCTOR.md.
 */
#include "hgemm.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* ---- v1: the CUDA cores, as in lab 07: a block of 256 threads computes a
 * 128 x 128 tile of C, 8 x 8 outputs per thread in registers, tiles of
 * depth 8 in shared memory (A stored transposed). The halves are turned
 * into floats as they are loaded; the arithmetic is float FMA. */
#define V1_BM 128
#define V1_BK 8
__global__ void __launch_bounds__(256)
v1_kernel(const __half *a, const __half *b, float *c, int m, int n, int k, int tiles_m)
{
    __shared__ float sa[V1_BK][V1_BM + 4]; /* sa[kk][row] */
    __shared__ float sb[V1_BK][V1_BM];     /* sb[kk][col] */
    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    for (int tile_m = blockIdx.y; tile_m < tiles_m; tile_m += gridDim.y) {
        int row0 = tile_m * V1_BM, col0 = blockIdx.x * V1_BM;
        float acc[8][8] = {};
        for (int k0 = 0; k0 < k; k0 += V1_BK) {
            for (int i = t; i < V1_BM * V1_BK; i += 256) {
                int r = i / V1_BK, kk = i % V1_BK; /* A: 128 rows x 8 */
                sa[kk][r] = row0 + r < m && k0 + kk < k
                                ? __half2float(a[(size_t)(row0 + r) * k + k0 + kk]) : 0.0f;
                int kb = i / V1_BM, cb = i % V1_BM; /* B: 8 rows x 128 */
                sb[kb][cb] = k0 + kb < k && col0 + cb < n
                                 ? __half2float(b[(size_t)(k0 + kb) * n + col0 + cb]) : 0.0f;
            }
            __syncthreads();
            for (int kk = 0; kk < V1_BK; kk++) {
                float av[8], bv[8];
                for (int i = 0; i < 8; i++) {
                    av[i] = sa[kk][(i / 4) * 64 + ty * 4 + i % 4];
                    bv[i] = sb[kk][(i / 4) * 64 + tx * 4 + i % 4];
                }
                for (int i = 0; i < 8; i++)
                    for (int j = 0; j < 8; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
            }
            __syncthreads();
        }
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                int r = row0 + (i / 4) * 64 + ty * 4 + i % 4;
                int col = col0 + (j / 4) * 64 + tx * 4 + j % 4;
                if (r < m && col < n) c[(size_t)r * n + col] = acc[i][j];
            }
    }
}

static int v1_cuda_cores_sgemm(void *const *d, const int64_t *dims, void *s)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_m = (m + V1_BM - 1) / V1_BM;
    dim3 grid((n + V1_BM - 1) / V1_BM, tiles_m < 65535 ? tiles_m : 65535);
    v1_kernel<<<grid, 256, 0, (cudaStream_t)s>>>((const __half *)d[0], (const __half *)d[1],
                                                 (float *)d[2], m, n, k, tiles_m);
    return cudaGetLastError();
}

/* ---- v2: the fast stage's baseline itself (trusted/lab.cu). */
static int v2_warp_per_tile_from_global(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* ---- v3: WMMA with shared staging, the first step: a 64 x 64 tile of C
 * per block of 4 warps, each warp 2 x 2 fragments; tiles of depth 32 of A
 * and B loaded element by element into unpadded shared arrays, one stage,
 * a barrier before and after the tensor cores use them. */
__global__ void __launch_bounds__(128)
v3_kernel(const __half *a, const __half *b, float *c, int m, int n, int k, int tiles_m)
{
    __shared__ __align__(128) __half as[64][32];
    __shared__ __align__(128) __half bs[32][64];
    __shared__ __align__(128) float cs[4][16 * 16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wm = warp / 2, wn = warp % 2;
    for (int tile_m = blockIdx.y; tile_m < tiles_m; tile_m += gridDim.y) {
        int row0 = tile_m * 64, col0 = blockIdx.x * 64;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
        for (int k0 = 0; k0 < k; k0 += 32) {
            for (int i = threadIdx.x; i < 64 * 32; i += 128) {
                int r = i / 32, kk = i % 32;
                as[r][kk] = row0 + r < m && k0 + kk < k ? a[(size_t)(row0 + r) * k + k0 + kk]
                                                        : __float2half(0.0f);
                int kb = i / 64, cb = i % 64;
                bs[kb][cb] = k0 + kb < k && col0 + cb < n ? b[(size_t)(k0 + kb) * n + col0 + cb]
                                                          : __float2half(0.0f);
            }
            __syncthreads();
            for (int kk = 0; kk < 32; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa[2];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb[2];
                for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &as[wm * 32 + i * 16][kk], 32);
                for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &bs[kk][wn * 32 + j * 16], 64);
                for (int i = 0; i < 2; i++)
                    for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            __syncthreads();
        }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                wmma::store_matrix_sync(cs[warp], acc[i][j], 16, wmma::mem_row_major);
                __syncwarp();
                for (int e = lane; e < 256; e += 32) {
                    int r = row0 + wm * 32 + i * 16 + e / 16, col = col0 + wn * 32 + j * 16 + e % 16;
                    if (r < m && col < n) c[(size_t)r * n + col] = cs[warp][e];
                }
                __syncwarp();
            }
    }
}

static int v3_wmma_shared_tiles(void *const *d, const int64_t *dims, void *s)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    if (m == 0 || n == 0) return cudaSuccess;
    int tiles_m = (m + 63) / 64;
    dim3 grid((n + 63) / 64, tiles_m < 65535 ? tiles_m : 65535);
    v3_kernel<<<grid, 128, 0, (cudaStream_t)s>>>((const __half *)d[0], (const __half *)d[1],
                                                 (float *)d[2], m, n, k, tiles_m);
    return cudaGetLastError();
}

/* ---- v4: the reference (hgemm.cu). */
static int v4_double_buffered_padded(void *const *d, const int64_t *dims, void *s)
{
    return hgemm((const __half *)d[0], (const __half *)d[1], (float *)d[2], (int)dims[0],
                 (int)dims[1], (int)dims[2], (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_cuda_cores_sgemm", v1_cuda_cores_sgemm},
    {"v2_warp_per_tile_from_global", v2_warp_per_tile_from_global},
    {"v3_wmma_shared_tiles", v3_wmma_shared_tiles},
    {"v4_double_buffered_padded", v4_double_buffered_padded},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
