/* WRONG ON PURPOSE: Harris's kernel 5 as published in 2007: the last six
 * steps are done by warp 0 through a volatile pointer with no
 * synchronisation at all, trusting the 32 lanes to move in lock step.
 * Since Volta each thread has its own program counter and the CUDA
 * programming model no longer promises that: lane t may read s[t + 16]
 * before lane t + 16 has stored it. On today's hardware the warp happens to
 * stay converged here and the sums come out right (work passes), but
 * compute-sanitizer racecheck reports the intra-warp hazards, so it must
 * first fail the right stage. The cure: __syncwarp() between the reads and
 * the writes of every step, or warp shuffles.
 * EMULATION: fail skipped: the emulator schedules lanes independently between warp barriers, so the unsynchronised warp steps read stale values; on a GPU the lanes usually move together and only racecheck sees it
 */
#include <cuda_runtime.h>

#define T 256

__device__ void last_warp(volatile float *s, int tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

__global__ void block_sums(const float *in, int count, float *partial)
{
    __shared__ float s[T];
    int tid = threadIdx.x;
    int i = blockIdx.x * 2 * T + tid;
    float v = i < count ? in[i] : 0.0f;
    if (i + T < count) v += in[i + T];
    s[tid] = v;
    __syncthreads();
    for (int step = T / 2; step > 32; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid < 32) last_warp(s, tid);
    if (tid == 0) partial[blockIdx.x] = s[0];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    const float *src = d_in;
    int count = n;
    for (;;) {
        int blocks = (count + 2 * T - 1) / (2 * T);
        float *dst = blocks == 1 ? d_out : d_scratch;
        block_sums<<<blocks, T, 0, stream>>>(src, count, dst);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        d_scratch += blocks;
    }
}
