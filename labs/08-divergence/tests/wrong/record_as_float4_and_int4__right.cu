/* WRONG ON PURPOSE: one thread per record of four elements (kinds 0..3),
 * moved as one float4 of d_x, one int4 of d_m and one float4 and one int4
 * store, assuming 16-byte aligned pointers because a record starts at a
 * multiple of 4 elements; the last n % 4 elements go one by one. The math
 * and the integer rounds are right, and work's pointers are aligned, so it
 * passes work. The contract promises only 4 bytes: right offsets every
 * pointer but one by 4, 8 or 12 bytes, and a 16-byte load or store at such
 * an address always faults on the GPU (misaligned address). n = 31 is the
 * first right case with a whole record.
 * Must first fail the right stage.
 * REPORT-SAYS: access through a pointer that is only 4-byte aligned
 */
#include <cuda_runtime.h>

#define THREADS 256
#define ROUNDS 16

__host__ __device__ constexpr int div_of(int k) { return k == 0 ? 16 : k == 1 ? 8 : k == 2 ? 32 : 4; }
__host__ __device__ constexpr int mod_of(int k) { return k == 0 ? 32 : k == 1 ? 64 : k == 2 ? 16 : 128; }
__host__ __device__ constexpr int mul_of(int k)
{
    return k == 0 ? 30307227 : k == 1 ? 12782639 : k == 2 ? 67108861 : 4227329;
}

/* Kind K's value and code, the constants known to the compiler. */
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

/* Element i of kind k, one at a time (the tail). */
__device__ void one_element(const float *x, const int *m, float *y, int *q, int i)
{
    switch (i % 4) {
    case 0: y[i] = value_of<0>(x[i]); q[i] = code_of<0>(m[i]); break;
    case 1: y[i] = value_of<1>(x[i]); q[i] = code_of<1>(m[i]); break;
    case 2: y[i] = value_of<2>(x[i]); q[i] = code_of<2>(m[i]); break;
    default: y[i] = value_of<3>(x[i]); q[i] = code_of<3>(m[i]);
    }
}

/* Thread r takes record r: elements 4r .. 4r + 3, one of each kind. */
__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long first = 4 * r;
    if (first >= n) return;
    if (first + 4 > n) { /* the last, partial record */
        for (long long i = first; i < n; i++) one_element(x, m, y, q, (int)i);
        return;
    }
    /* BUG: x + first is 16-byte aligned only if x is; the same for m, y, q. */
    float4 v = reinterpret_cast<const float4 *>(x)[r];
    int4 h = reinterpret_cast<const int4 *>(m)[r];
    float4 out_y = make_float4(value_of<0>(v.x), value_of<1>(v.y), value_of<2>(v.z), value_of<3>(v.w));
    int4 out_q = make_int4(code_of<0>(h.x), code_of<1>(h.y), code_of<2>(h.z), code_of<3>(h.w));
    reinterpret_cast<float4 *>(y)[r] = out_y;
    reinterpret_cast<int4 *>(q)[r] = out_q;
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    long long records = ((long long)n + 3) / 4;
    int blocks = (int)((records + THREADS - 1) / THREADS);
    divergence_kernel<<<blocks, THREADS, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
