/* CORRECT, UNUSUAL: the reference accumulating its eight outputs in double
 * and rounding each to float once, at the store. Each product is still a
 * float product (one rounding), so this is another order and precision of
 * the same sum, and well inside the bound gamma_n * sum |terms| that every
 * float order meets. (Slower where FP64 is slow: not a recipe for speed.)
 * BUILDS-ON: the reference
 * EDIT: s/    float acc\[ROWS\]\[COLS\];/    double acc[ROWS][COLS];/
 * EDIT: s/acc\[k\]\[cc\] = 0.0f;/acc[k][cc] = 0.0;/
 * EDIT: s/= acc\[k\]\[cc\];/= (float)acc[k][cc];/
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
