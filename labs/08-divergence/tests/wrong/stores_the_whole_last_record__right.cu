/* WRONG ON PURPOSE: warps are made uniform by mapping threads to RECORDS
 * of four elements (one per kind): warp w of a block takes kind w % 4 of
 * 32 records, so the branch on the kind never diverges. The bounds check
 * then went onto the record, not the element: "if (record < records)"
 * with records = (n + 3) / 4. To keep every lane of the last warp busy
 * without another branch, the padding elements of the last record load a
 * harmless 1.0f and 0 (a select, not a jump), but their results are
 * stored anyway, "into the record's padding". There is no padding: when n
 * is not a multiple of 4, up to three elements are written past the end
 * of d_y and d_q. Every value below n is right, and work's sizes are
 * multiples of 256, so it passes work; right's n = 1 writes d_y[1..3].
 * REPORT-SAYS: threads past the end wrote: a remapped index needs its own bounds check
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <math.h>

#include <cuda_runtime.h>

#define THREADS 256 /* 8 warps: two per kind, 64 records per block */
#define KINDS 4
#define ROUNDS 16

__host__ __device__ constexpr int div_of(int k) { return k == 0 ? 16 : k == 1 ? 8 : k == 2 ? 32 : 4; }
__host__ __device__ constexpr int mod_of(int k) { return k == 0 ? 32 : k == 1 ? 64 : k == 2 ? 16 : 128; }
__host__ __device__ constexpr int mul_of(int k)
{
    return k == 0 ? 30307227 : k == 1 ? 12782639 : k == 2 ? 67108861 : 4227329;
}

/* f_k within the bound: cbrtf, exp2f, rsqrtf and a ninth root as two
 * cube roots; the divisors are compile-time constants. */
template <int K> __device__ float value_of(float x)
{
    if (K == 0) return cbrtf(x);
    if (K == 1) return exp2f(x);
    if (K == 2) return rsqrtf(x);
    return cbrtf(cbrtf(x));
}

template <int K> __device__ int code_of(int h)
{
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) h = h / div_of(K) + (h % mod_of(K)) * mul_of(K) + r;
    return h;
}

template <int K>
__device__ void one_element(const float *x, const int *m, float *y, int *q, long long i, int n)
{
    int real = i < n;
    float xi = real ? x[i] : 1.0f; /* padding of the last record: harmless inputs */
    int mi = real ? m[i] : 0;
    y[i] = value_of<K>(xi); /* the mistake: stored whether element i exists or not */
    q[i] = code_of<K>(mi);
}

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int kind = warp % KINDS;
    long long record = (long long)blockIdx.x * (THREADS / KINDS) + (warp / KINDS) * 32 + lane;
    long long records = ((long long)n + KINDS - 1) / KINDS;
    if (record >= records) return; /* the check is on the record, not on the element */
    long long i = KINDS * record + kind;
    switch (kind) {
    case 0: one_element<0>(x, m, y, q, i, n); break;
    case 1: one_element<1>(x, m, y, q, i, n); break;
    case 2: one_element<2>(x, m, y, q, i, n); break;
    default: one_element<3>(x, m, y, q, i, n);
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
