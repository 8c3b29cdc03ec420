/* WRONG ON PURPOSE: the reference without its join: the chunks run on the
 * call's own streams and the given stream never waits for them. The call
 * returns, the grader waits for the given stream alone (done almost at
 * once) and reads h_out while the copies back are still on their way:
 * the elements that arrive later are reported as written after the stream
 * was done. (The timing would not see that work either: its events are on
 * the given stream.)
 * EMULATION: pass pass: the emulation runs every operation the moment it is queued, so all the work is done before the call returns
 * BUILDS-ON: the reference
 * EDIT: /if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined\[s\], 0);/d
 * REPORT-SAYS: were written after the stream you were given was done
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
