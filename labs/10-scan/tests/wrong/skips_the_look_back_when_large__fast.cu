/* WRONG ON PURPOSE: above 2^25 elements (larger than any size the grader
 * checks outside the fast stage: the largest is (1 << 24) + 5) a tile no
 * longer waits in its look-back: a predecessor that has not published yet
 * counts as a prefix of 0. At the timed 2^26 the tiles run side by side
 * and many offsets are lost, so it is timed as a fast scan that computes
 * wrong answers. The fast stage checks every timed call, so it must first
 * fail the fast stage, on a GPU (in the CPU emulation it passes work and
 * right, as a fast-stage file should there).
 * BUILDS-ON: the reference
 * EDIT: s/^enum { FLAG_EMPTY = 0, FLAG_AGGREGATE = 1, FLAG_PREFIX = 2 };/enum { FLAG_EMPTY = 0, FLAG_AGGREGATE = 1, FLAG_PREFIX = 2, FLAG_HURRIED = 3 };/
 * EDIT: s/volatile unsigned long long \*status, unsigned lane)/volatile unsigned long long *status, unsigned lane, long long n_hint)/
 * EDIT: s/look_back<POLITE>(tile, aggregate, status, lane);/look_back<POLITE>(tile, aggregate, status, lane, n);/
 * EDIT: s/if (!__any_sync(FULL_MASK, (unsigned)(s >> 32) == FLAG_EMPTY)) break;/if (n_hint > (1LL << 25) \&\& (unsigned)(s >> 32) == FLAG_EMPTY) s = tile_status(FLAG_HURRIED, 0); if (!__any_sync(FULL_MASK, (unsigned)(s >> 32) == FLAG_EMPTY)) break;/
 * EDIT: s/unsigned done = __ballot_sync(FULL_MASK, (unsigned)(s >> 32) == FLAG_PREFIX);/unsigned done = __ballot_sync(FULL_MASK, (unsigned)(s >> 32) >= FLAG_PREFIX);/
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
