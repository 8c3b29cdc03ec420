/* WRONG ON PURPOSE: an inclusive scan: out[i] = in[0] + ... + in[i], the
 * element itself included, so every output is off by in[i] and out[0] is
 * in[0] instead of 0. The reference with each thread's scan of its uint4
 * made inclusive. Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: s/x\[j\]\[0\] = 0, x\[j\]\[1\] = a, x\[j\]\[2\] = a + b, x\[j\]\[3\] = a + b + c;/x[j][0] = a, x[j][1] = a + b, x[j][2] = a + b + c, x[j][3] = a + b + c + d;/
 * REPORT-SAYS: exclusive means out[i] sums in[0..i-1]
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
