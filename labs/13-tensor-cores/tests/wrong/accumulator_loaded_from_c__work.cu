/* WRONG ON PURPOSE: the reference with its accumulators loaded from C
 * (C = A B + C, as with beta = 1) instead of zeroed. C holds NaN on entry,
 * so every output is NaN. On a friendly size C is aligned and its rows a
 * multiple of 4 floats, so the loads themselves are legal.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/for (int j = 0; j < FRAG_N; j++) wmma::fill_fragment(acc\[i\]\[j\], 0.0f);/for (int j = 0; j < FRAG_N; j++) wmma::load_matrix_sync(acc[i][j], c + (size_t)(row0 + wm * 64 + i * 16) * n + col0 + wn * 32 + j * 16, n, wmma::mem_row_major);/
 * REPORT-SAYS: loading the accumulator from C passes it on
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
