/* WRONG ON PURPOSE: the loop over chunks stops at the last whole chunk, so
 * when the chunk does not divide n the last n % chunk elements are never
 * computed. The work stage's sizes are multiples of the chunk; right's
 * 4099 elements in slots of 256 are not.
 * BUILDS-ON: the reference
 * EDIT: s/for (size_t at = 0; at < n \&\& e == cudaSuccess; at += chunk, c++)/for (size_t at = 0; at + chunk <= n \&\& e == cudaSuccess; at += chunk, c++)/
 * REPORT-SAYS: the last, shorter chunk
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
