/* Lab 01's ladder: the same addition under different launch configurations,
 * slowest first. `make ladder LAB=01` checks and times every rung in one run.
 *
 * The lesson is occupancy and bytes in flight: a memory-bound kernel is as
 * fast as the number of loads it keeps in flight, and that number is set by
 * how many threads each SM holds and how many bytes each thread asks for.
 */
#include "vector_add.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

/* One thread per element; the block size is the only thing that changes. */
__global__ void add_one_per_thread(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

static int launch_blocks_of(int threads, void *const *d, const int64_t *dims, void *stream)
{
    int n = (int)dims[0];
    if (n == 0) return cudaSuccess;
    add_one_per_thread<<<(n + threads - 1) / threads, threads, 0, (cudaStream_t)stream>>>(
        (const float *)d[0], (const float *)d[1], (float *)d[2], n);
    return cudaGetLastError();
}

/* v1: one thread per block. An SM holds at most 32 blocks, so it runs 32
 * threads where it could run 2048: almost nothing is in flight. */
static int v1_one_thread_per_block(void *const *d, const int64_t *dims, void *s)
{
    return launch_blocks_of(1, d, dims, s);
}

/* v2: warp-sized blocks. 32 blocks x 32 threads = half the SM's slots. */
static int v2_blocks_of_32(void *const *d, const int64_t *dims, void *s)
{
    return launch_blocks_of(32, d, dims, s);
}

/* v3: 64 threads fill every slot, yet each thread still has one 4-byte
 * load pair in flight and retires quickly: block scheduling overhead shows. */
static int v3_blocks_of_64(void *const *d, const int64_t *dims, void *s)
{
    return launch_blocks_of(64, d, dims, s);
}

/* v4: the textbook version, 256-thread blocks. */
static int v4_blocks_of_256(void *const *d, const int64_t *dims, void *s)
{
    return launch_blocks_of(256, d, dims, s);
}

/* v5: the reference: 16-byte loads in a grid-stride loop over a grid that
 * exactly fills the GPU, four times the bytes per memory instruction. */
static int v5_grid_stride_float4(void *const *d, const int64_t *dims, void *s)
{
    return vector_add((const float *)d[0], (const float *)d[1], (float *)d[2], (int)dims[0],
                      (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_one_thread_per_block", v1_one_thread_per_block},
    {"v2_blocks_of_32", v2_blocks_of_32},
    {"v3_blocks_of_64", v3_blocks_of_64},
    {"v4_blocks_of_256", v4_blocks_of_256},
    {"v5_grid_stride_float4", v5_grid_stride_float4},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
