/* WRONG ON PURPOSE: a grid capped at 64 blocks, each walking its own
 * contiguous run of 256-element chunks and carrying the running sum in a
 * register, and forgetting the second __syncthreads() of each chunk: a
 * fast warp writes its total of the next chunk into s_warp while a slow
 * warp still sums the totals of this one (a write-after-read race between
 * warps). On a GPU the fast warp must first wait for its next global
 * load, so the sums come out right in practice; compute-sanitizer
 * racecheck reports the hazard on every run (at sanitize size 70001 each
 * block has 5 chunks), so it must first fail the right stage.
 * EMULATION: pass pass: the emulator runs each thread up to its next wait, the next chunk's shuffles, so every warp has read s_warp before any lane 31 can write it again; only racecheck on a GPU sees the hazard
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 64

__global__ void scan_runs(const unsigned *in, unsigned *out, int n, int chunks_per_block,
                          unsigned *block_sums)
{
    __shared__ unsigned s_warp[T / 32];
    unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, carry = 0;
    long long first = (long long)blockIdx.x * chunks_per_block;
    for (long long c = first; c < first + chunks_per_block; c++) {
        long long i = c * T + tid;
        unsigned x = i < n ? in[i] : 0u, incl = x;
        for (unsigned d = 1; d < 32; d *= 2) {
            unsigned left = __shfl_up_sync(0xffffffffu, incl, d);
            if (lane >= d) incl += left;
        }
        if (lane == 31) s_warp[warp] = incl;
        __syncthreads();
        unsigned before = 0, total = 0;
        for (unsigned w = 0; w < T / 32; w++) {
            unsigned v = s_warp[w];
            if (w < warp) before += v;
            total += v;
        }
        if (i < n) out[i] = carry + before + incl - x;
        carry += total;
        /* the __syncthreads() that belongs here is missing */
    }
    if (tid == 0) block_sums[blockIdx.x] = carry;
}

__global__ void scan_block_sums(unsigned *sums, int count)
{
    unsigned run = 0;
    for (int b = 0; b < count; b++) {
        unsigned v = sums[b];
        sums[b] = run;
        run += v;
    }
}

__global__ void add_offsets(unsigned *out, int n, int chunks_per_block, const unsigned *offsets)
{
    long long first = (long long)blockIdx.x * chunks_per_block * T;
    long long last = first + (long long)chunks_per_block * T;
    for (long long i = first + threadIdx.x; i < last && i < n; i += blockDim.x)
        out[i] += offsets[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int chunks = (int)(((long long)n + T - 1) / T);
    int per = (chunks + MAX_BLOCKS - 1) / MAX_BLOCKS;
    int blocks = (chunks + per - 1) / per;
    scan_runs<<<blocks, T, 0, stream>>>(d_in, d_out, n, per, d_scratch);
    scan_block_sums<<<1, 1, 0, stream>>>(d_scratch, blocks);
    add_offsets<<<blocks, T, 0, stream>>>(d_out, n, per, d_scratch);
    return cudaGetLastError();
}
