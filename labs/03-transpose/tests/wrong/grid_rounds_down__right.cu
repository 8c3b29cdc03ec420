/* WRONG ON PURPOSE: the reference, but the grid counts whole tiles only
 * (cols / 64 across, rows / 64 down, at least one): the partial tiles at
 * the right and the bottom are never launched, so their elements of d_out
 * are never written. Every work size is a multiple of 64, so work passes.
 * Must first fail the right stage.
 * REPORT-SAYS: part of d_out was never written
 * SMALLEST: it drops only a partial tile after a whole one of 64 rows or columns, so more than 64 elements
 *
 * EDIT: s#(cols - 1) / TILE + 1#cols / TILE + (cols < TILE)#
 * EDIT: s#(rows - 1) / TILE + 1#rows / TILE + (rows < TILE)#
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return reference_transpose(d_in, d_out, rows, cols, stream);
}
