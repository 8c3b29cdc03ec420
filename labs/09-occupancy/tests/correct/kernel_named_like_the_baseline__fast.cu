/* CORRECT, and a probe of the link: the reference, plus a kernel with the
 * very name and parameters of the baseline kernel in trusted/lab.cu (which
 * the solution ladder launches, so it is not static there). The grader
 * makes every symbol of a submission but its entry point local, so this one
 * neither clashes with the baseline at the link nor stands in for it: the
 * fast stage still times the real baseline, and the reference clears it.
 * Must pass fast.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

__global__ void baseline_distances_switch(const float *points, const float *centers, int n, int k,
                                          int dim, int metric, float *out)
{
    /* Does nothing: were it linked in place of the baseline, the baseline
     * would write nothing and the fast stage would say so. */
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    return reference_distances(d_points, d_centers, n, k, dim, metric, d_out, stream);
}
