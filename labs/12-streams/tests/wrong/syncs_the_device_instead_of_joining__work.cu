/* WRONG ON PURPOSE: instead of making the given stream wait for its
 * streams, the call waits on the host with cudaDeviceSynchronize(). The
 * answer is right, and on an idle H100 it is even about as fast as the
 * reference (83 to 86% of the bound when it was allowed), because every
 * part is done when the call returns; but the call is no longer
 * asynchronous: a program that queues other work behind it, or runs it
 * beside other streams, loses the overlap the lab is about, and a
 * device-wide wait hides work left on unjoined streams. The lab's
 * contract rules it out, and the build refuses it.
 * Must first fail the work stage (rejected before running).
 * REPORT-SAYS: the call must not wait for the whole GPU
 * BUILDS-ON: the reference
 * EDIT: s/if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined\[s\], 0);/if (e == cudaSuccess) e = cudaDeviceSynchronize();/
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
