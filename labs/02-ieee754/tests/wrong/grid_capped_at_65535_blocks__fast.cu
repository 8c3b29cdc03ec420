/* WRONG ON PURPOSE: the reference solution, but with one thread per element
 * and the grid capped at 65535 blocks, the limit of gridDim.y and
 * gridDim.z (and of gridDim.x on GPUs before compute capability 3.0): the
 * x dimension goes up to 2^31 - 1. Every size of the work and right stages
 * and the re-check after timing needs fewer blocks, so they pass; the timed
 * size, 2^24 elements in blocks of 256, needs 65536, and the last 256
 * elements are never written. Before the timed calls were checked this
 * passed the fast stage at 2.02x.
 * Must first fail the fast stage.
 *
 * The edits below turn the reference's grid-stride loop into one element
 * per thread and its grid, sized to what the GPU holds, into one capped at
 * 65535 blocks.
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: /int stride = gridDim.x \* blockDim.x;/d
 * EDIT: s/for (\(int i = .*\); i < n; i += stride)/\1;\n    if (i < n)/
 * EDIT: /int device, sms, per_sm;/,/cudaOccupancyMaxActiveBlocksPerMultiprocessor/d
 * EDIT: s/sms \* per_sm/65535/g
 */
#include <cuda_runtime.h>

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    return reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave, n, stream);
}
