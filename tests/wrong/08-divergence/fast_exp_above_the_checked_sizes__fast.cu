/* WRONG ON PURPOSE: the reference solution while n is small enough for the
 * CPU to check it; above 2^22 elements (only the timed size, 2^24, gets
 * there) 2^x becomes e^(x ln 2) with the fast intrinsic __expf, tens of ulp
 * off for |x| near 60 but within a relative 1e-3 of the output's scale.
 * Timed calls held to that scale let it through; d_y is held to 4 ulp, so
 * a timed call may lie at most 8 ulp from the baseline's answer.
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <math.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

static const int THREADS = 256; /* 8 warps: two per kind */
#define KINDS 4
#define ROUNDS 16

__host__ __device__ constexpr int div_of(int k) { return k == 0 ? 16 : k == 1 ? 8 : k == 2 ? 32 : 4; }
__host__ __device__ constexpr int mod_of(int k) { return k == 0 ? 32 : k == 1 ? 64 : k == 2 ? 16 : 128; }
__host__ __device__ constexpr int mul_of(int k)
{
    return k == 0 ? 30307227 : k == 1 ? 12782639 : k == 2 ? 67108861 : 4227329;
}

template <int K> __device__ __forceinline__ float value_of(float x, bool large)
{
    if (K == 0) return cbrtf(x);
    if (K == 1) return large ? __expf(x * 0.6931472f) : exp2f(x);
    if (K == 2) return rsqrtf(x);
    return cbrtf(cbrtf(x)); /* the lecture slides' table has rcbrt(rcbrt(x)): as good */
}

template <int K> __device__ __forceinline__ int code_of(int h)
{
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) h = h / div_of(K) + (h % mod_of(K)) * mul_of(K) + r;
    return h;
}

template <int K>
__device__ __forceinline__ void one_element(const float *__restrict__ x, const int *__restrict__ m,
                                            float *__restrict__ y, int *__restrict__ q, int i,
                                            bool large)
{
    y[i] = value_of<K>(x[i], large);
    q[i] = code_of<K>(m[i]);
}

/* Block b covers the 256 elements 256b .. 256b + 255, that is 64 records of
 * four kinds. Warp w (0..7) takes kind w % 4 of the records
 * 32 * (w / 4) .. 32 * (w / 4) + 31, lane l record 32 * (w / 4) + l:
 * element 256b + 4 * (32 * (w / 4) + l) + w % 4. Every element is covered
 * once; the kind depends on the warp only, so the switch never diverges.
 * A warp's loads and stores are 4 floats apart (16 bytes): the four warps
 * of a half-block touch the same 512 bytes, which the L1 and L2 caches
 * serve; memory is not the limit here, instructions are. */
__global__ void divergence_kernel(const float *__restrict__ x, const int *__restrict__ m,
                                  float *__restrict__ y, int *__restrict__ q, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int kind = warp % KINDS;
    int record = (warp / KINDS) * 32 + lane;
    long long i = (long long)blockIdx.x * THREADS + KINDS * record + kind;
    if (i >= n) return;
    bool large = n > (1 << 22);
    switch (kind) {
    case 0: one_element<0>(x, m, y, q, (int)i, large); break;
    case 1: one_element<1>(x, m, y, q, (int)i, large); break;
    case 2: one_element<2>(x, m, y, q, (int)i, large); break;
    default: one_element<3>(x, m, y, q, (int)i, large);
    }
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((long long)n + THREADS - 1) / THREADS);
    divergence_kernel<<<blocks, THREADS, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
