/* WRONG ON PURPOSE: stages each block's t values in shared memory and lets
 * thread tid work on its neighbour warp's element, slot (tid + 32) % 256.
 * A __syncthreads() separates the writes from the reads, but there is none
 * at the end of the loop body: a warp that finishes its element early can
 * overwrite the tile for the next round while a slower warp is still
 * reading it (a write-after-read race). Between the read and the next write
 * lie 64 sines, so in practice the values come out right, and the work stage
 * passes; compute-sanitizer's racecheck, run in the right stage, reports the
 * hazard. One block loops over the whole array, so every size above 256 has
 * several rounds. Must first fail the right stage.
 * EMULATION: fail skipped: the emulator runs each thread up to its next
 * barrier, so a fast thread does overwrite the tile and the values are wrong.
 * SMALLEST: the race is between warps of a block of 256 threads, so it needs at least two warps' worth of values
 */
#include <cuda_runtime.h>

static const int THREADS = 256;

__global__ void ieee754_kernel(const float *a, const float *b, const float *c, const float *r,
                               const float *t, float *madd, float *dist, float *wave, int n)
{
    __shared__ float tile[THREADS];
    int slot = (threadIdx.x + 32) % THREADS;
    for (int base = 0; base < n; base += THREADS) {
        int mine = base + threadIdx.x;
        if (mine < n) tile[threadIdx.x] = t[mine];
        __syncthreads();
        int i = base + slot;
        if (i < n) {
            float x = a[i], y = b[i], z = c[i];
            madd[2 * i] = __fadd_rn(__fmul_rn(x, y), z);
            madd[2 * i + 1] = fmaf(x, y, z);
            dist[i] = __fdiv_rn(__fsqrt_rn(__fadd_rn(__fadd_rn(__fmul_rn(x, x), __fmul_rn(y, y)),
                                                     __fmul_rn(z, z))),
                                r[i]);
            float ti = tile[slot];
            float m = fabsf(sinpif(ti));
            for (int k = 1; k < 64; k++) m = fminf(m, fabsf(sinpif(ti + k / 64.0f)));
            wave[i] = m;
        }
        /* missing: __syncthreads(); before the next round's writes */
    }
}

extern "C" cudaError_t ieee754(const float *d_a, const float *d_b, const float *d_c,
                               const float *d_r, const float *d_t, float *d_madd,
                               float *d_dist, float *d_wave, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    ieee754_kernel<<<1, THREADS, 0, stream>>>(d_a, d_b, d_c, d_r, d_t, d_madd, d_dist, d_wave,
                                              n);
    return cudaGetLastError();
}
