/* WRONG ON PURPOSE: the reference storing its eight outputs without
 * checking that each row exists: "the column is guarded, that is enough".
 * On the friendly sizes (rows a multiple of 32) nothing changes; on a last
 * partial tile of rows, threads store past the end of d_out.
 * Must first fail the right stage: on a GPU the stores land in the guard
 * bytes behind d_out (at 1 x 1, rows 1 to 31 of the tile: 4 to 124 bytes
 * past the end), and the report says so with the lab's hint.
 * EMULATION: pass fail: the emulation's right stage gives every buffer its exact size, so the same stores fault there (a crash, reported without the hint)
 * REPORT-SAYS: guard every store with r < rows && c < cols
 * BUILDS-ON: the reference
 * EDIT: /^        if (r >= rows) break;$/d
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
