/* WRONG ON PURPOSE (slow, not wrong): instead of making the given stream
 * wait for its streams, the call waits on the host with
 * cudaDeviceSynchronize(). The answer is right, but the call is no longer
 * asynchronous, and a device-wide wait also waits for the legacy default
 * stream, which the grader holds during every call as a busy program
 * might: each call pays for the hold (milliseconds) on top of its work,
 * and falls far below the bound.
 * BUILDS-ON: the reference
 * EDIT: s/if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined\[s\], 0);/if (e == cudaSuccess) e = cudaDeviceSynchronize();/
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
