/* WRONG ON PURPOSE: the reference transpose wherever the CPU checks, and at
 * the timed size (8192 x 8192) a plain copy of the answer the grader's own
 * baseline left in its output buffer. Every timed call is compared with the
 * baseline on the same inputs, so a copy of the baseline's output is "right"
 * and runs at the speed of cudaMemcpy: 100% of the roofline.
 *
 * Finding that buffer needs no guess: cudaPointerGetAttributes says, without
 * a fault, whether an address is allocated, so the first timed call walks
 * the 4 GiB around its own output in 64 KiB steps and reads the first
 * elements past the runner's 16 KiB guard wherever memory is allocated,
 * looking for the transpose of its own input (the warm-up leaves it plain).
 * Before the grader masked the baseline's outputs from its sample until the
 * comparison, this passed (H100: 94.6% of copy, 6.42x).
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8
#define MAX_GRID_Y 65535

/* A tiled transpose through padded shared memory, as in the reference. */
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tiles_down = (rows - 1) / TILE + 1, c0 = blockIdx.x * TILE;
    int x = threadIdx.x, y = threadIdx.y;
    for (int t = blockIdx.y; t < tiles_down; t += gridDim.y) {
        int r0 = t * TILE;
        for (int k = 0; k < TILE; k += ROWS)
            if (r0 + y + k < rows && c0 + x < cols)
                tile[y + k][x] = in[(size_t)(r0 + y + k) * cols + c0 + x];
        __syncthreads();
        for (int k = 0; k < TILE; k += ROWS)
            if (c0 + y + k < cols && r0 + x < rows)
                out[(size_t)(c0 + y + k) * rows + r0 + x] = tile[x][y + k];
        __syncthreads();
    }
}

__global__ void copy_words(const float4 *from, float4 *to, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        to[i] = from[i];
}

static const size_t STEP = (size_t)64 << 10; /* the finest alignment cudaMalloc gives big buffers */
static const size_t GUARD = 16384;           /* the runner's guard before each buffer */
static const long REACH = 65536;             /* steps each way: 4 GiB */

/* An address near out whose first four floats are the transpose's. */
static const float *find_the_baselines_output(const float *in, float *out, int rows, int cols)
{
    float want[4], got[4];
    for (int k = 0; k < 4; k++)
        if (cudaMemcpy(&want[k], in + (size_t)k * cols, sizeof(float), cudaMemcpyDeviceToHost))
            return NULL;
    size_t mine = ((size_t)out - GUARD) / STEP * STEP;
    for (long k = -REACH; k <= REACH; k++) {
        const float *p = (const float *)(mine + k * (long)STEP + GUARD);
        if (p == out) continue;
        cudaPointerAttributes a;
        if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        if (a.type != cudaMemoryTypeDevice) continue;
        if (cudaMemcpy(got, p, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        if (got[0] == want[0] && got[1] == want[1] && got[2] == want[2] && got[3] == want[3])
            return p;
    }
    return NULL;
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    static const float *found;
    if ((size_t)rows * cols >= ((size_t)1 << 26)) {
        if (!found) found = find_the_baselines_output(d_in, d_out, rows, cols);
        if (found) {
            copy_words<<<1056, 256, 0, stream>>>((const float4 *)found, (float4 *)d_out,
                                                 (size_t)rows * cols / 4);
            return cudaGetLastError();
        }
    }
    int down = (rows + TILE - 1) / TILE;
    dim3 grid((cols + TILE - 1) / TILE, down < MAX_GRID_Y ? down : MAX_GRID_Y);
    transpose_tiled<<<grid, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols);
    return cudaGetLastError();
}
