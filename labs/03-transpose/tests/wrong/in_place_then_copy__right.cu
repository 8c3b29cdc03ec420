/* WRONG ON PURPOSE: for square matrices it transposes the input in place
 * (swapping each element above the diagonal with its mirror) and copies
 * the result to the output; rectangular ones go through a naive kernel.
 * Every output is right, but d_in is read-only: the right stage checks
 * that the input comes back unchanged (the work stage only notes it).
 * Must first fail the right stage.
 * REPORT-SAYS: d_in is read-only: transposing
 */
#include <cuda_runtime.h>

__global__ void swap_across_diagonal(float *a, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n && r < c) {
        float t = a[(size_t)r * n + c];
        a[(size_t)r * n + c] = a[(size_t)c * n + r];
        a[(size_t)c * n + r] = t;
    }
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += gridDim.y * blockDim.y)
        if (c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows == cols) {
        int n = rows;
        dim3 grid((n + 31) / 32, (n + 7) / 8);
        swap_across_diagonal<<<grid, dim3(32, 8), 0, stream>>>(const_cast<float *>(d_in), n);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        return cudaMemcpyAsync(d_out, d_in, (size_t)n * n * sizeof(float),
                               cudaMemcpyDeviceToDevice, stream);
    }
    int blocks_down = (rows + 7) / 8;
    dim3 grid((cols + 31) / 32, blocks_down < 65535 ? blocks_down : 65535);
    transpose_naive<<<grid, dim3(32, 8), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
