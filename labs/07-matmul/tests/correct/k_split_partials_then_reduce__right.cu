/* CORRECT, in an unusual way: k is split into up to 4 slices and the work
 * is done in two kernels. The first is the 16 x 16 shared-tile product,
 * but blockIdx.z picks a slice of k, and each slice writes its own partial
 * C into a buffer the call allocates on the stream (cudaMallocAsync, one
 * m x n matrix per slice); the second kernel adds the slices of every
 * element into d_c, and the buffer is freed on the stream. Each C[i][j] is
 * still a float sum of its k products, only in another order (each slice's
 * sum, then the slices), which the error bound allows. With k == 0 there
 * is one empty slice, so the zeros are written all the same. Tile rows of
 * C are on the grid's x side (any m fits); tile columns on y, looped.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define TILE 16
#define MAX_SLICES 4

__global__ void slice_products(const float *a, const float *b, float *part, int m, int n,
                               int k, int slice_len)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * TILE + ty;
    int p_begin = blockIdx.z * slice_len;
    int p_end = p_begin + slice_len < k ? p_begin + slice_len : k;
    float *out = part + (size_t)blockIdx.z * m * n;
    for (int ct = blockIdx.y; ct * TILE < n; ct += gridDim.y) {
        int col = ct * TILE + tx;
        float acc = 0.0f;
        for (int p0 = p_begin; p0 < p_end; p0 += TILE) {
            as[ty][tx] = row < m && p0 + tx < p_end ? a[(size_t)row * k + p0 + tx] : 0.0f;
            bs[ty][tx] = p0 + ty < p_end && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
            __syncthreads();
            for (int q = 0; q < TILE; q++) acc += as[ty][q] * bs[q][tx];
            __syncthreads();
        }
        if (row < m && col < n) out[(size_t)row * n + col] = acc;
    }
}

__global__ void add_slices(const float *part, float *c, size_t count, int slices)
{
    for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < count;
         e += (size_t)gridDim.x * blockDim.x) {
        float sum = part[e];
        for (int s = 1; s < slices; s++) sum += part[(size_t)s * count + e];
        c[e] = sum;
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int slices = (k + 63) / 64;
    if (slices > MAX_SLICES) slices = MAX_SLICES;
    if (slices < 1) slices = 1;
    int slice_len = (k + slices - 1) / slices;
    slice_len = (slice_len + TILE - 1) / TILE * TILE; /* whole tiles per slice */
    size_t count = (size_t)m * n;
    float *part = NULL;
    cudaError_t e = cudaMallocAsync(&part, count * slices * sizeof(float), stream);
    if (e != cudaSuccess) return e;
    int col_tiles = (n + TILE - 1) / TILE;
    dim3 grid((m + TILE - 1) / TILE, col_tiles < 65535 ? col_tiles : 65535, slices);
    slice_products<<<grid, dim3(TILE, TILE), 0, stream>>>(d_a, d_b, part, m, n, k, slice_len);
    e = cudaGetLastError();
    if (e == cudaSuccess) {
        size_t blocks = (count + 255) / 256;
        add_slices<<<(unsigned)(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(part, d_c,
                                                                                   count, slices);
        e = cudaGetLastError();
    }
    cudaError_t freed = cudaFreeAsync(part, stream);
    return e != cudaSuccess ? e : freed;
}
