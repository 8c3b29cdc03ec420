/* WRONG ON PURPOSE: the reference loading only the halo cells that lie
 * inside the image, and leaving the ghost cells outside it as they are:
 * "they are outside, so they do not count". But the tile is summed in
 * full, and shared memory holds whatever was there before (on a GPU, the
 * last block's tile; in the CPU emulation, NaN). Every output within radius
 * of a border reads them. On the H100 the work stage's few blocks each
 * found fresh shared memory that held zeros, and passed; the right stage's
 * larger images run many blocks on each SM, one after another.
 * Must first fail the right stage.
 * EMULATION: fail skipped: the emulation fills shared memory with NaN, so the work stage sees the ghost cells at once
 * BUILDS-ON: the reference
 * EDIT: s/tile\[y\]\[x\] = (r >= 0 \&\& r < rows \&\& c >= 0 \&\& c < cols) ? in\[(size_t)r \* cols + c\] : 0.0f;/if (r >= 0 \&\& r < rows \&\& c >= 0 \&\& c < cols) tile[y][x] = in[(size_t)r * cols + c];/
 * REPORT-SAYS: the halo cells outside the image must be set to 0
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
