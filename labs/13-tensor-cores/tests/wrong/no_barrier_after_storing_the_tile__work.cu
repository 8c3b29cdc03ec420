/* WRONG ON PURPOSE: the reference without the __syncthreads() between
 * storing a tile to shared memory and loading fragments from it: a warp
 * reads rows of the tile that other warps have not stored yet (the stage
 * of two tiles back, or nothing at all on the first).
 * Must first fail the work stage.
 * SMALLEST: the race needs two tiles along k (k >= 32) read by the block's warps: 16 x 32 halves of A and 32 x 16 of B at the least
 * BUILDS-ON: the reference
 * EDIT: /^            __syncthreads();$/d
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
