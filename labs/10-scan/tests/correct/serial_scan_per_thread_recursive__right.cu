/* CORRECT, UNUSUAL: no shared memory and no barrier at all. Each thread
 * scans 16 consecutive elements serially in registers and leaves their
 * sum in d_scratch; the sums (n / 16 of them) are scanned by calling the
 * same function on them, with the rest of d_scratch as its scratch, until
 * at most 16 are left for one thread; then every element gets its chunk's
 * offset. Work-efficient (n adds per level, n / 16 + n / 256 + ... in
 * all), but each warp's loads are 64 bytes apart, so it is slow.
 */
#include <cuda_runtime.h>

#define CHUNK 16

__global__ void scan_chunks(const unsigned *in, unsigned *out, long long n, unsigned *sums)
{
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long first = c * CHUNK;
    if (first >= n) return;
    unsigned run = 0;
    for (long long i = first; i < first + CHUNK && i < n; i++) {
        unsigned v = in[i];
        out[i] = run;
        run += v;
    }
    sums[c] = run;
}

__global__ void add_chunk_offsets(unsigned *out, long long n, const unsigned *offsets)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += offsets[i / CHUNK];
}

/* Scratch used: 2 * (n / 16 + 1) words for this level's sums and their
 * scan, then the same for the levels above: under n / 7 + 8 in all. */
static cudaError_t scan_level(const unsigned *in, unsigned *out, long long n, unsigned *scratch,
                              cudaStream_t stream)
{
    long long chunks = (n + CHUNK - 1) / CHUNK;
    unsigned *sums = scratch, *offsets = scratch + chunks;
    scan_chunks<<<(unsigned)((chunks + 255) / 256), 256, 0, stream>>>(in, out, n, sums);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || chunks == 1) return e;
    e = scan_level(sums, offsets, chunks, offsets + chunks, stream);
    if (e != cudaSuccess) return e;
    add_chunk_offsets<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(out, n, offsets);
    return cudaGetLastError();
}

extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    return scan_level(d_in, d_out, n, d_scratch, stream);
}
