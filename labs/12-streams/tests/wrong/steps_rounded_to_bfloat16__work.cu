/* WRONG ON PURPOSE: every step of f rounded down to bfloat16 (the low 16
 * bits of the float cleared): "half the bits, twice the speed" does not
 * hold for arithmetic the lab defines in float. The result is off by up to
 * 2^16 ulps, far outside the lab's 4.
 * BUILDS-ON: the reference
 * EDIT: s/for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f \* y, y, x);/for (int k = 0; k < PIPELINE_F_STEPS; k++) y = __uint_as_float(__float_as_uint(fmaf(-0.25f * y, y, x)) \& 0xffff0000u);/
 * REPORT-SAYS: with f exactly as given
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
