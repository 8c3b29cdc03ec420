/* WRONG ON PURPOSE: a chained single-pass scan (tile index from an atomic
 * counter, flags reset on the stream, read through a volatile pointer)
 * with an off-by-one in the look-back: a tile waits for the flag of tile
 * `tile`, its own, instead of tile - 1. Only a tile itself publishes its
 * flag, after that wait, so every tile but the first waits for ever, on
 * every GPU and whatever the order the blocks start in: no other block
 * can ever set that flag. The first work call (n = 1024, 4 tiles) hangs.
 * Must first fail the work stage.
 * TIME-LIMITS: 3,6
 * REPORT-SAYS: a block may only wait for tiles that started before it
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>
#include <stdint.h>

#define T 256 /* one element per thread, one tile per block */

enum { FLAG_EMPTY = 0, FLAG_PREFIX = 2 };

__global__ void scan_chained(const unsigned *in, unsigned *out, int n, unsigned *counter,
                             volatile unsigned long long *status)
{
    __shared__ unsigned s[T], s_tile, s_prefix;
    int tid = threadIdx.x;
    if (tid == 0) s_tile = atomicAdd(counter, 1u);
    __syncthreads();
    unsigned tile = s_tile;
    long long i = (long long)tile * T + tid;
    unsigned x = i < n ? in[i] : 0u;
    s[tid] = x;
    __syncthreads();
    for (int d = 1; d < T; d *= 2) { /* Hillis-Steele: inclusive */
        unsigned left = tid >= d ? s[tid - d] : 0u;
        __syncthreads();
        s[tid] += left;
        __syncthreads();
    }
    if (tid == 0) {
        unsigned prefix = 0;
        if (tile > 0) {
            unsigned long long st;
            do st = status[tile]; /* should be status[tile - 1] */
            while ((unsigned)(st >> 32) != FLAG_PREFIX);
            prefix = (unsigned)st;
        }
        status[tile] = (unsigned long long)FLAG_PREFIX << 32 | (prefix + s[T - 1]);
        s_prefix = prefix;
    }
    __syncthreads();
    if (i < n) out[i] = s_prefix + s[tid] - x;
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    unsigned tiles = (unsigned)(((long long)n + T - 1) / T);
    /* d_scratch is garbage: the counter, then 8-byte-aligned flags, zeroed. */
    unsigned *counter = d_scratch;
    unsigned long long *status = reinterpret_cast<unsigned long long *>(
        (reinterpret_cast<uintptr_t>(d_scratch + 1) + 7) & ~static_cast<uintptr_t>(7));
    size_t bytes = reinterpret_cast<char *>(status + tiles) - reinterpret_cast<char *>(counter);
    cudaError_t e = cudaMemsetAsync(counter, 0, bytes, stream);
    if (e != cudaSuccess) return e;
    scan_chained<<<tiles, T, 0, stream>>>(d_in, d_out, n, counter, status);
    return cudaGetLastError();
}
