/* WRONG ON PURPOSE (too slow): a copy of the lab's baseline, Hillis-Steele
 * in shared memory, 256 threads per block, the block sums scanned
 * recursively and added back. Right everywhere; its speedup over the
 * baseline is 1 by construction, so it must first fail the fast stage, on
 * a GPU (it anchors the calibration: rung 1 of the ladder must miss the
 * thresholds on every run).
 * REPORT-SAYS: several elements per thread
 */
#include <cuda_runtime.h>

#define BASELINE_THREADS 256u

/* The baseline, the textbook's first scan: Hillis-Steele in shared
 * memory, one element per thread. At step s every thread adds the value s
 * places to its left, s = 1, 2, 4, ..., 128: after log2(256) = 8 steps
 * each holds the inclusive prefix of its block. Slow three ways: it does
 * n log2(256) additions where n would do (not work-efficient), each step
 * costs two barriers (read, then write, so no thread reads a value
 * already overwritten), and one element per thread leaves few loads in
 * flight. The exclusive prefix is the inclusive one minus the element
 * itself (exact modulo 2^32). The block's total goes to sums[blockIdx.x]. */
__global__ void scan_hillis_steele(const unsigned *in, unsigned *out, unsigned count,
                                          unsigned *sums)
{
    __shared__ unsigned s[BASELINE_THREADS];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + tid;
    unsigned x = i < count ? in[i] : 0u;
    s[tid] = x;
    __syncthreads();
    for (unsigned step = 1; step < blockDim.x; step *= 2) {
        unsigned left = tid >= step ? s[tid - step] : 0u;
        __syncthreads();
        s[tid] += left;
        __syncthreads();
    }
    if (i < count) out[i] = s[tid] - x;
    if (tid == blockDim.x - 1) sums[blockIdx.x] = s[tid];
}

/* Phase three: every element of block b > 0 gets the exclusive prefix of
 * the blocks before it, offsets[b]. */
__global__ void add_block_offsets(unsigned *out, unsigned count, const unsigned *offsets)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count && blockIdx.x > 0) out[i] += offsets[blockIdx.x];
}

/* Scan `count` values of src into dst: one block per 256 values, their
 * totals into scratch; if there was more than one block, scan those totals
 * (in place, the same way, one level up) and add them back. The levels
 * together take fewer than count / 255 + 3 words of scratch. */
static cudaError_t baseline_level(const unsigned *src, unsigned *dst, unsigned count,
                                  unsigned *scratch, cudaStream_t st)
{
    unsigned blocks = (count + BASELINE_THREADS - 1) / BASELINE_THREADS;
    scan_hillis_steele<<<blocks, BASELINE_THREADS, 0, st>>>(src, dst, count, scratch);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || blocks == 1) return e;
    e = baseline_level(scratch, scratch, blocks, scratch + blocks, st);
    if (e != cudaSuccess) return e;
    add_block_offsets<<<blocks, BASELINE_THREADS, 0, st>>>(dst, count, scratch);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    return baseline_level(d_in, d_out, (unsigned)n, d_scratch, stream);
}
