/* WRONG ON PURPOSE: d_work is cut into slots of work_elems / slots rounded
 * UP, so when the slots do not divide work_elems the last slot runs past
 * the end of d_work. The work stage's work_elems are multiples of four;
 * right's 7 are not: the fourth slot is d_work[6..8), one float too far.
 * EMULATION: pass fail: the emulation's right stage gives d_work exactly its size, so the copy past the end is refused (cudaErrorInvalidValue) instead of landing in the guard bytes
 * BUILDS-ON: the reference
 * EDIT: s/    size_t chunk = work_elems \/ slots;/    size_t chunk = (work_elems + slots - 1) \/ slots;/
 * REPORT-SAYS: wrote past the end of d_work
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
