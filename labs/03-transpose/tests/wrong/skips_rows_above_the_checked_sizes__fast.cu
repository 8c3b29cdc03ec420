/* WRONG ON PURPOSE: the reference's padded-tile transpose, right at every
 * size the grader checks on the CPU (the largest has about 4 million
 * elements), lazy above: for a matrix of more than 2^24 elements it
 * transposes only the top half of the rows, and is timed at half the
 * cost. Every timed call (8192 x 8192) is compared with the baseline's
 * answer on the same input; half of each output row still holds the
 * grader's poison, and the stage fails with "the timed calls computed a
 * wrong answer".
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <cuda_runtime.h>

static const int TILE = 32, ROWS = 8;

/* The reference's kernel, with the rows it covers as a separate bound. */
__global__ void transpose_padded(const float *in, float *out, int rows, int rows_done, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tiles_down = (rows_done - 1) / TILE + 1, c0 = blockIdx.x * TILE;
    int x = threadIdx.x, y = threadIdx.y;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS) {
            int r = r0 + y + k, c = c0 + x;
            if (r < rows_done && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS) {
            int out_row = c0 + y + k, out_col = r0 + x;
            if (out_row < cols && out_col < rows_done)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
        }
        if (t + (int)gridDim.y < tiles_down) __syncthreads();
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int rows_done = (size_t)rows * cols > ((size_t)1 << 24) ? rows / 2 : rows;
    int tiles_down = (rows_done + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < 65535 ? tiles_down : 65535);
    transpose_padded<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, rows_done, cols);
    return cudaGetLastError();
}
