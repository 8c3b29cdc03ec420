/* WRONG ON PURPOSE: h % 2^s written as h & (2^s - 1). The mask gives a
 * result in [0, 2^s) always; C's % takes the sign of h: -5 & 3 is 3,
 * -5 % 4 is -1. The same for non-negative h, so the typical integers pass.
 * Everything else is the reference.
 * Must first fail the right stage (d_q with negative integers). */
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
    for (int r = 0; r < ROUNDS; r++) h = h / div_of(K) + (h & (mod_of(K) - 1)) * mul_of(K) + r;
    return h;
}

template <int K>
__device__ __forceinline__ void one_element(const float *x, const int *m, float *y, int *q, int i)
{
    y[i] = value_of<K>(x[i]);
    q[i] = code_of<K>(m[i]);
}

/* Warp w of a block of 256 takes kind w % 4, lane l element
 * 256 b + 4 (32 (w / 4) + l) + w % 4: one kind per warp. */
__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int kind = warp % 4;
    long long i = (long long)blockIdx.x * 256 + 4 * ((warp / 4) * 32 + lane) + kind;
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
    int blocks = (int)(((long long)n + 255) / 256);
    divergence_kernel<<<blocks, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
