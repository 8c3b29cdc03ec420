/* Lab 07's ladder: SGEMM from one thread per output to register tiling,
 * with cuBLAS beside it. `make ladder LAB=07` checks every rung on fresh
 * inputs of 1000 x 1100 x 900 (no side a multiple of a tile), then times
 * them all, alternating, on 4096 x 4096 x 4096 (137 GFLOP per call).
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
 *   v5 (the reference) gives v4 two shared buffers, so the next tile's
 *      global loads overlap the FMAs and one barrier per tile is enough.
 *
 * The vendor rung: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32
 * tensor cores), called as a caller of this entry point would: the handle
 * is made once, on the first call (a check call, never timed), and its
 * stream is set on every call. It is left out of the CPU emulation, which
 * has no cuBLAS.
 */
#include "matmul.cu" /* the reference solution: v5 */

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

/* v4: 2-D register tiling with float4 loads, one shared buffer: the
 * reference kernel (matmul.cu, where the mapping is described) without its
 * prefetch. Each tile is loaded, stored, used and released with two
 * barriers; while a block waits for its loads, only the other block on the
 * SM (two fit, by registers) keeps the FMA units busy. */
static int v4_register_tiles(void *const *d, const int64_t *dims, void *s)
{
    return mm_launch_register_tiled<false>((const float *)d[0], (const float *)d[1],
                                           (float *)d[2], (int)dims[0], (int)dims[1],
                                           (int)dims[2], (cudaStream_t)s);
}

/* v5: the reference, matmul.cu. */
static int v5_double_buffered(void *const *d, const int64_t *dims, void *s)
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
#ifndef CUDA_EMU
    {"vendor_cublas_sgemm", vendor_cublas_sgemm},
#endif
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
