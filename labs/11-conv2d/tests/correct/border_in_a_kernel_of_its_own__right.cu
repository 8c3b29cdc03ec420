/* CORRECT, in an unusual way: the border is a kernel of its own. An
 * output at least radius rows and columns away from every edge has its
 * whole window inside the image, so the interior kernel sums it with no
 * bounds test at all; a second kernel, over the whole image, leaves at
 * once for the interior outputs and computes only the frame of width
 * radius, testing every neighbour. Both walk a flat index with a
 * grid-stride loop (a tall or wide image needs no 2-D grid), and both
 * read the filter from __constant__ memory, copied once per call with
 * cudaMemcpyToSymbolAsync on the caller's stream, before either kernel.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define MAX_W 15
#define BLOCKS 1024
#define THREADS 256

__constant__ float c_filter[MAX_W * MAX_W];

/* Rows [radius, rows - radius) x columns [radius, cols - radius): no test. */
__global__ void interior(const float *in, float *out, int rows, int cols, int radius)
{
    int w = 2 * radius + 1, irows = rows - 2 * radius, icols = cols - 2 * radius;
    size_t count = (size_t)irows * icols;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < count;
         t += (size_t)gridDim.x * blockDim.x) {
        int r = radius + (int)(t / icols), c = radius + (int)(t % icols);
        const float *corner = in + (size_t)(r - radius) * cols + (c - radius);
        float acc = 0.0f;
        for (int i = 0; i < w; i++)
            for (int j = 0; j < w; j++) acc += c_filter[i * w + j] * corner[(size_t)i * cols + j];
        out[(size_t)r * cols + c] = acc;
    }
}

/* Every output within radius of an edge, neighbours outside the image 0. */
__global__ void border(const float *in, float *out, int rows, int cols, int radius)
{
    int w = 2 * radius + 1;
    size_t count = (size_t)rows * cols;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < count;
         t += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(t / cols), c = (int)(t % cols);
        if (r >= radius && r < rows - radius && c >= radius && c < cols - radius) continue;
        float acc = 0.0f;
        for (int i = -radius; i <= radius; i++) {
            if (r + i < 0 || r + i >= rows) continue;
            for (int j = -radius; j <= radius; j++)
                if (c + j >= 0 && c + j < cols)
                    acc += c_filter[(i + radius) * w + j + radius] * in[(size_t)(r + i) * cols + c + j];
        }
        out[t] = acc;
    }
}

static unsigned blocks_for(size_t count)
{
    size_t b = (count + THREADS - 1) / THREADS;
    return (unsigned)(b < BLOCKS ? b : BLOCKS);
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    int w = 2 * radius + 1;
    cudaError_t err = cudaMemcpyToSymbolAsync(c_filter, d_filter, (size_t)w * w * sizeof(float), 0,
                                              cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess) return err;
    if (rows > 2 * radius && cols > 2 * radius) {
        size_t inner = (size_t)(rows - 2 * radius) * (cols - 2 * radius);
        interior<<<blocks_for(inner), THREADS, 0, stream>>>(d_in, d_out, rows, cols, radius);
        if ((err = cudaGetLastError()) != cudaSuccess) return err;
    }
    border<<<blocks_for((size_t)rows * cols), THREADS, 0, stream>>>(d_in, d_out, rows, cols, radius);
    return cudaGetLastError();
}
