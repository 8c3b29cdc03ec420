/* WRONG ON PURPOSE: the reference without the cudaMemsetAsync that zeroes
 * the tile counter and the look-back flags, as if d_scratch came zeroed
 * (it does, the first time, in many a test program). The grader fills it
 * with random words before every call: the tile counter starts anywhere,
 * so the tiles scan the wrong parts of the array (or none at all) and the
 * look-back reads flags that say "published" where nothing was, and
 * flags[p] of a tile index far past the end faults. Must
 * first fail the work stage.
 * BUILDS-ON: the reference
 * REPORT-SAYS: cudaErrorIllegalAddress
 * EDIT: s/cudaError_t e = cudaMemsetAsync(counter, 0, bytes, stream);/cudaError_t e = cudaSuccess;/
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
