/* WRONG ON PURPOSE: the reference, but it returns before zeroing d_hist
 * when there are no pairs ("nothing to count"): with n < 2 d_hist keeps the
 * grader's garbage, where a histogram of no pairs is all zeros. Work never
 * asks for n < 2. Must first fail the right stage.
 * REPORT-SAYS: d_hist must be written even when n < 2
 *
 * EDIT: s#^    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist#    if (n < 2) return cudaSuccess;\n&#
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    return reference_rdf(d_pos, n, bins, dr, d_hist, stream);
}
