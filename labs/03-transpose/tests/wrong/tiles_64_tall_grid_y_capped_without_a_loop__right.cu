/* WRONG ON PURPOSE: the reference solution (64 x 64 tiles, grid.y capped
 * at 65535) without its loop over tile rows: each block handles only the
 * tile at blockIdx.y. A matrix more than 65535 x 64 = 4194240 rows tall
 * loses its bottom tiles: at 4194305 x 1 (65537 tiles of 64 rows) the last
 * 65 rows of the input are never transposed, so the end of d_out is never
 * written. Every other size fits and is right.
 * Must first fail the right stage.
 * EMULATION: pass pass: the CPU's right stage stops at 2097169 x 2, 32769 tiles of 64 rows, which fit grid.y without the loop
 * REPORT-SAYS: part of d_out was never written
 * SMALLEST: only a matrix more than 65535 tiles tall (over 4 million rows) loses tiles
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {/{ const int t = blockIdx.y;/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return reference_transpose(d_in, d_out, rows, cols, stream);
}
