/* WRONG ON PURPOSE (for the calibrated threshold): TODO(3) and TODO(4)
 * without TODO(2). The bodies are cheap (cbrtf, exp2f, rsqrtf, shifts, an
 * unrolled loop), but thread i still takes element i, so every warp runs
 * all four bodies, a quarter of its lanes active in each: about 4x the
 * reference's instructions. The threshold is meant to need both ideas.
 * If the H100 calibration cannot separate this from the reference, this
 * file goes (see the measurements in the lab's INSTRUCTOR.md).
 * Must first fail the fast stage. */
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

/* One thread per element: the kind i % 4 changes from lane to lane. */
__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (i % 4) {
    case 0: one_element<0>(x, m, y, q, i); break;
    case 1: one_element<1>(x, m, y, q, i); break;
    case 2: one_element<2>(x, m, y, q, i); break;
    default: one_element<3>(x, m, y, q, i);
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
