/* CORRECT, UNUSUAL: the reference accumulating its four outputs in double
 * and rounding each to float once, at the store. Each product is still a
 * float product (one rounding), so this is another order and precision of
 * the same sum, and well inside the bound gamma_n * sum |terms| that every
 * float order meets. (Slower where FP64 is slow: not a recipe for speed.)
 * BUILDS-ON: the reference
 * EDIT: s/    float acc\[PER_THREAD\];/    double acc[PER_THREAD];/
 * EDIT: s/acc\[k\] = 0.0f;/acc[k] = 0.0;/
 * EDIT: s/= acc\[k\];/= (float)acc[k];/
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
