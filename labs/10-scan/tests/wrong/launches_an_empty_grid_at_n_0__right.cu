/* WRONG ON PURPOSE: the reference without its early return for n == 0:
 * it computes 0 tiles and launches a grid of 0 blocks, which CUDA refuses
 * (cudaErrorInvalidConfiguration), and returns that status. Every work
 * size is larger, so it must first fail the right stage, at n = 0.
 * BUILDS-ON: the reference
 * EDIT: s/    if (n <= 0) return cudaSuccess;/    \/* no early return for n == 0 *\//
 * REPORT-SAYS: no kernel at all when n == 0
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
