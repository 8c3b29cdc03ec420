/* WRONG ON PURPOSE: TODO(2) alone. Threads are remapped so that each warp
 * holds one kind (no warp runs more than one body), but the bodies are
 * the legacy ones: pow, and divisors and a trip count the compiler cannot
 * see. About 4x the baseline by the instruction count; the threshold asks
 * for the instruction mix too.
 * Must first fail the fast stage. */
#include <math.h>

#include <cuda_runtime.h>

__constant__ int c_div[4] = {16, 8, 32, 4};
__constant__ int c_mod[4] = {32, 64, 16, 128};
__constant__ int c_mul[4] = {30307227, 12782639, 67108861, 4227329};
__constant__ int c_rounds = 16;

__device__ float legacy_value(float x, int kind)
{
    double v = x;
    switch (kind) {
    case 0: return (float)copysign(pow(fabs(v), 1.0 / 3.0), v);
    case 1: return powf(2.0f, x);
    case 2: return 1.0f / sqrtf(x);
    default: return (float)copysign(pow(fabs(v), 1.0 / 9.0), v);
    }
}

__device__ int legacy_code(int h, int kind)
{
    for (int r = 0; r < c_rounds; r++) h = h / c_div[kind] + (h % c_mod[kind]) * c_mul[kind] + r;
    return h;
}

/* Warp w of a block of 256 takes kind w % 4, lane l element
 * 256 b + 4 (32 (w / 4) + l) + w % 4. */
__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int kind = warp % 4;
    long long i = (long long)blockIdx.x * 256 + 4 * ((warp / 4) * 32 + lane) + kind;
    if (i >= n) return;
    y[i] = legacy_value(x[i], kind);
    q[i] = legacy_code(m[i], kind);
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (int)(((long long)n + 255) / 256);
    divergence_kernel<<<blocks, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
