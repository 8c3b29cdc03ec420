/* Lab 10 - exclusive prefix scan:
 *     out[0] = 0,  out[i] = in[0] + in[1] + ... + in[i-1]  (mod 2^32).
 *
 * This is the only file you edit. Read labs/10-scan/README.md first, then
 * follow the TODOs in order. Check your work with
 *
 *     make grade LAB=10
 *
 * The contract (the grader relies on it):
 *   - d_in, d_out and d_scratch are device pointers the grader owns; n >= 0,
 *     and n == 0 must work (it writes nothing). The pointers are 4-byte
 *     aligned, not necessarily 16.
 *   - d_in is an input: read it, never write it. d_out does not alias it.
 *   - d_scratch has room for n + 4096 unsigned words and holds GARBAGE on
 *     entry: use it for block sums (or flags), but set what you read.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 *   - no CUB, no Thrust: the scan is the lesson.
 *
 * The plan below is the three-phase scan; the README's ladder says how to
 * make it fast once it is right.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256 /* threads per block; each block scans THREADS elements */

/* Phase 1: each block scans its own THREADS elements.
 * TODO(1): load in[i] (i = blockIdx.x * blockDim.x + threadIdx.x) into a
 *          __shared__ array; threads past n load 0 (the identity of +).
 * TODO(2): scan the shared array. Start with Hillis-Steele (at step
 *          s = 1, 2, 4, ... every thread adds the value s places to its
 *          left): read, __syncthreads(), write, __syncthreads(). Which
 *          value does thread 0 need in the end, and which do you need for
 *          an EXCLUSIVE scan?
 * TODO(3): write out[i] for i < n, and let one thread write the block's
 *          total to block_sums[blockIdx.x]. */
__global__ void scan_blocks(const unsigned *in, unsigned *out, int n, unsigned *block_sums)
{
    (void)in;
    (void)out;
    (void)n;
    (void)block_sums;
}

/* Phase 3: every element of block b gets the sum of all the blocks before
 * it, which phase 2 left in block_offsets[b].
 * TODO(4): out[i] += block_offsets[blockIdx.x] for i < n. */
__global__ void add_block_offsets(unsigned *out, int n, const unsigned *block_offsets)
{
    (void)out;
    (void)n;
    (void)block_offsets;
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    /* TODO(5): n == 0: nothing to write, and a grid of zero blocks is an
     *          invalid launch: return cudaSuccess right away. */

    /* TODO(6): phase 1: blocks = (n + THREADS - 1) / THREADS; launch
     *          scan_blocks on `stream` with its block sums in d_scratch. */

    /* TODO(7): phase 2: the block sums need an exclusive scan of their
     *          own. How many are there at n = 2^26, and does one block
     *          cover them? (Hint: the same function, one level up, with
     *          the rest of d_scratch as its scratch.)
     * TODO(8): phase 3: launch add_block_offsets when there was more than
     *          one block. */
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)d_scratch;
    (void)stream;

    /* TODO(9): return cudaGetLastError(), so a refused launch is heard of. */
    return cudaSuccess;
}
