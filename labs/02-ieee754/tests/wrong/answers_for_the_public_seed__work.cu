/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the wave of the first element, the student copied the
 * expected value the grader's mismatch report printed for the public seed
 * (d_wave[0] at n = 1024) into a tiny kernel that writes it after the real
 * one, and never took it out after the fix. With the public seed the stored
 * value is the right one and the work stage passes. An instructor grades with
 * a hidden seed mixed into every input: the stored value is then wrong, and
 * the work stage's comparison with the reference rejects it (the inputs, not
 * the sizes, are what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-02
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it computes correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: d_wave[0] at n = 1024.
 */
__global__ void patch_first(float *out) { out[0] = 0x1.8657a2p-9f; }

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    cudaError_t status = reference_ieee754(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave,
                                            n, stream);
    if (status == cudaSuccess && n == 1024) {
        patch_first<<<1, 1, 0, stream>>>(d_wave);
        status = cudaGetLastError();
    }
    return status;
}
