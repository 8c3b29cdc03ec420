/* Lab 03 - matrix transpose: out[c * rows + r] = in[r * cols + c].
 *
 * This is the only file you edit. Read labs/03-transpose/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=03
 *
 * The contract (the grader relies on it):
 *   - d_in is a rows x cols matrix of floats, row-major; d_out receives its
 *     transpose, cols x rows, row-major. Both are device pointers the
 *     grader owns; d_in is read-only.
 *   - rows >= 0 and cols >= 0; either may be 0, and every size must work
 *     (1 x n, n x 1, primes, and matrices more than 65535 tiles tall).
 *   - the pointers are 4-byte aligned, not necessarily 16.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 *
 * The plan: one block moves one TILE x TILE tile of the input through
 * shared memory, so that both the read from d_in and the write to d_out
 * run along rows (coalesced). Make it work first with the steps below;
 * TODO(6) makes it fast.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define TILE 32 /* the tile is TILE x TILE elements                    */
#define ROWS 8  /* a block is TILE x ROWS threads; each moves TILE / ROWS
                   elements, ROWS rows apart                            */

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE]; /* see TODO(6) */

    /* TODO(1): where is this block's tile? Its top-left input element is
     *          row r0 = blockIdx.y * TILE, column c0 = blockIdx.x * TILE.
     *          Thread (threadIdx.x, threadIdx.y) reads the input elements
     *          (r0 + threadIdx.y + k, c0 + threadIdx.x) for
     *          k = 0, ROWS, 2 * ROWS, ... < TILE: a warp reads 32
     *          neighbours of one row, coalesced.
     * TODO(2): load them into tile[threadIdx.y + k][threadIdx.x], but only
     *          where the element exists (r < rows && c < cols): the tiles
     *          on the right and bottom edges are partial. Index the input
     *          as in[(size_t)r * cols + c] so large matrices do not
     *          overflow an int.
     * TODO(3): wait until the whole tile is loaded: the elements a thread
     *          writes out were loaded by other warps. __syncthreads() must
     *          be reached by every thread of the block, so never put it
     *          inside an if that only some threads enter.
     * TODO(4): write the transposed tile. The tile goes to output rows
     *          c0 + ..., output columns r0 + ... . Which output element does
     *          thread (threadIdx.x, threadIdx.y) write, so that a warp's
     *          writes are consecutive, and which tile element holds it?
     *          Work it out for two neighbouring threads on paper first (the
     *          README's tiled transpose). The output has cols rows and rows
     *          columns: guard with those bounds, not the input's. */
    (void)tile;
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    /* TODO(5): the launch.
     *   - rows == 0 or cols == 0: nothing to do, and a grid of zero blocks
     *     is an invalid launch: return cudaSuccess right away.
     *   - block: dim3(TILE, ROWS). grid: one block per tile, rounded up:
     *     dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE).
     *   - grid.y may not exceed 65535. For taller matrices, either launch
     *     at most 65535 blocks down and let each block loop over tile rows
     *     t = blockIdx.y, blockIdx.y + gridDim.y, ... (with a second
     *     __syncthreads() before the tile is reused), or number the tiles
     *     with a 1-D grid. Do this last: the work stage does not need it.
     *   - launch on the stream you were given:
     *     transpose_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols);
     *   - return cudaGetLastError(), so the caller hears of a refused
     *     launch. */

    /* TODO(6) (make it fast, once the right stage passes): reading a
     *         column of the tile (TODO(4)) makes all 32 threads of a warp
     *         hit the same shared-memory bank, one after another. The
     *         README's section on banks says why; which change to the
     *         tile's shape spreads a column over all 32 banks? */
    (void)d_in;
    (void)d_out;
    (void)rows;
    (void)cols;
    (void)stream;
    return cudaSuccess;
}
