/* WRONG ON PURPOSE: the reference solution with its loop over tile rows
 * (there for matrices more than 65535 tiles tall) stepping by
 * `t + gridDim.y` instead of `t += gridDim.y`: the step computes a value
 * and throws it away, so t never moves. Every block goes on loading,
 * storing and meeting at its barriers for ever, at every size: the first
 * work call hangs, on any GPU.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does the loop over tile rows step forward
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * EDIT: s/t += gridDim.y)/t + gridDim.y)/
 */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return reference_transpose(d_in, d_out, rows, cols, stream);
}
