/* WRONG ON PURPOSE: the reference with its epilogue replaced by
 * store_matrix_sync straight into C: right on the friendly sizes of work
 * (whole tiles, C 256-byte aligned, n a multiple of 4), but a partial tile
 * writes its whole 16 x 16 fragment past the last row or column, and an
 * unaligned C (the right stage offsets every pointer) is not a legal
 * fragment address.
 * Must first fail the right stage.
 * BUILDS-ON: the reference
 * EDIT: s/wmma::store_matrix_sync(cs\[warp\], acc\[i\]\[j\], CS_LD, wmma::mem_row_major);/wmma::store_matrix_sync(c + (size_t)(row0 + wm * 64 + i * 16) * n + col0 + wn * 32 + j * 16, acc[i][j], n, wmma::mem_row_major); continue;/
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
