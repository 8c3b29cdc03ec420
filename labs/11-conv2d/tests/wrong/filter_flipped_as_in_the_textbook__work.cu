/* WRONG ON PURPOSE: a textbook convolution, with the filter flipped:
 * out[r][c] = sum filter[radius - i][radius - j] * in[r + i][c + j], as a
 * signal-processing course defines it. The contract does not flip the
 * filter (image processing and neural networks call the unflipped sum a
 * convolution too). A symmetric filter could not tell the two apart; the
 * grader's are random. A grid-stride loop over the outputs, the filter in __constant__
 * memory copied on the stream, zero padding, every guard in place.
 * Must first fail the work stage.
 * REPORT-SAYS: check the filter's row (i, along rows) and column (j)
 */
#include <cuda_runtime.h>

#define MAX_W 15

__constant__ float c_filter[MAX_W * MAX_W];

__global__ void conv_flipped(const float *in, float *out, int rows, int cols, int radius)
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
                    acc += c_filter[(radius - i) * w + (radius - j)] * in[(size_t)(r + i) * cols + c + j];
        out[t] = acc;
    }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int w = 2 * radius + 1;
    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter, d_filter, (size_t)w * w * sizeof(float), 0,
                                              cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    size_t blocks = ((size_t)rows * cols + 255) / 256;
    conv_flipped<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>(d_in, d_out, rows, cols,
                                                                             radius);
    return cudaGetLastError();
}
