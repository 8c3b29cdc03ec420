/* UNUSUAL BUT CORRECT: two kernels on the same stream. The exact outputs
 * come from a 2-D grid laid over the 1-D arrays (element = row * width +
 * column, width = 64 * 32); the wave from a second kernel that finds the
 * nearest node with an if instead of fminf and takes one sinpif of that
 * distance. (Not cospif(0.5f - u), which looks equal: 0.5f - u is rounded
 * when u is tiny, and a subnormal answer becomes 0.) Must pass every stage.
 */
#include <math.h>

#include <cuda_runtime.h>

static const int WIDTH = 64 * 32;

__global__ void exact_outputs(const float *a, const float *b, const float *c, const float *r,
                              float *madd, float *dist, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int i = row * WIDTH + col;
    if (col >= WIDTH || i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float p = __fmul_rn(x, y);
    madd[2 * i] = __fadd_rn(p, z);
    madd[2 * i + 1] = fmaf(x, y, z);
    float s = __fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y));
    s = __fadd_rn(s, __fmul_rn(z, z));
    dist[i] = sqrtf(s) / r[i]; /* correctly rounded without fast math */
}

__global__ void quietest(const float *t, float *wave, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float ti = t[i];
    if (isnan(ti) || isinf(ti)) {
        wave[i] = __int_as_float(0x7fc00000);
        return;
    }
    float best = 1.0f;
    for (int k = 0; k < 64; k++) {
        float s = ti + k / 64.0f;
        float u = fabsf(s - rintf(s));
        if (u < best) best = u;
    }
    wave[i] = sinpif(best);
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    dim3 block(64, 4);
    dim3 grid(WIDTH / 64, (n + WIDTH * 4 - 1) / (WIDTH * 4));
    exact_outputs<<<grid, block, 0, stream>>>(d_a, d_b, d_c, d_r, d_madd, d_dist, n);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    quietest<<<(n + 127) / 128, 128, 0, stream>>>(d_t, d_wave, n);
    return cudaGetLastError();
}
