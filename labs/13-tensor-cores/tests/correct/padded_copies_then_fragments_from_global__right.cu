/* CORRECT, in an unusual way: the tails and the alignment are dealt with
 * once, up front, instead of in the GEMM. A and B are copied into scratch
 * of their own (cudaMallocAsync on the caller's stream, freed with
 * cudaFreeAsync on it) whose sides are rounded up to multiples of 16 and
 * filled with zeros past m, n and k. The scratch starts 256-byte aligned
 * and every row is a whole number of 16 halves, so each warp can load its
 * fragments straight from global memory with no test at all, and store
 * its 16 x 16 accumulator into a padded float C of the same kind; a last
 * kernel copies the m x n part of it into d_c. Extra memory and extra
 * passes: slow, but every fragment address is legal by construction.
 * Must pass every stage up to and including right. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "cuda_check.h"

using namespace nvcuda;

static int round16(int x) { return (x + 15) / 16 * 16; }

/* dst (rows_p x cols_p, row-major) = src (rows x cols) with zeros around. */
__global__ void pad(const __half *src, int rows, int cols, __half *dst, int rows_p, int cols_p)
{
    size_t count = (size_t)rows_p * cols_p;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < count;
         t += (size_t)gridDim.x * blockDim.x) {
        int r = (int)(t / cols_p), c = (int)(t % cols_p);
        dst[t] = r < rows && c < cols ? src[(size_t)r * cols + c] : __float2half(0.0f);
    }
}

/* Warp w of block (x, y): the 16 x 16 tile of C at rows 16 (4 x + w),
 * columns 16 y. Every side is a multiple of 16: no bounds inside a tile. */
__global__ void wmma_padded(const __half *a, const __half *b, float *c, int mp, int np, int kp)
{
    int tile_row = blockIdx.x * 4 + threadIdx.x / 32, tile_col = blockIdx.y;
    if (tile_row * 16 >= mp) return; /* the whole warp leaves together */
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p = 0; p < kp; p += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, a + (size_t)tile_row * 16 * kp + p, kp);
        wmma::load_matrix_sync(fb, b + (size_t)p * np + tile_col * 16, np);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tile_row * 16 * np + tile_col * 16, acc, np, wmma::mem_row_major);
}

__global__ void unpad(const float *src, int np, float *dst, int m, int n)
{
    size_t count = (size_t)m * n;
    for (size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x; t < count;
         t += (size_t)gridDim.x * blockDim.x)
        dst[t] = src[(t / n) * np + t % n];
}

static unsigned blocks_for(size_t count)
{
    size_t b = (count + 255) / 256;
    return (unsigned)(b < 4096 ? b : 4096);
}

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    int mp = round16(m), np = round16(n), kp = round16(k);
    __half *a = nullptr, *b = nullptr;
    float *c = nullptr;
    cudaError_t e = cudaMallocAsync(&c, (size_t)mp * np * sizeof(float), stream);
    if (e == cudaSuccess && kp > 0) e = cudaMallocAsync(&a, (size_t)mp * kp * sizeof(__half), stream);
    if (e == cudaSuccess && kp > 0) e = cudaMallocAsync(&b, (size_t)kp * np * sizeof(__half), stream);
    if (e == cudaSuccess && kp > 0) {
        pad<<<blocks_for((size_t)mp * kp), 256, 0, stream>>>(d_a, m, k, a, mp, kp);
        pad<<<blocks_for((size_t)kp * np), 256, 0, stream>>>(d_b, k, n, b, kp, np);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        wmma_padded<<<dim3((mp / 16 + 3) / 4, np / 16), 128, 0, stream>>>(a, b, c, mp, np, kp);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        unpad<<<blocks_for((size_t)m * n), 256, 0, stream>>>(c, np, d_c, m, n);
        e = cudaGetLastError();
    }
    if (a) cudaFreeAsync(a, stream);
    if (b) cudaFreeAsync(b, stream);
    if (c) cudaFreeAsync(c, stream);
    return e;
}
