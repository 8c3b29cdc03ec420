/* WRONG ON PURPOSE: the reference without the __syncthreads() between
 * storing a tile to shared memory and loading fragments from it: a warp
 * reads rows of the tile that other warps have not stored yet (the stage
 * of two tiles back, or nothing at all on the first).
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: /^            __syncthreads();$/d
 */
extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    return reference_hgemm(d_a, d_b, d_c, m, n, k, stream);
}
