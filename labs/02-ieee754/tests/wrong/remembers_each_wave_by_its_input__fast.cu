/* WRONG ON PURPOSE: the slow double-precision wave of the baseline behind
 * a table of answers looked up by the input's value. wave[i] depends on
 * t[i] alone, and the 64 double sines are the whole cost. So the kernel
 * keeps, in a hash table of its own in device memory, every t it has seen
 * with its wave, and computes only the ones it has not.
 * Every answer it gives is right. The grader rearranges the inputs before
 * every timed round, but a rearranged t is still a t seen before: after the
 * first call every element is a table hit, one 8-byte read from a random
 * place instead of 64 double sines. It is fast only because the grader's
 * timed inputs hold the same values in every round. Must first fail the
 * fast stage.
 */
#include <math.h>
#include <stdint.h>

#include <cuda_runtime.h>

enum { TABLE_BITS = 26 };                  /* 2^26 slots: 4 per timed element */
static const uint32_t EMPTY = 0xffffffffu; /* a NaN pattern: NaNs never go in */

__device__ static float double_wave(float t)
{
    double m = INFINITY;
    for (int k = 0; k < 64; k++) {
        float s = t + k / 64.0f;
        m = fmin(m, sinpi((double)fabsf(s - rintf(s))));
    }
    return isfinite(t) ? (float)m : t - t;
}

/* Open addressing, linear probing; a slot is (t's bits, wave's bits). */
__device__ static float remembered_wave(unsigned long long *table, unsigned *kept, float t)
{
    if (!isfinite(t)) return t - t;
    uint32_t key = __float_as_uint(t);
    uint32_t mask = (1u << TABLE_BITS) - 1;
    for (uint32_t slot = (key * 2654435761u) >> (32 - TABLE_BITS);; slot = (slot + 1) & mask) {
        unsigned long long entry = table[slot];
        uint32_t held = (uint32_t)(entry >> 32);
        if (held == key) return __uint_as_float((uint32_t)entry);
        if (held == EMPTY) {
            float w = double_wave(t);
            unsigned long long mine = ((unsigned long long)key << 32) | __float_as_uint(w);
            unsigned long long was = atomicCAS(&table[slot], entry, mine);
            if (was == entry) {
                atomicAdd(kept, 1u);
                return w;
            }
            if ((uint32_t)(was >> 32) == key) return w;
            /* another thread took the slot for another key: probe on */
        }
    }
}

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n,
                               unsigned long long *table, unsigned *kept)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    madd[2 * i] = __fadd_rn(__fmul_rn(x, y), z);
    madd[2 * i + 1] = fmaf(x, y, z);
    dist[i] = __fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)),
                                         __fmul_rn(z, z))),
                        r[i]);
    wave[i] = table ? remembered_wave(table, kept, t[i]) : double_wave(t[i]);
}

/* Only the big calls (the timed ones) go through the table. */
static const int REMEMBER_FROM = 1 << 20;
static unsigned long long *table; /* kept from call to call */
static unsigned *kept;            /* how many keys the table holds */

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    size_t slots = (size_t)1 << TABLE_BITS;
    if (n >= REMEMBER_FROM) {
        cudaError_t err = cudaSuccess;
        unsigned held = 0;
        if (!table) {
            if ((err = cudaMalloc(&table, slots * sizeof *table)) != cudaSuccess ||
                (err = cudaMalloc(&kept, sizeof *kept)) != cudaSuccess)
                return err;
        } else if ((err = cudaMemcpyAsync(&held, kept, sizeof held, cudaMemcpyDeviceToHost,
                                          stream)) != cudaSuccess ||
                   (err = cudaStreamSynchronize(stream)) != cudaSuccess) {
            return err;
        }
        /* Keep the table at most half full: start again when it could fill. */
        if (held == 0 || held + (size_t)n > slots / 2) {
            if ((err = cudaMemsetAsync(table, 0xff, slots * sizeof *table, stream)) != cudaSuccess ||
                (err = cudaMemsetAsync(kept, 0, sizeof *kept, stream)) != cudaSuccess)
                return err;
        }
    }
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    ieee754_kernel<<<blocks, threads, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist,
                                                   d_wave, n, n >= REMEMBER_FROM ? table : NULL,
                                                   kept);
    return cudaGetLastError();
}
