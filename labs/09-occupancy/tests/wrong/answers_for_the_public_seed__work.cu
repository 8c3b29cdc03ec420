/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the squared Euclidean distance, the student copied the
 * expected value the grader's mismatch report printed for the public seed
 * (d_out[0], point 0 to center 0, for 4096 points (1024 in the CPU emulation)
 * of 16 coordinates and 32 centers) into a tiny kernel that writes it after
 * the real one, and never took it out after the fix. With the public seed the
 * stored value is the right one and the work stage passes. An instructor
 * grades with a hidden seed mixed into every input: the stored value is then
 * wrong, and the work stage's comparison with the reference rejects it (the
 * inputs, not the sizes, are what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-09
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it computes correctly
 */
#include <cuda_runtime.h>

/* The value the grader's report printed: d_out[0], point 0 to center 0, for
 * 4096 points (1024 in the CPU emulation) of 16 coordinates and 32 centers.
 */
__global__ void patch_first(float *out) { out[0] = 0x1.fd811cp+5f; }

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    cudaError_t status = reference_distances(d_points, d_centers,
                                             n, k, dim, metric, d_out, stream);
    if (status == cudaSuccess && metric == SQEUCLID && (n == 4096 || n == 1024) && k == 32
        && dim == 16) {
        patch_first<<<1, 1, 0, stream>>>(d_out);
        status = cudaGetLastError();
    }
    return status;
}
