/* WRONG ON PURPOSE: the reference reading filter[j][i] for filter[i][j]:
 * the filter's row goes with the column offset. A symmetric filter (a box
 * blur, a Gaussian) would not tell; the grader's filters are random, never
 * symmetric.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/c_filter\[i \* W + j\]/c_filter[j * W + i]/
 * REPORT-SAYS: check the filter's row (i, along rows) and column (j)
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
