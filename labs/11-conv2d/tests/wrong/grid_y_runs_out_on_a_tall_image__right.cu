/* WRONG ON PURPOSE: one thread per output with the filter in __constant__
 * memory, right on every image but a tall one: the grid puts the blocks
 * of 8 rows on y, and a grid's y side holds at most 65535 blocks, so an
 * image of more than 524280 rows is refused at launch
 * (cudaErrorInvalidConfiguration).
 * Must first fail the right stage.
 * REPORT-SAYS: grid y and z at most 65535
 * SMALLEST: it needs more rows than a grid's y dimension holds tiles of
 */
#include <cuda_runtime.h>

__constant__ float c_filter[15 * 15];

__global__ void conv2d_kernel(const float *in, float *out, int rows, int cols, int radius)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int i = -radius; i <= radius; i++) {
        int r = row + i;
        if (r < 0 || r >= rows) continue;
        for (int j = -radius; j <= radius; j++) {
            int c = col + j;
            if (c < 0 || c >= cols) continue;
            sum += c_filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    size_t width = 2 * (size_t)radius + 1;
    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter, d_filter, width * width * sizeof(float), 0,
                                              cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, radius);
    return cudaGetLastError();
}
