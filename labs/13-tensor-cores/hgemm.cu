/* Lab 13 - tensor cores: C = A B with A (m x k) and B (k x n) in half
 * precision and C (m x n) in float, every matrix row-major:
 *
 *     C[i][j] = sum over p of A[i][p] * B[p][j]
 *
 * This is the only file you edit. Read labs/13-tensor-cores/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=13
 *
 * The contract (the grader relies on it):
 *   - d_a, d_b and d_c are device pointers the grader owns; m, n, k >= 0 and
 *     every size must work: k == 0 means C = 0 (still written), m == 0 or
 *     n == 0 means there is nothing to write. No side need be a multiple of
 *     16. The pointers are only 2-byte (halves) and 4-byte (floats) aligned.
 *   - d_a and d_b are inputs: read them, never write them. C holds NaN on
 *     entry: write every element, never read it first.
 *   - Launch on `stream`, do not synchronize, return the launch status.
 *   - Tensor cores through nvcuda::wmma (<mma.h>); no cuBLAS or CUTLASS.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>

#include "cuda_check.h"

using namespace nvcuda;

#define BM 64  /* rows of C per block */
#define BN 64  /* columns of C per block */
#define BK 32  /* depth of one shared tile along k */
#define THREADS 128 /* 4 warps, each a 32 x 32 part of the tile: 2 x 2 fragments */

/* TODO(1): one block computes the BM x BN tile of C at row0 = blockIdx.y * BM,
 *          col0 = blockIdx.x * BN. Declare the shared tiles: a BM x BK tile
 *          of A and a BK x BN tile of B, as __half, __align__(32) at least
 *          (load_matrix_sync needs 32-byte aligned pointers), and a per-warp
 *          16 x 16 float scratch for the epilogue.
 * TODO(2): give each warp its 2 x 2 accumulator fragments,
 *          wmma::fragment<wmma::accumulator, 16, 16, 16, float>, and zero
 *          them with wmma::fill_fragment.
 * TODO(3): walk k in steps of BK: every thread copies its share of the A
 *          and B tiles from global to shared memory, writing a zero for any
 *          element past m, n or k (the tails: no side is a multiple of 16),
 *          then __syncthreads().
 * TODO(4): for kk = 0, 16: load the warp's 2 fragments of A
 *          (wmma::matrix_a, row_major, ldm = BK) and 2 of B (wmma::matrix_b,
 *          row_major, ldm = BN) from shared memory, and mma_sync each of the
 *          4 accumulators. Then __syncthreads() before the next tile
 *          overwrites the shared arrays.
 * TODO(5): the epilogue: store each accumulator to the warp's scratch
 *          (store_matrix_sync, mem_row_major), __syncwarp(), and let the 32
 *          lanes copy the 256 values to C, only where row < m and col < n.
 *          (Storing fragments straight to C fails on the partial tiles and
 *          on unaligned pointers.)
 * Then make it fast: the README's ladder (bigger tiles, more fragments per
 * warp, padded shared rows, 16-byte loads, two stages). */
__global__ void hgemm_kernel(const __half *a, const __half *b, float *c, int m, int n, int k)
{
    (void)a;
    (void)b;
    (void)c;
    (void)m;
    (void)n;
    (void)k;
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    /* TODO(6): with m == 0 or n == 0 there is nothing to write, and a grid
     *          of zero blocks is an invalid launch: return cudaSuccess. With
     *          k == 0, still launch: the accumulators stay 0 and C must be 0.
     * TODO(7): grid: (n + BN - 1) / BN blocks across, (m + BM - 1) / BM down
     *          (at most 65535 down: for taller C, loop inside the kernel);
     *          THREADS threads per block; launch on `stream`:
     *          hgemm_kernel<<<grid, THREADS, 0, stream>>>(d_a, d_b, d_c, m, n, k);
     * TODO(8): return cudaGetLastError(). */
    (void)d_a;
    (void)d_b;
    (void)d_c;
    (void)m;
    (void)n;
    (void)k;
    (void)stream;
    return cudaSuccess;
}
