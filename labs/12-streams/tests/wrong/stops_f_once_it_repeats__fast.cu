/* WRONG ON PURPOSE (slow, not wrong): the reference, but f stops as soon
 * as a step gives back the y it was given. From then on every step would
 * give that y again, so the answers are f's to the bit, and it passes work
 * and right. The idea: the iteration contracts towards its fixed point
 * (trusted/pipeline_f.h), so most of the 1024 steps look wasted. Measured
 * on an H200 (2026-12-02, two gradings): 13.2 ms per call, 39.6% of the
 * bound and 1.14x over the serial baseline, against the reference's
 * 6.1 ms. The shortcut does not pay. Why was not measured; the likely
 * causes: every step now costs a compare and a branch beside its two
 * arithmetic instructions, and a warp runs until its last thread exits
 * (a NaN never equals itself; rounding may keep y moving between two
 * neighbours). The lab's lesson, the overlap, is untouched.
 * Must first fail the fast stage.
 * BUILDS-ON: the reference
 * EDIT: s|    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f \* y, y, x);|    for (int k = 0; k < PIPELINE_F_STEPS; k++) { float next = fmaf(-0.25f * y, y, x); if (next == y) break; y = next; }|
 */
#include <cuda_runtime.h>

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
