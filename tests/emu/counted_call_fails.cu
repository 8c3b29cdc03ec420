/* A lab 01 submission that is right on every call the grader judges, but
 * whose call fails when not every block of its first kernel ran, as in the
 * emulation's memory-counting run (grader/stages.c, show_memory_counts):
 * the right stage must still pass, and say that no counts came. The
 * emulation part of tests/run.sh grades it. */
#include <cuda_runtime.h>

__device__ unsigned blocks_done;

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (threadIdx.x == 0) atomicAdd(&blocks_done, 1u);
}

/* Every block of add has run, or this faults; then the count starts over. */
__global__ void check_every_block_ran(unsigned blocks)
{
    if (blocks_done != blocks) __trap();
    blocks_done = 0;
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n <= 0) return cudaSuccess;
    unsigned blocks = (unsigned)((n + 255) / 256);
    add<<<blocks, 256, 0, stream>>>(d_a, d_b, d_c, n);
    check_every_block_ran<<<1, 1, 0, stream>>>(blocks);
    return cudaGetLastError();
}
