/* WRONG ON PURPOSE: the reference, except that above 2^25 elements (only
 * the fast stage's size) it leaves out the last chunk: right everywhere
 * the CPU checks, a little faster where it is timed. Every timed call is
 * checked against the baseline's answer on the same inputs.
 * BUILDS-ON: the reference
 * EDIT: s/for (size_t at = 0; at < n \&\& e == cudaSuccess; at += chunk, c++)/for (size_t at = 0; at < (n > ((size_t)1 << 25) ? n - chunk : n) \&\& e == cudaSuccess; at += chunk, c++)/
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
