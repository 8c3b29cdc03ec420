/* CORRECT, UNUSUAL: a chained scan (StreamScan, Yan et al. 2013) instead of
 * a decoupled look-back: the reference with the early publication of each
 * tile's aggregate removed, so a tile waits until its predecessor has
 * published its full inclusive prefix. Every tile then waits for the one
 * before it, a serial chain of latencies through the whole array: right at
 * every size (tile indices come from the atomic counter, so a tile only
 * ever waits for a tile that is already running), but slower than the
 * look-back it is built from.
 * BUILDS-ON: the reference
 * EDIT: s/if (lane == 0) status\[tile\] = tile_status(FLAG_AGGREGATE, aggregate);/(void)FLAG_AGGREGATE; \/* never published: wait for the prefix *\//
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
