/* WRONG ON PURPOSE: the reference solution launched with 2048 threads per
 * block, as if more threads in a block meant more parallelism. A block holds
 * at most 1024 threads (and this kernel promised the compiler 256 with
 * __launch_bounds__), so the launch is refused and cudaGetLastError says so;
 * the histogram stays as the memset left it. The parallelism comes from the
 * number of blocks: here a 2D grid of particle tiles and offset tiles.
 * Must first fail the work stage.
 * REPORT-SAYS: a launch was refused: at most 1024 threads per block
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/<<<grid, THREADS, shared_bytes, stream>>>/<<<grid, 8 * THREADS, shared_bytes, stream>>>/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    return reference_rdf(d_pos, n, bins, dr, d_hist, stream);
}
