/* WRONG ON PURPOSE: the reference with the number of tiles along k rounded
 * down, so the last partial tile (k not a multiple of 32) is never added.
 * Right wherever k is a multiple of 32, as at every size of work.
 * Must first fail the right stage.
 * BUILDS-ON: the reference
 * EDIT: s/int k_tiles = (k + BK - 1) \/ BK;/int k_tiles = k \/ BK;/
 * REPORT-SAYS: zeros in the partial last tile along k
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
