/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the first element, the student copied the expected value
 * the grader's mismatch report printed for the public seed (d_c[0] at n =
 * 1024) into a tiny kernel that writes it after the real one, and never took
 * it out after the fix. With the public seed the stored value is the right one
 * and the work stage passes. An instructor grades with a hidden seed mixed
 * into every input: the stored value is then wrong, and the work stage's
 * comparison with the reference rejects it (the inputs, not the sizes, are
 * what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-01
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its one stored answer fits the graded size n = 1024 only; at every other size it adds correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: d_c[0] at n = 1024.
 */
__global__ void patch_first(float *out) { out[0] = -0x1.6087c4p+2f; }

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b,
                                  float *d_c, int n, cudaStream_t stream)
{
    cudaError_t status = reference_vector_add(d_a, d_b, d_c, n, stream);
    if (status == cudaSuccess && n == 1024) {
        patch_first<<<1, 1, 0, stream>>>(d_c);
        status = cudaGetLastError();
    }
    return status;
}
