/* WRONG ON PURPOSE: the reference copying the filter to __constant__
 * memory on its first call only ("the filter is a constant"). Each call
 * may pass a different filter; from the second call on, this one uses the
 * first call's.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter/    static bool copied = false;\n    cudaError_t err = copied ? cudaSuccess : cudaMemcpyToSymbolAsync(c_filter/
 * EDIT: s/^    if (err != cudaSuccess) return err;$/    if (err != cudaSuccess) return err;\n    copied = true;/
 * SMALLEST: it needs a second call with another filter, and the smaller cases of one run share one filter
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
