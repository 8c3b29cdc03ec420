/* CORRECT, in an unusual way: the launch is not made directly but recorded.
 * The given stream is put in capture mode (thread-local, so nothing else
 * in the process is disturbed), the tiled kernel is "launched" into it,
 * which only records it, the capture ends with a graph of one node, and
 * that graph is instantiated and launched on the same stream. The graph
 * and its executable form are destroyed at once: CUDA keeps an executable
 * graph that is still in flight alive until it completes. A 1-D grid of
 * padded 32 x 32 tiles covers any shape. Instantiating a graph on every
 * call costs host time, a few microseconds, which the fast stage's 8192 x
 * 8192 call (about 0.15 ms) hides: on an H200 it reached 83% of copy.
 * Must pass every stage up to and including fast. */
#include <cuda_runtime.h>

#define TILE 32
#define ROWS 8

__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out,
                                 int rows, int cols, int tiles_across)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = threadIdx.x, y = threadIdx.y;
    int r0 = (int)(blockIdx.x / tiles_across) * TILE;
    int c0 = (int)(blockIdx.x % tiles_across) * TILE;
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
}

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int tiles_across = (cols + TILE - 1) / TILE;
    unsigned tiles = (unsigned)tiles_across * (unsigned)((rows + TILE - 1) / TILE);

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaError_t e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return e;
    transpose_kernel<<<tiles, dim3(TILE, ROWS), 0, stream>>>(d_in, d_out, rows, cols,
                                                             tiles_across);
    cudaError_t launched = cudaGetLastError();
    e = cudaStreamEndCapture(stream, &graph);
    if (launched != cudaSuccess) return launched;
    if (e != cudaSuccess) return e;
    e = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) return e;
    e = cudaGraphLaunch(exec, stream);
    cudaGraphExecDestroy(exec);
    return e;
}
