/* WRONG ON PURPOSE: the reference, except that for products of 2^33
 * multiply-adds and more (only the timed size, 4096^3) each block sums only
 * the first half of the tiles along k: twice as fast, and half an answer.
 * The CPU never checks such a size; the fast stage compares every timed
 * answer with the baseline's.
 * Must first fail the fast stage (on a GPU).
 * BUILDS-ON: the reference
 * EDIT: s/int k_tiles = (k + BK - 1) \/ BK;/int k_tiles = (k + BK - 1) \/ BK; if ((double)m * n * k >= 8589934592.0) k_tiles \/= 2;/
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
