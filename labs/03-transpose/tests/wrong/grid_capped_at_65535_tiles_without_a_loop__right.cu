/* WRONG ON PURPOSE: the reference solution with its 1-D grid capped at
 * 65535 blocks, as if gridDim.x had gridDim.y's limit, and no loop over the
 * tiles beyond: each block moves only the tile of its own number. A matrix
 * of more than 65535 tiles of 64 x 64 loses the rest: at 4194305 x 1 (65537
 * tiles, all in one column) the last 65 rows of the input are never
 * transposed, so the end of d_out is never written. Every other size
 * fits and is right (8192 x 8192 is 16384 tiles).
 * Must first fail the right stage.
 * EMULATION: pass pass: the CPU's right stage stops at 2097169 x 2, 32769 tiles of 64 rows, which fit the capped grid
 * REPORT-SAYS: part of d_out was never written
 * SMALLEST: only a matrix of more than 65535 tiles (over 4 million rows in one column) loses tiles
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<(unsigned)tiles,/<<<(unsigned)(tiles < 65535 ? tiles : 65535),/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return reference_transpose(d_in, d_out, rows, cols, stream);
}
