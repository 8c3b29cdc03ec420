/* CORRECT, in an unusual way: one thread per COLUMN of a strip of 32 rows,
 * walking down it, instead of one thread per output. Each block first
 * copies the filter from d_filter into shared memory (no __constant__
 * array and no copy to order on the stream), then thread c of the block
 * computes out[r][c] for r = r0, r0 + 1, ..., r0 + 31, reading the window
 * straight from global memory. Neighbouring threads read neighbouring
 * columns, so every load of a warp is coalesced. Strips beyond the grid's
 * y side (65535 of them) are covered by a loop.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define STRIP 32
#define THREADS 128

__global__ void conv_columns(const float *in, float *out, int rows, int cols,
                             const float *filter, int radius)
{
    __shared__ float f[15 * 15];
    int w = 2 * radius + 1;
    for (int t = threadIdx.x; t < w * w; t += blockDim.x) f[t] = filter[t];
    __syncthreads();
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int r0 = blockIdx.y * STRIP; r0 < rows; r0 += gridDim.y * STRIP) {
        int last = min(r0 + STRIP, rows);
        for (int r = r0; r < last; r++) {
            float acc = 0.0f;
            for (int a = 0; a < w; a++) {
                int y = r + a - radius;
                if (y < 0 || y >= rows) continue;
                const float *row = in + (size_t)y * cols;
                for (int b = 0; b < w; b++) {
                    int x = c + b - radius;
                    if (x >= 0 && x < cols) acc += f[a * w + b] * row[x];
                }
            }
            out[(size_t)r * cols + c] = acc;
        }
    }
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int strips = (rows + STRIP - 1) / STRIP;
    dim3 grid((cols + THREADS - 1) / THREADS, strips < 65535 ? strips : 65535);
    conv_columns<<<grid, THREADS, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius);
    return cudaGetLastError();
}
