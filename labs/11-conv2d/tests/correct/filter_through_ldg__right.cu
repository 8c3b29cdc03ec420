/* CORRECT, UNUSUAL: a shared tile with its halo, one output per thread,
 * and the filter NOT in __constant__ memory: it is read straight from
 * d_filter through the read-only data cache (const __restrict__ and
 * __ldg). All threads of a warp load the same word, which the cache serves
 * once; it works, it just uses the L1 path that the tile's loads also
 * need, where constant memory has its own cache and broadcast. Nothing is
 * copied, so there is no stream ordering to get wrong.
 */
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define MAX_R 7

__global__ void conv2d_ldg_filter(const float *__restrict__ in, float *__restrict__ out,
                                  int rows, int cols, const float *__restrict__ filter,
                                  int radius, int col_tiles)
{
    __shared__ float tile[(BY + 2 * MAX_R) * (BX + 2 * MAX_R)];
    int sw = BX + 2 * radius, sh = BY + 2 * radius, width = 2 * radius + 1;
    int row0 = (blockIdx.x / col_tiles) * BY, col0 = (blockIdx.x % col_tiles) * BX;
    for (int k = threadIdx.y * BX + threadIdx.x; k < sw * sh; k += BX * BY) {
        int r = row0 - radius + k / sw, c = col0 - radius + k % sw;
        tile[k] = (r >= 0 && r < rows && c >= 0 && c < cols) ? __ldg(&in[(size_t)r * cols + c]) : 0.0f;
    }
    __syncthreads();
    int row = row0 + threadIdx.y, col = col0 + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int i = 0; i < width; i++)
        for (int j = 0; j < width; j++)
            sum += __ldg(&filter[i * width + j]) * tile[(threadIdx.y + i) * sw + threadIdx.x + j];
    out[(size_t)row * cols + col] = sum;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int col_tiles = (cols + BX - 1) / BX, row_tiles = (rows + BY - 1) / BY;
    conv2d_ldg_filter<<<(unsigned)col_tiles * (unsigned)row_tiles, dim3(BX, BY), 0, stream>>>(
        d_in, d_out, rows, cols, d_filter, radius, col_tiles);
    return cudaGetLastError();
}
