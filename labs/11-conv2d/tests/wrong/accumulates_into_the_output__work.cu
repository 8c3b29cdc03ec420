/* WRONG ON PURPOSE: one thread per output that adds each product straight
 * into out[r][c], as if the output started at zero. It does not: an output
 * holds whatever was there before the call (the grader fills it with NaN),
 * and an output is only ever written, never read. Sum in a register and
 * store once.
 * Must first fail the work stage.
 * REPORT-SAYS: an output read before it was written
 */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *in, float *out, int rows, int cols,
                              const float *filter, int radius)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float *o = &out[(size_t)row * cols + col];
    for (int i = -radius; i <= radius; i++)
        for (int j = -radius; j <= radius; j++) {
            int r = row + i, c = col + j;
            if (r >= 0 && r < rows && c >= 0 && c < cols)
                *o += filter[(i + radius) * width + j + radius] * in[(size_t)r * cols + c];
        }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius);
    return cudaGetLastError();
}
