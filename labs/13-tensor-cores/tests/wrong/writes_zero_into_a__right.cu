/* WRONG ON PURPOSE: the reference, then a kernel that "tidies up" by
 * writing +0 into the first element of A: the answer is right (C is
 * already computed) but an input changed.
 * Must first fail the right stage (work notes it).
 * BUILDS-ON: the reference
 * REPORT-SAYS: stage tiles in shared memory, never write them back
 */
__global__ void tidy_up(__half *a) { a[0] = __float2half(0.0f); }

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    cudaError_t err = reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
    if (err != cudaSuccess || m == 0 || k == 0) return err;
    tidy_up<<<1, 1, 0, stream>>>(const_cast<__half *>(d_a));
    return cudaGetLastError();
}
