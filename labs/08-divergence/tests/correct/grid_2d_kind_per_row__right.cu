/* CORRECT, unusual: a 2-D grid over the 1-D data. blockIdx.y is the kind
 * (gridDim.y = 4) and x counts records of four: block (bx, k), thread t
 * takes element 4 (128 bx + t) + k. Every block, not only every warp,
 * holds one kind; a kind's elements are 16 bytes apart, as in the
 * reference. Correct, but not fast enough: each block's stores hit one
 * word in four of every line, and on an H200 it measured 4.4x the naive
 * kernel (the reference 12.7x).
 * Must pass work and right. */
#include <math.h>

#include <cuda_runtime.h>

#define ROUNDS 16

__host__ __device__ constexpr int div_of(int k) { return k == 0 ? 16 : k == 1 ? 8 : k == 2 ? 32 : 4; }
__host__ __device__ constexpr int mod_of(int k) { return k == 0 ? 32 : k == 1 ? 64 : k == 2 ? 16 : 128; }
__host__ __device__ constexpr int mul_of(int k)
{
    return k == 0 ? 30307227 : k == 1 ? 12782639 : k == 2 ? 67108861 : 4227329;
}

template <int K> __device__ __forceinline__ float value_of(float x)
{
    if (K == 0) return cbrtf(x);
    if (K == 1) return exp2f(x);
    if (K == 2) return rsqrtf(x);
    return cbrtf(cbrtf(x));
}

template <int K> __device__ __forceinline__ int code_of(int h)
{
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) h = h / div_of(K) + (h % mod_of(K)) * mul_of(K) + r;
    return h;
}

template <int K>
__device__ __forceinline__ void one_element(const float *x, const int *m, float *y, int *q, int i)
{
    y[i] = value_of<K>(x[i]);
    q[i] = code_of<K>(m[i]);
}

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int kind = blockIdx.y;
    long long record = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long i = 4 * record + kind;
    if (i >= n) return;
    switch (kind) {
    case 0: one_element<0>(x, m, y, q, (int)i); break;
    case 1: one_element<1>(x, m, y, q, (int)i); break;
    case 2: one_element<2>(x, m, y, q, (int)i); break;
    default: one_element<3>(x, m, y, q, (int)i);
    }
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    long long records = ((long long)n + 3) / 4;
    dim3 grid((unsigned)((records + 127) / 128), 4);
    divergence_kernel<<<grid, 128, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
