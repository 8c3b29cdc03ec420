/* WRONG ON PURPOSE: the reference with a __constant__ filter of 7 x 7
 * floats, enough for the friendly sizes' radii (at most 3). For a larger
 * radius cudaMemcpyToSymbolAsync refuses a copy past the symbol's end
 * (cudaErrorInvalidValue), and the call returns that error.
 * Must first fail the right stage.
 * BUILDS-ON: the reference
 * EDIT: s/__constant__ float c_filter\[MAX_WIDTH \* MAX_WIDTH\];/__constant__ float c_filter[7 * 7]; \/* radius 3 is plenty *\//
 * EDIT: s/    default: return launch<7, COLS, CAPPED>(d_in, d_out, rows, cols, stream);/    default: return launch<3, COLS, CAPPED>(d_in, d_out, rows, cols, stream);/
 * EDIT: s/case \([456]\): return launch<[456], /case \1: return launch<3, /
 * REPORT-SAYS: a __constant__ filter must hold 15 x 15 floats
 * SMALLEST: the bug is at radius 7, whose filter alone has 15 x 15 = 225 taps
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
