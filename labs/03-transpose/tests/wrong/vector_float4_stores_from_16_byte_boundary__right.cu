/* WRONG ON PURPOSE: a matrix with one row or one column is a vector, and
 * its transpose is the same floats in the same order, so it takes a
 * shortcut: a copy with float4 stores. d_out is only 4-byte aligned, so
 * the float4 slots start at the 16-byte boundary at or below d_out; the
 * loads are scalar and guarded (0 <= i < n), the last slot, which may
 * reach past the end, is stored float by float, but the first slot is
 * stored whole: when d_out is not 16-byte aligned, up to 3 zeros land in
 * front of it. Every element of d_out is right, and so is the 2-D kernel
 * (32 x 32 shared tiles, padded). Work has no vectors and aligned
 * pointers, so it passes; right's 1 x 1, 1 x 1000, ... with d_out offset
 * by 4, 8 or 12 bytes write into the guard bytes in front of d_out.
 * REPORT-SAYS: a write in front of d_out
 */
#include <stdint.h>

#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define MAX_GRID_Y 65535

/* The 2-D case: one 32 x 32 tile per block, staged in shared memory
 * padded to 33 columns; the load guarded by the input's bounds, the store
 * by the output's. Tall matrices loop over tile rows (grid.y <= 65535). */
__global__ void transpose_tiles(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int c0 = blockIdx.x * TILE;
    int tiles_down = (rows + TILE - 1) / TILE;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS) {
            int r = r0 + y + k, c = c0 + x;
            if (r < rows && c < cols) tile[y + k][x] = in[(size_t)r * cols + c];
        }
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS) {
            int out_row = c0 + y + k, out_col = r0 + x;
            if (out_row < cols && out_col < rows)
                out[(size_t)out_row * rows + out_col] = tile[x][y + k];
        }
        __syncthreads(); /* everyone done with the tile before it is reused */
    }
}

/* The vector case: thread s owns the s-th aligned float4 slot from the
 * 16-byte boundary at or below out, that is out[4 s - lead .. 4 s - lead + 3]
 * (lead: the floats between that boundary and out, 0 to 3). */
__global__ void copy_vector_float4(const float *in, float *out, int n, int lead)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    int first = 4 * s - lead; /* the slot's first element; negative in slot 0 when lead > 0 */
    if (first >= n) return;
    float v[4];
    for (int q = 0; q < 4; q++) {
        int i = first + q;
        v[q] = i >= 0 && i < n ? in[i] : 0.0f;
    }
    if (first + 4 <= n) {
        /* The mistake: "the slot is aligned, so it may be stored whole";
         * only its end was checked, and slot 0 begins in front of out. */
        reinterpret_cast<float4 *>(out - lead)[s] = make_float4(v[0], v[1], v[2], v[3]);
    } else {
        for (int q = 0; q < 4; q++) /* the last slot, float by float up to n */
            if (first + q < n) out[first + q] = v[q];
    }
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    if (rows == 1 || cols == 1) {
        int n = rows * cols;
        int lead = (int)(((uintptr_t)d_out & 15) / sizeof(float));
        int slots = (lead + n + 3) / 4;
        copy_vector_float4<<<(slots + 255) / 256, 256, 0, stream>>>(d_in, d_out, n, lead);
        return cudaGetLastError();
    }
    int tiles_down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, tiles_down < MAX_GRID_Y ? tiles_down : MAX_GRID_Y);
    transpose_tiles<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
