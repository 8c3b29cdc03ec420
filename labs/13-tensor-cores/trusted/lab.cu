/* lab.cu - lab 13's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, the baseline and the vendor
 * library the fast stage compares against. Students do not edit it.
 */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#ifndef CUDA_EMU
#include <cublas_v2.h>
#endif

#include "lab_spec.h"

extern "C" cudaError_t hgemm(const __half *d_a, const __half *d_b, float *d_c, int m, int n,
                             int k, cudaStream_t stream);
extern "C" const lab_spec LAB_13_TENSOR_CORES;

static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return hgemm((const __half *)d[0], (const __half *)d[1], (float *)d[2], (int)dims[0],
                 (int)dims[1], (int)dims[2], (cudaStream_t)stream);
}

using namespace nvcuda;

/* The baseline: the first tensor-core kernel one writes. One warp per
 * 16 x 16 tile of C, four warps per block (a 32 x 32 patch); each warp
 * walks k in steps of 16, loading its A and B fragments straight from
 * global memory with load_matrix_sync and accumulating with mma_sync, then
 * stores its fragment straight to C. Every fragment of A is loaded by every
 * warp of its row of tiles and every fragment of B by every warp of its
 * column (n / 16 and m / 16 times over), with nothing staged in shared
 * memory and one mma_sync per two fragment loads: the L2 cache and the
 * load path, not the tensor cores, set its pace (29 TFLOP/s on the H100,
 * under 3% of what the tensor cores can do and no faster than lab 07's
 * SGEMM on the CUDA cores).
 *
 * Fragments straight from global memory need 32-byte aligned tiles and
 * leading dimensions that are multiples of 8 halves, so this kernel only
 * runs where m, n and k are multiples of 16 and the pointers are 32-byte
 * aligned (the timed size is); anywhere else the baseline is one thread
 * per output on the CUDA cores, in float. */
__global__ static void hgemm_warp_per_tile(const __half *a, const __half *b, float *c, int m,
                                           int n, int k)
{
    int warp = threadIdx.x / 32;
    int tile_row = (blockIdx.y * 2 + warp / 2) * 16, tile_col = (blockIdx.x * 2 + warp % 2) * 16;
    if (tile_row >= m || tile_col >= n) return; /* the whole warp leaves together */
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int p = 0; p < k; p += 16) {
        wmma::load_matrix_sync(fa, a + (size_t)tile_row * k + p, k);
        wmma::load_matrix_sync(fb, b + (size_t)p * n + tile_col, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tile_row * n + tile_col, acc, n, wmma::mem_row_major);
}

__global__ static void hgemm_scalar(const __half *a, const __half *b, float *c, int m, int n,
                                    int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += __half2float(a[(size_t)row * k + p]) * __half2float(b[(size_t)p * n + col]);
    c[(size_t)row * n + col] = sum;
}

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    cudaStream_t s = (cudaStream_t)stream;
    const __half *a = (const __half *)d[0], *b = (const __half *)d[1];
    float *c = (float *)d[2];
    if (m == 0 || n == 0) return cudaSuccess;
    bool aligned = ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) % 32 == 0;
    if (aligned && m % 16 == 0 && n % 16 == 0 && k % 16 == 0 && k > 0 && m / 32 < 65535) {
        dim3 grid((n + 31) / 32, (m + 31) / 32);
        hgemm_warp_per_tile<<<grid, 128, 0, s>>>(a, b, c, m, n, k);
    } else {
        dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
        if (grid.y > 65535) return cudaErrorInvalidConfiguration; /* never timed */
        hgemm_scalar<<<grid, block, 0, s>>>(a, b, c, m, n, k);
    }
    return cudaGetLastError();
}

#ifndef CUDA_EMU
/* The roof: cuBLAS, cublasGemmEx with half inputs, a float output and
 * CUBLAS_COMPUTE_32F, the same arithmetic as the lab's (tensor cores, float
 * accumulation). cuBLAS is column-major; a row-major matrix read as
 * column-major is its transpose, so the row-major C = A B is the
 * column-major C^T = B^T A^T: ask for (n x k) times (k x m) with the
 * operands swapped and no transposition.
 *
 * The handle is created once, on the first call (milliseconds and device
 * memory; the timing's warm-up calls it first, so it is never timed), and
 * its stream is set on every call so cuBLAS launches where it is timed. */
static int call_vendor(void *const *d, const int64_t *dims, void *stream)
{
    static cublasHandle_t handle;
    int m = (int)dims[0], n = (int)dims[1], k = (int)dims[2];
    cudaStream_t s = (cudaStream_t)stream;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
    if (cublasSetStream(handle, s) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
    if (m == 0 || n == 0) return cudaSuccess;
    if (k == 0) return cudaMemsetAsync(d[2], 0, (size_t)m * n * sizeof(float), s);
    const float one = 1.0f, zero = 0.0f;
    if (cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, d[1], CUDA_R_16F, n, d[0],
                     CUDA_R_16F, k, &zero, d[2], CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
#define VENDOR call_vendor
#else
#define VENDOR NULL /* the CPU emulation has no cuBLAS, and never times */
#endif

extern "C" const lab_device LAB_DEVICE = {&LAB_13_TENSOR_CORES, call_submission, call_baseline,
                                          VENDOR, NULL, 0};
