/* WRONG ON PURPOSE: the reference keeping only the top 16 bits of every
 * image value it loads (bfloat16: 8 bits of mantissa), the first step of
 * halving the shared tile ("an image does not need 24 bits"). The lab's
 * answer is single precision: each product is then off by up to 2^-8 of
 * itself, 2^16 times the 2^-24 a float rounding allows, far outside the
 * bound gamma_n * sum |terms| for every radius.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/tile\[y\]\[x\] = (r >= 0 \&\& r < rows \&\& c >= 0 \&\& c < cols) ? in\[(size_t)r \* cols + c\] : 0.0f;/tile[y][x] = (r >= 0 \&\& r < rows \&\& c >= 0 \&\& c < cols) ? __uint_as_float(__float_as_uint(in[(size_t)r * cols + c]) \& 0xffff0000u) : 0.0f;/
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
