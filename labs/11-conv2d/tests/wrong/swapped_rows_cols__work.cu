/* WRONG ON PURPOSE: one thread per output, with rows used where cols
 * belongs: the row stride is rows, and the bounds tests swap the sides.
 * On a square image both are the same and it is right; on any other it
 * reads and writes the wrong elements.
 * Must first fail the work stage (its images are not all square).
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
    for (int i = -radius; i <= radius; i++)
        for (int j = -radius; j <= radius; j++) {
            int r = row + i, c = col + j;
            if (r >= 0 && r < cols && c >= 0 && c < rows && (size_t)r * rows + c < (size_t)rows * cols)
                sum += filter[(i + radius) * width + j + radius] * in[(size_t)r * rows + c];
        }
    if ((size_t)row * rows + col < (size_t)rows * cols) out[(size_t)row * rows + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius);
    return cudaGetLastError();
}
