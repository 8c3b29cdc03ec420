/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the first tile, the student copied the expected value the
 * grader's mismatch report printed for the public seed (C[0][0] of 128 x 128 x
 * 128) into a tiny kernel that writes it after the real one, and never took it
 * out after the fix. With the public seed the stored value is the right one
 * and the work stage passes. An instructor grades with a hidden seed mixed
 * into every input: the stored value is then wrong, and the work stage's
 * comparison with the reference rejects it (the inputs, not the sizes, are
 * what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-07
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it multiplies correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: C[0][0] of 128 x 128 x 128.
 */
__global__ void patch_first(float *out) { out[0] = -0x1.e2539ep+3f; }

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    cudaError_t status = reference_matmul(d_a, d_b, d_c, m, n, k, stream);
    if (status == cudaSuccess && m == 128 && n == 128 && k == 128) {
        patch_first<<<1, 1, 0, stream>>>(d_c);
        status = cudaGetLastError();
    }
    return status;
}
