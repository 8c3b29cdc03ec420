/* WRONG ON PURPOSE: one thread per output, with the window's loops running
 * -radius <= i < radius: the last row and the last column of the filter
 * are never used (for radius 0, nothing is: every output is 0).
 * Must first fail the work stage.
 * REPORT-SAYS: the loop bounds (<= radius)
 */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *in, float *out, int rows, int cols,
                              const float *filter, int radius)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int i = -radius; i < radius; i++)
        for (int j = -radius; j < radius; j++) {
            int r = row + i, c = col + j;
            if (r >= 0 && r < rows && c >= 0 && c < cols)
                sum += filter[(i + radius) * width + j + radius] * in[(size_t)r * cols + c];
        }
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius);
    return cudaGetLastError();
}
