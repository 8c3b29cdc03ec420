/* WRONG ON PURPOSE: the reference, answers right, then zeroing d_filter
 * once its copy in __constant__ memory is queued ("a staging buffer, done
 * with"). d_filter is the caller's input: it must come back unchanged.
 * Must first fail the right stage (inputs are compared with their copies there).
 * BUILDS-ON: the reference
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    cudaError_t err = reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
    if (err != cudaSuccess || rows == 0 || cols == 0) return err;
    size_t width = 2 * (size_t)radius + 1;
    return cudaMemsetAsync((void *)d_filter, 0, width * width * sizeof(float), stream);
}
/* REPORT-SAYS: d_in and d_filter are inputs */
