/* WRONG ON PURPOSE (too slow where it was not tuned): the reference for
 * radius 0 and 1, the size the first timing uses, and a plain one thread
 * per output kernel, the filter and the image read from global memory, for
 * every larger radius. Right everywhere, and fast at radius 1; at radius 7,
 * where each output is 225 multiply-adds, it is the baseline again. The
 * fast stage times radius 7 too, and judges it on its own bar.
 * Must first fail the fast stage (on a GPU).
 * BUILDS-ON: the reference
 * REPORT-SAYS: at radius 7
 */
__global__ void conv2d_plain(const float *in, float *out, int rows, int cols,
                             const float *filter, int radius)
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
            sum += filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (radius <= 1 || rows == 0 || cols == 0)
        return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
    /* Every image the grader uses fits a grid of 8-row blocks here except
     * the very tallest, which the reference takes. */
    if ((rows + 7) / 8 > 65535)
        return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_plain<<<grid, block, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius);
    return cudaGetLastError();
}
