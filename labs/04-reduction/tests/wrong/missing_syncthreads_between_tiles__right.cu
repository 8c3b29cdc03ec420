/* WRONG ON PURPOSE: a block walks the array tile by tile through one shared
 * array, and forgets the __syncthreads() at the end of each tile. Warp 0
 * still reads s[32..63] for its last step when warp 1 may already store the
 * next tile's values there (a write-after-read race between warps).
 * On the hardware warp 1 must first wait for its global load, so the sums
 * come out right in practice: work passes. compute-sanitizer racecheck
 * reports the hazard on every run (sanitize size 70001 gives each of the 64
 * blocks several tiles), so it must first fail the right stage.
 * EMULATION: fail skipped: the emulator runs each thread up to its next barrier, so the missing one corrupts the sum at once; on a GPU memory latency hides it until racecheck
 * SMALLEST: the race needs several tiles of a block's 256 threads in flight
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 64

__global__ void tile_sums(const float *in, int n, float *partial)
{
    __shared__ float s[T];
    int tid = threadIdx.x;
    float total = 0.0f;
    for (int base = blockIdx.x * T; base < n; base += gridDim.x * T) {
        int i = base + tid;
        s[tid] = i < n ? in[i] : 0.0f;
        __syncthreads();
        for (int step = T / 2; step > 32; step /= 2) {
            if (tid < step) s[tid] += s[tid + step];
            __syncthreads();
        }
        if (tid < 32) {
            float v = s[tid] + s[tid + 32];
            for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
            if (tid == 0) total += v;
        }
        /* missing: __syncthreads(); before the next tile overwrites s */
    }
    if (tid == 0) partial[blockIdx.x] = total;
}

__global__ void add_partials(const float *partial, int count, float *out)
{
    if (threadIdx.x == 0) {
        float v = 0.0f;
        for (int b = 0; b < count; b++) v += partial[b];
        *out = v;
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    int blocks = (n + T - 1) / T;
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    tile_sums<<<blocks, T, 0, stream>>>(d_in, n, d_scratch);
    add_partials<<<1, 32, 0, stream>>>(d_scratch, blocks, d_out);
    return cudaGetLastError();
}
