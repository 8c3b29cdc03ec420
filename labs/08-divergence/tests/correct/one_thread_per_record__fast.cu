/* CORRECT, unusual: no branch at all. Thread t owns the record of four
 * elements 4t .. 4t + 3 and computes all four kinds in turn: the kind is
 * the position in the record, a compile-time constant in each of the four
 * calls, so every warp runs the same instructions. A quarter as many
 * threads, each doing four elements' work; the loads and stores of a warp
 * still cover 512 contiguous bytes. The last record may be partial.
 * Must pass every stage. */
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
    long long first = 4 * ((long long)blockIdx.x * blockDim.x + threadIdx.x);
    if (first >= n) return;
    int i = (int)first;
    int left = n - i; /* elements of this record that exist: 1 .. 4 (or more) */
    one_element<0>(x, m, y, q, i);
    if (left > 1) one_element<1>(x, m, y, q, i + 1);
    if (left > 2) one_element<2>(x, m, y, q, i + 2);
    if (left > 3) one_element<3>(x, m, y, q, i + 3);
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    long long records = ((long long)n + 3) / 4;
    int blocks = (int)((records + 255) / 256);
    divergence_kernel<<<blocks, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
