/* WRONG ON PURPOSE: the reference counting its tiles of rows with a
 * division that rounds down ("a block per whole tile"), and at least one
 * block so that small images work. On the friendly sizes (rows a multiple
 * of 32) nothing changes; otherwise the rows of the last partial tile are
 * never written, and hold the grader's NaN.
 * Must first fail the right stage.
 * BUILDS-ON: the reference
 * EDIT: s|    int row_tiles = (rows + TILE_H - 1) / TILE_H;|    int row_tiles = rows > TILE_H ? rows / TILE_H : 1;|
 * REPORT-SAYS: does your grid cover the last partial tile of rows and of columns
 * SMALLEST-ON-GPU: a search that finds no case as small (its SMALLEST line)
 * SMALLEST: it needs a partial tile of rows after a whole one (more than 32 rows), and the radius of the failing case (5) brings a filter of 11 x 11 = 121 taps
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
