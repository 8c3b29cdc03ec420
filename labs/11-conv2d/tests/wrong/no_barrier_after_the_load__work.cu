/* WRONG ON PURPOSE: the reference without the __syncthreads() between
 * loading the tile and reading it. A thread reads tile values other warps
 * (on the CPU emulation, other threads) have not stored yet.
 * Must first fail the work stage.
 * BUILDS-ON: the reference
 * EDIT: /^    __syncthreads();$/d
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
