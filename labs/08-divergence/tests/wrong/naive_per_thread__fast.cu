/* WRONG ON PURPOSE: TODO(1) and nothing else. One thread per element,
 * branching on i % 4 (four bodies per warp), pow, and the table and trip
 * count read from constant memory at run time: right, and exactly as slow
 * as the baseline.
 * Must first fail the fast stage (about 1x). */
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

__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int kind = i % 4;
    y[i] = legacy_value(x[i], kind);
    q[i] = legacy_code(m[i], kind);
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int threads = 256;
    int blocks = (int)(((long long)n + threads - 1) / threads);
    divergence_kernel<<<blocks, threads, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
