/* lab.cu - lab 11's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against. Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream);
extern "C" const lab_spec LAB_11_CONV2D;

/* The runner hands over the device buffers in the order of the spec's
 * buffer list (d_in, d_out, d_filter) and the sizes in the order of its
 * dims (rows, cols, radius). */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return conv2d((const float *)d[0], (float *)d[1], (int)dims[0], (int)dims[1],
                  (const float *)d[2], (int)dims[2], (cudaStream_t)stream);
}

/* The baseline: right, and the first thing one writes. One thread per
 * output out[row][col]; a block of 32 x 8 threads covers 8 rows of 32
 * columns, so a warp is 32 neighbours of one row. For each of the
 * (2 radius + 1)^2 terms a thread loads the filter word from global memory
 * (the same address for the whole warp: one transaction, a broadcast from
 * L1) and one image value (32 consecutive floats for the warp: one
 * coalesced line, shifted by j). Every image value is loaded by
 * (2 radius + 1)^2 threads; only the L1 and L2 caches keep those loads from
 * going to DRAM, and every FMA waits on two loads and an index computation.
 * The radius is a run-time value, so nothing is unrolled. The grid's y
 * side holds the row blocks, which the fast stage's 8192 rows (1024 blocks)
 * never bring near 65535; the right stage's tall image is split into
 * several launches. */
__global__ static void conv2d_naive(const float *in, float *out, int rows, int cols,
                                    const float *filter, int radius, int row0)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int i = -radius; i <= radius; i++) {
        int r = row + i;
        if (r < 0 || r >= rows) continue; /* zero padding: nothing to add */
        for (int j = -radius; j <= radius; j++) {
            int c = col + j;
            if (c < 0 || c >= cols) continue;
            sum += filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int rows = (int)dims[0], cols = (int)dims[1], radius = (int)dims[2];
    if (rows == 0 || cols == 0) return cudaSuccess;
    const int max_row_blocks = 65535, rows_per_launch = 8 * max_row_blocks;
    for (int row0 = 0; row0 < rows; row0 += rows_per_launch) {
        int n = rows - row0 < rows_per_launch ? rows - row0 : rows_per_launch;
        dim3 block(32, 8), grid((cols + 31) / 32, (n + 7) / 8);
        conv2d_naive<<<grid, block, 0, (cudaStream_t)stream>>>(
            (const float *)d[0], (float *)d[1], rows, cols, (const float *)d[2], radius, row0);
    }
    return cudaGetLastError();
}

/* No vendor library: the roof is the same-run copy bandwidth (ROOF_COPY). */
extern "C" const lab_device LAB_DEVICE = {&LAB_11_CONV2D, call_submission, call_baseline, NULL, NULL, 0};
