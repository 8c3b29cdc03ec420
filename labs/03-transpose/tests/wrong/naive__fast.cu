/* WRONG ON PURPOSE (slow): the naive transpose, one thread per element.
 * Right everywhere (a loop over rows covers matrices too tall for
 * grid.y), reads coalesced, but each warp's write scatters over 32 rows of
 * the output: 32 sectors for 128 useful bytes. It is the fast stage's own
 * baseline, so its speedup is about 1x.
 * Must first fail the fast stage. */
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += gridDim.y * blockDim.y)
        if (c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int blocks_down = (rows + 7) / 8;
    dim3 grid((cols + 31) / 32, blocks_down < 65535 ? blocks_down : 65535);
    transpose_kernel<<<grid, dim3(32, 8), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
