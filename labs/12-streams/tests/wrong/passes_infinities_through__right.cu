/* WRONG ON PURPOSE: the kernel leaves non-finite inputs as they are ("f of
 * NaN is NaN anyway, so skip the loop"). For NaN that happens to be right,
 * and for -Inf too; but f(+Inf) is NaN: the first step is
 * fmaf(-Inf, Inf, Inf) = -Inf + Inf. The work stage has no Inf; the edge
 * values in right do.
 * BUILDS-ON: the reference
 * EDIT: s/    if (i < count) data\[i\] = f(data\[i\]);/    if (i < count \&\& isfinite(data[i])) data[i] = f(data[i]);/
 * REPORT-SAYS: NaN or Inf where f gives none
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
