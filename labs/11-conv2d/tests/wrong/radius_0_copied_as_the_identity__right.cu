/* WRONG ON PURPOSE: "a filter of radius 0 is a single tap: the identity",
 * so radius 0 skips the kernel and copies d_in to d_out with
 * cudaMemcpyAsync on the stream. But the single tap is filter[0][0], any
 * number, and out[r][c] = filter[0][0] * in[r][c]: the copy is right only
 * when that tap is 1. Every other radius goes through one thread per
 * output, the filter in __constant__ memory, zero padding, a flat grid.
 * The work stage has radii 1 to 3 only; right has 1 x 1 and 100 x 100 at
 * radius 0.
 * Must first fail the right stage.
 */
#include <cuda_runtime.h>

#define MAX_W 15

__constant__ float c_filter[MAX_W * MAX_W];

__global__ void conv_kernel(const float *in, float *out, int rows, int cols, int radius)
{
    int w = 2 * radius + 1;
    size_t count = (size_t)rows * cols;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < count;
         t += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(t / cols), c = (int)(t % cols);
        float acc = 0.0f;
        for (int i = -radius; i <= radius; i++)
            for (int j = -radius; j <= radius; j++)
                if (r + i >= 0 && r + i < rows && c + j >= 0 && c + j < cols)
                    acc += c_filter[(i + radius) * w + (j + radius)] * in[(size_t)(r + i) * cols + c + j];
        out[t] = acc;
    }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (radius == 0) /* "the identity": forgets the tap's value */
        return cudaMemcpyAsync(d_out, d_in, (size_t)rows * cols * sizeof(float),
                               cudaMemcpyDeviceToDevice, stream);
    int w = 2 * radius + 1;
    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter, d_filter, (size_t)w * w * sizeof(float), 0,
                                              cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    size_t blocks = ((size_t)rows * cols + 255) / 256;
    conv_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(d_in, d_out, rows, cols,
                                                                            radius);
    return cudaGetLastError();
}
