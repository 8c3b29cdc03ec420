/* CORRECT, in an unusual way: three kernels, two of them serial where the
 * data is small. In a block of 256 threads, one element each, every warp
 * scans its 32 values with a Kogge-Stone ladder of __shfl_up_sync (lane l
 * adds the value d lanes below for d = 1, 2, 4, 8, 16, when l >= d); then
 * thread 0 alone scans the 8 warp totals serially in shared memory and
 * leaves the block's total in d_scratch. The exclusive result is the
 * inclusive one minus the element itself: exact, since unsigned arithmetic
 * wraps modulo 2^32 both ways. A second kernel of ONE thread scans all the
 * block totals serially (n / 256 of them), and a third adds each block's
 * offset. Slow (that one thread), but right at every size.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS (THREADS / 32)
#define FULL 0xffffffffu

__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, unsigned *sums)
{
    __shared__ unsigned warp_base[WARPS];
    int i = blockIdx.x * THREADS + threadIdx.x;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned x = i < n ? in[i] : 0u, v = x;
    for (unsigned d = 1; d < 32; d *= 2) {
        unsigned below = __shfl_up_sync(FULL, v, d);
        if (lane >= d) v += below;
    }
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) { /* the serial block step */
        unsigned run = 0;
        for (int w = 0; w < WARPS; w++) {
            unsigned t = warp_base[w];
            warp_base[w] = run;
            run += t;
        }
        sums[blockIdx.x] = run;
    }
    __syncthreads();
    if (i < n) out[i] = warp_base[warp] + v - x;
}

__global__ void scan_sums_serially(unsigned *sums, int count)
{
    unsigned run = 0;
    for (int b = 0; b < count; b++) {
        unsigned t = sums[b];
        sums[b] = run;
        run += t;
    }
}

__global__ void add_offsets(unsigned *out, int n, const unsigned *sums)
{
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) out[i] += sums[blockIdx.x];
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int blocks = (n + THREADS - 1) / THREADS;
    scan_blocks<<<blocks, THREADS, 0, stream>>>(d_in, d_out, n, d_scratch);
    if (blocks > 1) {
        scan_sums_serially<<<1, 1, 0, stream>>>(d_scratch, blocks);
        add_offsets<<<blocks, THREADS, 0, stream>>>(d_out, n, d_scratch);
    }
    return cudaGetLastError();
}
