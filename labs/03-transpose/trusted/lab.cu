/* lab.cu - lab 03's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, and the naive baseline the
 * fast stage compares against. Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream);
extern "C" const lab_spec LAB_03_TRANSPOSE;

static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return transpose((const float *)d[0], (float *)d[1], (int)dims[0], (int)dims[1],
                     (cudaStream_t)stream);
}

/* The baseline (rung v1 of the solution ladder): one thread per element,
 * 32 x 8 threads per block, threadIdx.x running along a row of the input.
 * A warp reads 32 neighbours of one input row: one 128-byte request,
 * coalesced. It writes them to 32 different rows of the output, rows * 4
 * bytes apart: 32 separate 32-byte sectors for 128 useful bytes, so the
 * writes move four times the data they need and the memory system spends
 * its time on partial sectors (about 16% of copy bandwidth on an H100).
 * Used only at the timed size, where the grid fits (rows / 8 <= 65535). */
__global__ static void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int rows = (int)dims[0], cols = (int)dims[1];
    if (rows == 0 || cols == 0) return cudaSuccess;
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_naive<<<grid, block, 0, (cudaStream_t)stream>>>((const float *)d[0],
                                                              (float *)d[1], rows, cols);
    return cudaGetLastError();
}

extern "C" const lab_device LAB_DEVICE = {&LAB_03_TRANSPOSE, call_submission, call_baseline,
                                          NULL, NULL, 0};
