/* WRONG ON PURPOSE: the reference with its A fragments declared col_major
 * while the shared tile of A is row-major: each 16 x 16 block of A is read
 * transposed, so C gets the products of A's blocks transposed.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa/wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa/
 * REPORT-SAYS: check the fragments' layouts
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
