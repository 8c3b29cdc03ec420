/* WRONG ON PURPOSE: the reference solution with a leftover patch. While
 * chasing a bug in the histogram, the student copied the expected counts the
 * grader's mismatch report printed for the public seed (bins 200 to 203 at
 * n = 1001) into a tiny kernel that writes them after the real one, and never
 * took it out after the fix. With the public seed the stored counts are the
 * right ones and the work stage passes. An instructor grades with a hidden
 * seed mixed into every input: the stored counts are then wrong, and the work stage's
 * comparison with the reference rejects it (the inputs, not the sizes, are
 * what the student cannot know in advance).
 * INSTRUCTOR-SEED: corpus-06
 * Must first fail the work stage (with the instructor's seed).
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 * SMALLEST: its stored answer fits the graded size only; at every other size it counts correctly
 */
#include <cuda_runtime.h>

/* The counts the grader's report printed for bins 200 .. 203 at n = 1001
 * (and at n = 201, the CPU emulation's first work size), 512 bins, dr = 61/1024. */
static const struct { int n; unsigned int counts[4]; } KNOWN[] = {
    {1001, {2669, 2529, 2539, 2647}}, {201, {114, 99, 103, 109}}};

__global__ void patch_bins(unsigned int *hist, unsigned int a, unsigned int b, unsigned int c,
                           unsigned int d)
{
    hist[200] = a, hist[201] = b, hist[202] = c, hist[203] = d;
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    cudaError_t status = reference_rdf(d_pos, n, bins, dr, d_hist, stream);
    for (const auto &known : KNOWN)
        if (status == cudaSuccess && n == known.n && bins == 512 && dr == 61 / 1024.0f) {
            const unsigned int *c = known.counts;
            patch_bins<<<1, 1, 0, stream>>>(d_hist, c[0], c[1], c[2], c[3]);
            status = cudaGetLastError();
        }
    return status;
}
