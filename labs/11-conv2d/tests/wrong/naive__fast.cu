/* WRONG ON PURPOSE: right everywhere, and the baseline itself
 * (labs/11-conv2d/trusted/lab.cu): one thread per output, the filter and
 * the image read from global memory for every term, the radius a run-time
 * value. Not faster than itself.
 * Must first fail the fast stage (on a GPU).
 * REPORT-SAYS: a loop the compiler can unroll
 */
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float *in, float *out, int rows, int cols,
                              const float *filter, int radius, int row0)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int i = -radius; i <= radius; i++) {
        int r = row + i;
        if (r < 0 || r >= rows) continue;
        for (int j = -radius; j <= radius; j++) {
            int c = col + j;
            if (c < 0 || c >= cols) continue;
            sum += filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    const int rows_per_launch = 8 * 65535;
    for (int row0 = 0; row0 < rows; row0 += rows_per_launch) {
        int n = rows - row0 < rows_per_launch ? rows - row0 : rows_per_launch;
        dim3 block(32, 8), grid((cols + 31) / 32, (n + 7) / 8);
        conv2d_kernel<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius, row0);
    }
    return cudaGetLastError();
}
