/* WRONG ON PURPOSE: the reference's switch over template instances, with
 * cases only for the radii of the friendly sizes (0 to 3); a larger radius
 * falls to a default that does nothing and reports success. Every output
 * of such a call still holds the grader's NaN.
 * Must first fail the right stage (radii 4 to 7 are checked there).
 * BUILDS-ON: the reference
 * EDIT: /case [456]: return launch/d
 * EDIT: s/    default: return launch<7, COLS, CAPPED>(d_in, d_out, rows, cols, stream);/    default: return cudaSuccess; \/* larger filters: later *\//
 * REPORT-SAYS: does your dispatch on the radius handle every value
 * SMALLEST: the bug is at radius 7, whose filter alone has 15 x 15 = 225 taps
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
