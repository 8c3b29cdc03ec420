/* lab.cu - lab 10's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, the naive baseline the fast
 * stage compares against (rung 1 of the solution ladder), and CUB's scan
 * as the vendor comparison. Students do not edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream);
extern "C" const lab_spec LAB_10_SCAN;

/* The runner hands over the device buffers in the order of the spec's
 * buffer list (d_in, d_out, d_scratch) and the sizes in the order of its
 * dims (n). */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return exclusive_scan((const unsigned *)d[0], (unsigned *)d[1], (int)dims[0],
                          (unsigned *)d[2], (cudaStream_t)stream);
}

static const unsigned BASELINE_THREADS = 256;

/* The baseline, the textbook's first scan: Hillis-Steele in shared
 * memory, one element per thread. At step s every thread adds the value s
 * places to its left, s = 1, 2, 4, ..., 128: after log2(256) = 8 steps
 * each holds the inclusive prefix of its block. Slow three ways: it does
 * n log2(256) additions where n would do (not work-efficient), each step
 * costs two barriers (read, then write, so no thread reads a value
 * already overwritten), and one element per thread leaves few loads in
 * flight. The exclusive prefix is the inclusive one minus the element
 * itself (exact modulo 2^32). The block's total goes to sums[blockIdx.x]. */
__global__ static void scan_hillis_steele(const unsigned *in, unsigned *out, unsigned count,
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
__global__ static void add_block_offsets(unsigned *out, unsigned count, const unsigned *offsets)
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

static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    unsigned n = (unsigned)dims[0];
    if (n == 0) return cudaSuccess; /* nothing to write, and a grid of 0 blocks is invalid */
    return baseline_level((const unsigned *)d[0], (unsigned *)d[1], n, (unsigned *)d[2],
                          (cudaStream_t)stream);
}

#ifndef CUDA_EMU
#include <cub/device/device_scan.cuh>

/* The vendor: cub::DeviceScan::ExclusiveSum, a single-pass scan with
 * decoupled look-back whose tile size CUB tunes per GPU. Its temporary
 * storage comes out of d_scratch, as the contract allows (CUB aligns it
 * itself), so it uses no memory a submission does not have; the size is
 * asked once per n (host work between timed launches), and a call whose
 * storage would not fit fails cleanly instead of writing past d_scratch. */
static int call_vendor(void *const *d, const int64_t *dims, void *stream)
{
    static int64_t asked_n = -1;
    static size_t needed = 0;
    cudaStream_t st = (cudaStream_t)stream;
    const unsigned *in = (const unsigned *)d[0];
    unsigned *out = (unsigned *)d[1];
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess;
    if (asked_n != dims[0]) {
        cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, needed, in, out, n, st);
        if (e != cudaSuccess) return e;
        asked_n = dims[0];
    }
    size_t have = ((size_t)n + 4096) * sizeof(unsigned);
    if (needed > have) return cudaErrorInvalidValue;
    cudaError_t e = cub::DeviceScan::ExclusiveSum(d[2], have, in, out, n, st);
    return e != cudaSuccess ? e : cudaGetLastError();
}
#define VENDOR call_vendor
#else
#define VENDOR NULL /* the CPU emulation has no CUB, and never times */
#endif

extern "C" const lab_device LAB_DEVICE = {&LAB_10_SCAN, call_submission, call_baseline,
                                          VENDOR, NULL, 0};
