/* WRONG ON PURPOSE: every answer is right, but the thread that owns the
 * last record loads all four of its elements before it looks at how many
 * exist ("load the record, then store what is real"). When n is not a
 * multiple of 4 it reads up to three elements past the end of d_x and d_m.
 * Reading past a buffer is undefined behaviour; under compute-sanitizer
 * the grader gives every buffer an allocation of exactly its size, so
 * memcheck reports the read with the kernel, the thread and the address
 * (the right stage's sanitizer sizes 1, 33 and 4099 all end in a partial
 * record).
 * Must first fail the right stage (in the CPU emulation too, where the
 * size 8191 with unaligned pointers puts the read past the allocation's
 * fence).
 */
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

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    long long first = 4 * ((long long)blockIdx.x * blockDim.x + threadIdx.x);
    if (first >= n) return;
    int i = (int)first;
    int left = n - i; /* elements of this record that exist: 1 .. 4 (or more) */
    /* The whole record first (volatile: the loads happen as written, not
     * moved under the checks below by the compiler). */
    const volatile float *xv = x + i;
    const volatile int *mv = m + i;
    float x0 = xv[0], x1 = xv[1], x2 = xv[2], x3 = xv[3];
    int m0 = mv[0], m1 = mv[1], m2 = mv[2], m3 = mv[3];
    y[i] = value_of<0>(x0);
    q[i] = code_of<0>(m0);
    if (left > 1) y[i + 1] = value_of<1>(x1), q[i + 1] = code_of<1>(m1);
    if (left > 2) y[i + 2] = value_of<2>(x2), q[i + 2] = code_of<2>(m2);
    if (left > 3) y[i + 3] = value_of<3>(x3), q[i + 3] = code_of<3>(m3);
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
