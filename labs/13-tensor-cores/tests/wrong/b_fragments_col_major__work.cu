/* WRONG ON PURPOSE: the reference with its B fragments declared col_major
 * while the shared tile of B is row-major (the layout of the fragment must
 * match the memory it is loaded from): every 16 x 16 block of B is used
 * transposed.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb/wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb/
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
