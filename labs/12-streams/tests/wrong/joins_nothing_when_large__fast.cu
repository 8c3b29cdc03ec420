/* WRONG ON PURPOSE: the reference, except that at the timed size (above
 * 2^25 elements) it leaves out the join: the given stream, where the
 * grader's timing events are, holds nothing of the work, so the timed call
 * looks almost free while the pipeline runs on unseen. Every checked size
 * joins, so work and right pass. The fast stage sees the GPU still busy
 * long after the timed stream was done (and a speedup no pipeline can
 * reach), and rejects the timing.
 * BUILDS-ON: the reference
 * EDIT: s/    for (size_t s = 0; s < slots \&\& e == cudaSuccess; s++) {/    for (size_t s = 0; s < slots \&\& e == cudaSuccess \&\& n <= ((size_t)1 << 25); s++) {/
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
