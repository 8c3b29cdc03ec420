/* Lab 04 - the reduction: *d_out = d_in[0] + d_in[1] + ... + d_in[n-1].
 *
 * This is the only file you edit. Read labs/04-reduction/README.md first,
 * then follow the TODOs in order. Check your work with
 *
 *     make grade LAB=04
 *
 * The contract (the grader relies on it):
 *   - d_in, d_out and d_scratch are device pointers the grader owns; n >= 0,
 *     and n == 0 must work (the sum of nothing is 0).
 *   - d_in is read-only. d_out (one float) and d_scratch (n + 1024 floats)
 *     hold garbage on entry; d_scratch is yours to use freely.
 *   - The pointers are 4-byte aligned, not necessarily 16.
 *   - launch on `stream`, do not synchronize, and return the launch status.
 *
 * The plan below is the lecture slides' recursive strategy (rungs 3-4 of the
 * ladder): a kernel turns `count` values into one partial sum per block,
 * and is launched again on the partial sums until one block is left.
 * It is right, not yet fast: the README's ladder shows where to go next.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define THREADS 256 /* a power of two: the tree below halves it */

/* Block b sums in[b * 2 * THREADS .. (b + 1) * 2 * THREADS) and writes the
 * sum to partial[b]. */
__global__ void block_sums(const float *in, int count, float *partial)
{
    __shared__ float s[THREADS];
    int tid = threadIdx.x;

    /* TODO(1): add during the load. Block b owns 2 * THREADS elements;
     *          each thread loads two of them, adds them and stores the sum
     *          in s[tid]. Which two, so that the 32 loads of a warp are
     *          32 consecutive floats each time (README, the ladder's rung
     *          4; lab 01 on coalescing)? An element at or past
     *          `count` counts as 0.0f: the last block is usually partial,
     *          and either of a thread's two may be past the end. */
    s[tid] = 0.0f;
    (void)in;
    (void)count;

    /* TODO(2): every thread must have stored its value before anyone
     *          reads a neighbour's. */

    /* TODO(3): the tree, with sequential addressing: at each level the
     *          lower half of the values still in play takes in the upper
     *          half, until s[0] holds the sum. Which threads add, and
     *          where must the block wait? (A barrier that some threads of
     *          the block skip is undefined behaviour: the grader's
     *          synccheck and the emulation both report it.) */

    /* TODO(4): thread 0 now holds the block's sum in s[0]: write it to
     *          partial[blockIdx.x]. */
    (void)partial;
    (void)s[tid];
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out,
                                  float *d_scratch, cudaStream_t stream)
{
    /* TODO(5): n == 0: there is nothing to launch (a grid of zero blocks is
     *          an invalid launch), but *d_out must become 0, written on the
     *          stream you were given (the bits of 0.0f are all zero). */

    /* TODO(6): the levels. Launch block_sums over the input: one partial
     *          sum per block. While more than one block was needed, those
     *          partial sums are the next level's input; the level with a
     *          single block writes the answer into d_out. How many blocks
     *          does a level of `count` values need (round up)? Where does
     *          each level write, so that it never overwrites the values it
     *          reads? (d_scratch holds fewer than n / 511 floats, enough for
     *          every level one after another.) Check each launch's error. */
    (void)d_in;
    (void)n;
    (void)d_out;
    (void)d_scratch;
    (void)stream;

    /* TODO(7): return the status of the last launch. */
    return cudaSuccess;

    /* TODO(8), for the fast stage: the levels after the first cost little;
     *          the first one must read at the speed of memory. Give each
     *          thread many elements (a grid-stride loop over a grid the size
     *          of the GPU, summing in a register), load 16 bytes at a time
     *          (float4, after adding the first elements one by one until the
     *          address is 16-byte aligned), and reduce each warp with
     *          __shfl_down_sync instead of shared memory. See the README. */
}
