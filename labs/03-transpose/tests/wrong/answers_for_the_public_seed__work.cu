/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the corner of the tiles, the student copied the expected
 * value the grader's mismatch report printed for the public seed (d_out[0] of
 * the 512 x 512 matrix) into a tiny kernel that writes it after the real one,
 * and never took it out after the fix. With the public seed the stored value
 * is the right one and the work stage passes. An instructor grades with a
 * hidden seed mixed into every input: the stored value is then wrong, and the
 * work stage's comparison with the reference rejects it (the inputs, not the
 * sizes, are what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-03
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it transposes correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: d_out[0] of the 512 x 512 matrix.
 */
__global__ void patch_first(float *out) { out[0] = 0x1.4a7004p+9f; }

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    cudaError_t status = reference_transpose(d_in, d_out, rows, cols, stream);
    if (status == cudaSuccess && rows == 512 && cols == 512) {
        patch_first<<<1, 1, 0, stream>>>(d_out);
        status = cudaGetLastError();
    }
    return status;
}
