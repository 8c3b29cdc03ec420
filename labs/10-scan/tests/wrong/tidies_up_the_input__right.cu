/* WRONG ON PURPOSE: the right answer, then d_in is "tidied up" to zeros:
 * the input belongs to the grader. Must first fail the right stage: work
 * does not look at the inputs after the call, right does.
 * BUILDS-ON: the reference
 * REPORT-SAYS: d_in is read-only
 */
__global__ void zero_input(unsigned *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) in[i] = 0;
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    cudaError_t e = reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
    if (e != cudaSuccess || n == 0) return e;
    zero_input<<<(n + 255) / 256, 256, 0, stream>>>((unsigned *)d_in, n);
    return cudaGetLastError();
}
