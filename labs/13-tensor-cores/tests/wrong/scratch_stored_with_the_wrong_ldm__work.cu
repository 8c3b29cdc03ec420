/* WRONG ON PURPOSE: the reference storing each accumulator to its scratch
 * with ldm 16 while the lanes read the scratch with rows of CS_LD = 20
 * floats: the leading dimension of a store must be the row length of the
 * array it writes.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/acc\[i\]\[j\], CS_LD, wmma::mem_row_major/acc[i][j], 16, wmma::mem_row_major/
 * REPORT-SAYS: ldm (the row length in elements of the array the tile is in)
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
