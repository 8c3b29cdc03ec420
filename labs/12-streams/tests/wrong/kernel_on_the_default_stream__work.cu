/* WRONG ON PURPOSE: the kernel is launched without a stream, so it goes to
 * the legacy default stream, while the chunk's copies go to a non-blocking
 * stream of the call's own: nothing orders the kernel after the copy in or
 * before the copy out. The grader holds the legacy default stream during
 * every call (as a busy program might), so the copy out always runs first
 * and brings back the chunk's input or d_work's random bits, never f of it.
 * EMULATION: pass pass: the emulation runs every operation the moment it is queued, in program order, so the kernel always comes between the copies
 * BUILDS-ON: the reference
 * EDIT: s/apply_f<<<(unsigned)((count + 255) \/ 256), 256, 0, s>>>(slot, count);/apply_f<<<(unsigned)((count + 255) \/ 256), 256>>>(slot, count);/
 * REPORT-SAYS: its kernel finished
 * (both hints a copy out too early can get say it: the wrong-value one when
 * the chunk's input comes back, the NaN-or-Inf one when d_work's random
 * bits do, as on an H100 on 2026-11-27)
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
