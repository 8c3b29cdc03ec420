/* Lab 11 - 2-D convolution: a stencil with halos.
 *
 *   out[r][c] = sum over -radius <= i, j <= radius of
 *               filter[i + radius][j + radius] * in[r + i][c + j]
 *
 * with in[][] = 0 outside the image (zero padding). This is the only file
 * you edit. Read labs/11-conv2d/README.md first, then follow the TODOs in
 * order. Check your work with
 *
 *     make grade LAB=11
 *
 * The contract (the grader relies on it):
 *   - d_in (rows x cols), d_out (rows x cols) and d_filter ((2 radius + 1)^2
 *     floats) are device pointers the grader owns, all row-major and 4-byte
 *     aligned (not necessarily 16). rows, cols >= 0; either may be 0, and
 *     then there is nothing to write. 0 <= radius <= 7.
 *   - d_in and d_filter are inputs: read them, never write them. d_out
 *     holds NaN on entry.
 *   - launch on `stream`, do not synchronize, and return the status of
 *     what you queued (cudaGetLastError() after the launch).
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

/* TODO(1): make it work. One thread per output: a 2-D block (32 x 8 is a
 *          good start) and a 2-D grid that covers every column and row,
 *          rounded up. Each thread sums the (2 radius + 1)^2 products for
 *          its out[row][col]. A neighbour outside the image (row + i or
 *          col + j below 0 or at rows / cols and beyond) counts as 0: do
 *          not read it. Which index of the filter goes with i, the row
 *          offset, and which with j? The filter is row-major too.
 * TODO(2): make it right. Threads past the last row or column must not
 *          store; every radius from 0 to 7 must work; so must an image
 *          smaller than the filter, a single row or column, and a tall
 *          image (the grid's y side holds at most 65535 blocks).
 * TODO(3): make it fast (read the README's ladder first, and measure each
 *          step):
 *          a) the filter is the same for every thread: copy it once per
 *             call into a __constant__ array big enough for radius 7, on
 *             `stream` (which copy function takes a stream?), and read it
 *             from there: a warp reading one word gets it in one broadcast;
 *          b) neighbouring outputs share most of their inputs: let a block
 *             load its tile of the image and the halo around it into
 *             shared memory once, with 0 in the ghost cells outside the
 *             image, then compute from the tile (what must every thread
 *             wait for before it reads?);
 *          c) give each thread several outputs so that a value read from
 *             shared memory feeds several FMAs from registers;
 *          d) make the radius a template parameter, chosen with a switch
 *             at run time, so the compiler can unroll the loops. */
__global__ void conv2d_kernel(const float *in, float *out, int rows, int cols,
                              const float *filter, int radius)
{
    (void)in;
    (void)out;
    (void)rows;
    (void)cols;
    (void)filter;
    (void)radius;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    /* TODO(4): with rows == 0 or cols == 0 there is nothing to do, and a
     *          grid of zero blocks is an invalid launch: return cudaSuccess
     *          at once. */

    /* TODO(5): choose the block and the grid, then launch on the stream
     *          you were given:
     *          conv2d_kernel<<<grid, block, 0, stream>>>(...); */
    (void)d_in;
    (void)d_out;
    (void)rows;
    (void)cols;
    (void)d_filter;
    (void)radius;
    (void)stream;

    /* TODO(6): a launch reports a bad configuration only through
     *          cudaGetLastError(); return it so the caller hears of it. */
    return cudaSuccess;
}
