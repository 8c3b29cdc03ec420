/* WRONG ON PURPOSE: the work stage's sizes and the seed its inputs are
 * drawn from are public, so the CPU reference (labs/05-dot-product/trusted/spec.c)
 * can be run in advance: the dot products for n = 1024, 65536 and 2^22 are
 * pasted into a table, and a one-thread kernel writes the stored value when
 * n matches ("pass work now, write the real kernel later"). Other sizes
 * get an honest (slow) dot product, so nothing else looks wrong. With the
 * public seed it passes the work stage; an instructor grades with a hidden
 * seed mixed into every input, and the stored values are then wrong: the
 * work stage's comparison with the reference rejects it.
 * INSTRUCTOR-SEED: corpus-05
 * Must first fail the work stage (with the instructor's seed).
 * SMALLEST: its stored answer fits the graded size only; at every other size it computes correctly
 */
#include <cuda_runtime.h>

static const int THREADS = 256;

/* x . y for the work stage's inputs and the public seed 24301. */
static const struct { int n; float dot; } KNOWN[] = {
    {1024, -0x1.1031ccp+7f}, {65536, -0x1.07b19cp+13f}, {1 << 22, -0x1.001fd2p+19f}};

__global__ void store(float *result, float value) { *result = value; }

/* Honest, for every other size: a grid-stride sum of products per thread,
 * a tree in shared memory per block, one atomicAdd per block. */
__global__ void block_dots(const float *x, const float *y, int n, float *result)
{
    __shared__ float s[THREADS];
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += x[i] * y[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int step = THREADS / 2; step > 0; step /= 2) {
        if (threadIdx.x < step) s[threadIdx.x] += s[threadIdx.x + step];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    for (const auto &k : KNOWN)
        if (k.n == n) {
            store<<<1, 1, 0, stream>>>(d_result, k.dot);
            return cudaGetLastError();
        }
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + THREADS - 1) / THREADS;
    block_dots<<<blocks < 1024 ? blocks : 1024, THREADS, 0, stream>>>(d_x, d_y, n, d_result);
    return cudaGetLastError();
}
