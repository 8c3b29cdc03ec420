/* WRONG ON PURPOSE: the reference with the grid rounded down, so the last
 * partial row and column of 128 x 128 tiles of C are never computed (and a
 * C smaller than one tile not at all). Right wherever m and n are multiples
 * of 128, as at every size of work.
 * Must first fail the right stage.
 * BUILDS-ON: the reference
 * EDIT: s/int tiles_m = (m + BM - 1) \/ BM, tiles_n = (n + BN - 1) \/ BN;/int tiles_m = m \/ BM, tiles_n = n \/ BN; if (tiles_m == 0 || tiles_n == 0) return cudaSuccess;/
 * REPORT-SAYS: cover the last partial tile of rows and of columns
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
