/* WRONG ON PURPOSE: the reference solution, except that above 8192 atoms it
 * returns as soon as the histogram is zeroed, without counting a pair.
 * Every size of the work and right stages and the re-check after timing
 * has at most 8192 atoms, so only the timed calls (44028 atoms) are
 * skipped. Before the timed calls were checked this passed the fast stage
 * at "220296x over the naive kernel". Now every timed call is compared with
 * the baseline's histogram for the same positions.
 * Must first fail the fast stage.
 *
 * EDIT: s#^    if (n < 2 || bins == 0) return cudaSuccess;.*#&\n    if (n > 8192) return cudaSuccess; // "nobody checks the big one"#
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The reference, with the early return the EDIT above adds. */
extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    return reference_rdf(d_pos, n, bins, dr, d_hist, stream);
}
