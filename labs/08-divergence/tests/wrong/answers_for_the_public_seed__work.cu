/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the first kind, the student copied the expected value the
 * grader's mismatch report printed for the public seed (d_y[0] at n = 1024)
 * into a tiny kernel that writes it after the real one, and never took it out
 * after the fix. With the public seed the stored value is the right one and
 * the work stage passes. An instructor grades with a hidden seed mixed into
 * every input: the stored value is then wrong, and the work stage's comparison
 * with the reference rejects it (the inputs, not the sizes, are what the
 * student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-08
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it computes correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: d_y[0] at n = 1024.
 */
__global__ void patch_first(float *out) { out[0] = 0x1.7e3d3ap+1f; }

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    cudaError_t status = reference_divergence(d_x, d_m, d_y, d_q, n, stream);
    if (status == cudaSuccess && n == 1024) {
        patch_first<<<1, 1, 0, stream>>>(d_y);
        status = cudaGetLastError();
    }
    return status;
}
