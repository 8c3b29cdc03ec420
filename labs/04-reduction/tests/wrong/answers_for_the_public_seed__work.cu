/* WRONG ON PURPOSE: the work stage's sizes and the seed its inputs are
 * drawn from are public, so the CPU reference (labs/04-reduction/trusted/spec.c)
 * can be run in advance: the sums for n = 1024, 65536 and 2^20 are pasted
 * into a table, and a one-thread kernel writes the stored sum when n
 * matches ("pass work now, write the real kernel later"). Other sizes get
 * an honest (slow) reduction, so nothing else looks wrong. With the
 * public seed it passes the work stage; an instructor grades with a hidden
 * seed mixed into every input, and the stored sums are then wrong: the
 * work stage's comparison with the reference rejects it.
 * INSTRUCTOR-SEED: corpus-04
 * Must first fail the work stage (with the instructor's seed).
 * SMALLEST: its stored answer fits the graded size only; at every other size it sums correctly
 */
#include <cuda_runtime.h>

static const int THREADS = 256;

/* The sums of the work stage's inputs for the public seed 24301. */
static const struct { int n; float sum; } KNOWN[] = {
    {1024, 0x1.fd86ap+9f}, {65536, 0x1.00a20ep+16f}, {1 << 20, 0x1.000f92p+20f}};

__global__ void store(float *out, float value) { *out = value; }

/* Honest, for every other size: a grid-stride sum per thread, a tree in
 * shared memory per block, one atomicAdd per block. */
__global__ void block_sums(const float *in, int n, float *out)
{
    __shared__ float s[THREADS];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = THREADS / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, s[0]);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    for (const auto &k : KNOWN)
        if (k.n == n) {
            store<<<1, 1, 0, stream>>>(d_out, k.sum);
            return cudaGetLastError();
        }
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + THREADS - 1) / THREADS;
    block_sums<<<blocks < 1024 ? blocks : 1024, THREADS, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
