/* WRONG ON PURPOSE: a grid-stride loop over groups of 256 elements (one
 * kind per warp inside a group) whose step was copied from its start:
 * g += blockIdx.x where gridDim.x was meant. For block 0 the step is 0:
 * g stays 0, g < groups stays true, and block 0 computes and stores group
 * 0 for ever. Block 0 exists in every launch, so the first work call
 * (n = 1024) hangs, on every GPU and whatever the order the blocks run in.
 * Everything else is right: the warp-uniform map, the cheap functions,
 * the table as compile-time constants, the bounds check on the element.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: does every loop's index move towards its end?
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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

template <int K>
__device__ __forceinline__ void one_element(const float *x, const int *m, float *y, int *q, int i)
{
    float v = x[i];
    y[i] = K == 0 ? cbrtf(v) : K == 1 ? exp2f(v) : K == 2 ? rsqrtf(v) : cbrtf(cbrtf(v));
    int h = m[i];
#pragma unroll
    for (int r = 0; r < ROUNDS; r++) h = h / div_of(K) + (h % mod_of(K)) * mul_of(K) + r;
    q[i] = h;
}

/* Warp w of a block of 256 takes kind w % 4, lane l element
 * 256 g + 4 (32 (w / 4) + l) + w % 4 of group g. */
__global__ void divergence_kernel(const float *x, const int *m, float *y, int *q, int n)
{
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, kind = warp % 4;
    long long groups = ((long long)n + 255) / 256;
    for (long long g = blockIdx.x; g < groups; g += blockIdx.x) { /* should be gridDim.x */
        long long i = g * 256 + 4 * ((warp / 4) * 32 + lane) + kind;
        if (i >= n) continue;
        switch (kind) {
        case 0: one_element<0>(x, m, y, q, (int)i); break;
        case 1: one_element<1>(x, m, y, q, (int)i); break;
        case 2: one_element<2>(x, m, y, q, (int)i); break;
        default: one_element<3>(x, m, y, q, (int)i);
        }
    }
}

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    long long groups = ((long long)n + 255) / 256;
    int blocks = groups < 1024 ? (int)groups : 1024;
    divergence_kernel<<<blocks, 256, 0, stream>>>(d_x, d_m, d_y, d_q, n);
    return cudaGetLastError();
}
