/* Lab 04's ladder: Mark Harris's "Optimizing Parallel Reduction in CUDA"
 * as the lecture slides tell it, rung by rung, then the modern rungs. Slowest first;
 * `make ladder LAB=04` checks every rung and prints time, GB/s, % of copy,
 * step speedup and cumulative speedup, like the lecture slides' G80 table:
 *
 *   kernel 1 interleaved, divergent      8.054 ms    2.08 GB/s
 *   kernel 2 interleaved, bank conflicts 3.456 ms    4.85 GB/s   2.33x
 *   kernel 3 sequential addressing       1.722 ms    9.74 GB/s   2.01x
 *   kernel 4 first add during load       0.965 ms   17.38 GB/s   1.78x
 *   kernel 5 unroll last warp            0.536 ms   31.29 GB/s   1.80x
 *   kernel 6 completely unrolled         0.381 ms   44.00 GB/s   1.41x
 *   kernel 7 multiple elements / thread  0.268 ms   62.67 GB/s   1.42x  (30x)
 *   (2^22 ints on a G80, 86.4 GB/s peak)
 *
 * Two things changed since. A modern GPU hides latency so much better that
 * the early rungs are far less bad (first H100 measurements: kernel 1 at 14% of copy on an
 * H100, not 2.4%), and the warp is no longer a lock-step unit: since Volta
 * every thread has its own program counter, so kernel 5's "a warp needs no
 * synchronisation" is a data race. Rung 5 here keeps Harris's structure
 * and adds the __syncwarp() that makes it correct.
 *
 * Rungs 1-6 finish the way the lecture slides do: recursively, one launch per level,
 * each level's block sums written to d_scratch for the next level (the
 * recursive multi-launch strategy). Rung 7 runs a grid the size of the GPU
 * and needs exactly two launches. Rung 8 adds the block sums with one
 * atomicAdd per block (the atomics strategy); the reference, last, uses the
 * same kernel with a deterministic second launch instead.
 */
#include "reduce.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* Threads per block in rungs 2-7 (rung 1, the lab's baseline, uses 256
 * too). Rungs 1-5 read the block size at run time (blockDim.x), as Harris's
 * kernels 1-5 do, so their loops cannot be unrolled and t % (2 s) stays a
 * real division; rung 6 makes it a template parameter and the compiler
 * unrolls everything. (A compile-time B inside rungs 1-5 would quietly give
 * them rung 6's gain: on an H200 a v1 written that way ran twice as fast as
 * the baseline.) */
static const unsigned B = 256;

typedef void (*level_fn)(unsigned blocks, const float *in, unsigned n, float *out,
                         cudaStream_t st);

/* The recursive finish: a level turns `count` values into one sum per block
 * of `per_block` elements; block sums go to d_scratch, each level after
 * the previous one's, until a single block writes d_out. */
static int recursive(level_fn level, unsigned per_block, void *const *d, const int64_t *dims,
                     void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const float *src = (const float *)d[0];
    float *out = (float *)d[1], *scratch = (float *)d[2];
    unsigned count = (unsigned)dims[0];
    if (count == 0) return cudaMemsetAsync(out, 0, sizeof(float), st);
    for (;;) {
        unsigned blocks = (count + per_block - 1) / per_block;
        float *dst = blocks == 1 ? out : scratch;
        level(blocks, src, count, dst, st);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || blocks == 1) return e;
        src = dst;
        count = blocks;
        scratch += blocks;
    }
}

/* ---- v1: interleaved addressing, divergent branch ----------------------
 * Thread t loads element t of its block's 256; at step s the threads with
 * t % 2s == 0 add s[t + s]. The integer % is slow, and the working threads
 * are spread over all eight warps: every warp stays busy for one or two
 * useful lanes until the last step. This rung is the lab's own baseline
 * (labs/04-reduction/trusted/lab.cu, linked into every runner), called through the
 * lab's table: the first rung and the kernel every speedup is measured
 * against are one kernel, not two copies that could drift apart. */
static int v1_interleaved_divergent(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* ---- v2: interleaved addressing, strided index ------------------------
 * The first threads do the work (index = 2 s t), so whole warps retire
 * early and no % is left. But thread t touches s[2 s t], a stride of 2 s
 * words: at s = 1 two threads of a warp share each bank, at s = 2 four, from
 * s = 4 to 16 eight (as few threads are left as the stride allows), then
 * four and two. Accesses to one bank are serialised (bank conflicts). */
__global__ void v2_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[B];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = 1; step < blockDim.x; step *= 2) {
        unsigned index = 2 * step * tid;
        if (index < blockDim.x) s[index] += s[index + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
static void v2_level(unsigned g, const float *in, unsigned n, float *out, cudaStream_t st)
{
    v2_kernel<<<g, B, 0, st>>>(in, n, out);
}
static int v2_interleaved_bank_conflicts(void *const *d, const int64_t *dims, void *s)
{
    return recursive(v2_level, B, d, dims, s);
}

/* ---- v3: sequential addressing ----------------------------------------
 * At step s the first s threads add s[t + s] to s[t]: consecutive threads,
 * consecutive words, no conflict, no divergence inside a busy warp. Still,
 * half the threads only ever load: they leave after the first barrier. */
__global__ void v3_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[B];
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
static void v3_level(unsigned g, const float *in, unsigned n, float *out, cudaStream_t st)
{
    v3_kernel<<<g, B, 0, st>>>(in, n, out);
}
static int v3_sequential_addressing(void *const *d, const int64_t *dims, void *s)
{
    return recursive(v3_level, B, d, dims, s);
}

/* ---- v4: first add during the global load ------------------------------
 * Each block covers 2 x 256 elements and every thread adds its two while
 * loading: half the blocks, no idle thread at the first step. Both loads
 * are guarded, the second one too (i + B may be past n). */
__device__ __forceinline__ float load_pair(const float *in, unsigned n, unsigned i)
{
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    return v;
}
__global__ void v4_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[B];
    unsigned tid = threadIdx.x;
    s[tid] = load_pair(in, n, blockIdx.x * 2 * blockDim.x + tid);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
static void v4_level(unsigned g, const float *in, unsigned n, float *out, cudaStream_t st)
{
    v4_kernel<<<g, B, 0, st>>>(in, n, out);
}
static int v4_first_add_during_load(void *const *d, const int64_t *dims, void *s)
{
    return recursive(v4_level, 2 * B, d, dims, s);
}

/* ---- v5: the last warp unrolled, made correct --------------------------
 * When 32 or fewer threads are left they are one warp, so the block-wide
 * barriers and the loop can go. Harris wrote the six steps with a volatile
 * pointer and nothing else, counting on the warp's lanes moving in lock
 * step. Since Volta they need not: lane t may read s[t + 16] before lane
 * t + 16 has written it (racecheck reports it). __syncwarp() between the
 * reads and the writes of each step restores the order for the price of
 * one cheap warp-level barrier; the value travels in a register. */
__device__ __forceinline__ void warp_tail_64(float *s, unsigned tid)
{
    float v = s[tid];
    for (unsigned step = 32; step > 0; step /= 2) {
        v += s[tid + step];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
}
__global__ void v5_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[B];
    unsigned tid = threadIdx.x;
    s[tid] = load_pair(in, n, blockIdx.x * 2 * blockDim.x + tid);
    __syncthreads();
    for (unsigned step = blockDim.x / 2; step > 32; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid < 32) warp_tail_64(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}
static void v5_level(unsigned g, const float *in, unsigned n, float *out, cudaStream_t st)
{
    v5_kernel<<<g, B, 0, st>>>(in, n, out);
}
static int v5_unrolled_last_warp_syncwarp(void *const *d, const int64_t *dims, void *s)
{
    return recursive(v5_level, 2 * B, d, dims, s);
}

/* ---- v6: completely unrolled, block size as a template parameter -------
 * With the block size known at compile time every `if (BS >= ...)` is
 * decided by the compiler: no loop counter, no comparison, no branch for
 * the steps this block size does not have. (The lecture slides' French deck does
 * the same with #if BLOCK_SIZE; a template makes one kernel per size.) */
template <unsigned BS>
__device__ __forceinline__ void block_tree(float *s, unsigned tid)
{
    static_assert(BS >= 64 && BS <= 1024 && (BS & (BS - 1)) == 0, "a power of two, 64..1024");
    if (BS >= 1024) { if (tid < 512) s[tid] += s[tid + 512]; __syncthreads(); }
    if (BS >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (BS >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (BS >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
    if (tid < 32) {
        float v = s[tid];
        v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp();
        v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp();
        v += s[tid + 8];  __syncwarp(); s[tid] = v; __syncwarp();
        v += s[tid + 4];  __syncwarp(); s[tid] = v; __syncwarp();
        v += s[tid + 2];  __syncwarp(); s[tid] = v; __syncwarp();
        v += s[tid + 1];  __syncwarp(); s[tid] = v;
    }
}
template <unsigned BS>
__global__ void v6_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[BS];
    unsigned tid = threadIdx.x, i = blockIdx.x * 2 * BS + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + BS < n) v += in[i + BS];
    s[tid] = v;
    __syncthreads();
    block_tree<BS>(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}
static void v6_level(unsigned g, const float *in, unsigned n, float *out, cudaStream_t st)
{
    v6_kernel<B><<<g, B, 0, st>>>(in, n, out);
}
static int v6_complete_unroll_template(void *const *d, const int64_t *dims, void *s)
{
    return recursive(v6_level, 2 * B, d, dims, s);
}

/* ---- v7: many elements per thread ---------------------------------------
 * Brent's theorem in practice: a grid of only as many blocks as the GPU
 * holds at once, each thread adding two elements per pass of a grid-stride
 * loop into a register, then one tree per block. Far fewer blocks to
 * schedule and trees to run, and more loads in flight per thread. The
 * block sums (a few thousand) are added by a second launch of the same
 * kernel with one block. */
template <unsigned BS>
__global__ void v7_kernel(const float *in, unsigned n, float *out)
{
    __shared__ float s[BS];
    unsigned tid = threadIdx.x, grid = 2 * BS * gridDim.x;
    float v = 0.0f;
    for (unsigned i = blockIdx.x * 2 * BS + tid; i < n; i += grid) {
        v += in[i];
        if (i + BS < n) v += in[i + BS];
    }
    s[tid] = v;
    __syncthreads();
    block_tree<BS>(s, tid);
    if (tid == 0) out[blockIdx.x] = s[0];
}

static unsigned ladder_resident_blocks(const void *kernel, int threads)
{
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0);
    return (unsigned)(sms * per_sm);
}

static int v7_many_elements_per_thread(void *const *d, const int64_t *dims, void *stream)
{
    static unsigned resident = 0;
    if (!resident) resident = ladder_resident_blocks((const void *)v7_kernel<B>, B);
    cudaStream_t st = (cudaStream_t)stream;
    const float *in = (const float *)d[0];
    float *out = (float *)d[1], *scratch = (float *)d[2];
    unsigned n = (unsigned)dims[0];
    if (n == 0) return cudaMemsetAsync(out, 0, sizeof(float), st);
    unsigned blocks = (n + 2 * B - 1) / (2 * B);
    if (blocks > resident) blocks = resident;
    v7_kernel<B><<<blocks, B, 0, st>>>(in, n, blocks == 1 ? out : scratch);
    if (blocks > 1) v7_kernel<B><<<1, B, 0, st>>>(scratch, blocks, out);
    return cudaGetLastError();
}

/* ---- v8: 16-byte loads, warp shuffles, one atomicAdd per block ----------
 * The reference's grid-stride float4 loop and shuffle reduction, finished
 * the other way of the lecture slides: every block adds its sum straight into d_out.
 * d_out holds garbage on entry, so it is zeroed on the stream first (one
 * more tiny operation, ordered before the kernel). Float addition is not
 * associative and the blocks' atomics land in a different order on every
 * run, so the last bits of the answer change from run to run; the error
 * bound covers every order. */
__global__ void __launch_bounds__(THREADS)
v8_kernel(const float *in, int n, int head, float *out)
{
    float sum = grid_stride_block_sum(in, n, head); /* the reference's loads */
    if (threadIdx.x == 0) atomicAdd(out, sum);
}

static int v8_float4_shuffles_atomic(void *const *d, const int64_t *dims, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const float *in = (const float *)d[0];
    float *out = (float *)d[1];
    int n = (int)dims[0];
    cudaError_t e = cudaMemsetAsync(out, 0, sizeof(float), st);
    if (e != cudaSuccess || n == 0) return e;
    int head = (int)(((16 - ((uintptr_t)in & 15)) & 15) / 4);
    if (head > n) head = n;
    int needed = ((n - head) / 4 + THREADS - 1) / THREADS, blocks;
    if ((e = resident_blocks(&blocks)) != cudaSuccess) return e;
    if (needed < blocks) blocks = needed > 0 ? needed : 1;
    v8_kernel<<<blocks, THREADS, 0, st>>>(in, n, head, out);
    return cudaGetLastError();
}

/* ---- CUB: the library's answer, for comparison ----------------------------
 * cub::DeviceReduce::Sum picks its tile size and grid per GPU. Its temporary
 * storage lives in d_scratch, as the contract allows (CUB aligns it itself),
 * so it uses no memory the other rungs do not have; the size is asked once
 * per n, since the query is host work between timed launches. */
#ifndef CUDA_EMU
#include <cub/device/device_reduce.cuh>

static int cub_device_reduce_sum(void *const *d, const int64_t *dims, void *stream)
{
    static int64_t asked_n = -1;
    static size_t needed = 0;
    cudaStream_t st = (cudaStream_t)stream;
    const float *in = (const float *)d[0];
    float *out = (float *)d[1];
    int n = (int)dims[0];
    if (asked_n != dims[0]) {
        cudaError_t e = cub::DeviceReduce::Sum(nullptr, needed, in, out, n, st);
        if (e != cudaSuccess) return e;
        asked_n = dims[0];
    }
    size_t have = ((size_t)n + 1024) * sizeof(float);
    if (needed > have) return cudaErrorInvalidValue; /* never at the ladder's sizes */
    return cub::DeviceReduce::Sum(d[2], have, in, out, n, st);
}
#endif

/* ---- the reference: v8's kernel, deterministic two-launch finish ---------- */
static int v9_float4_shuffles_two_pass(void *const *d, const int64_t *dims, void *s)
{
    return reduce_sum((const float *)d[0], (int)dims[0], (float *)d[1], (float *)d[2],
                      (cudaStream_t)s);
}

static const lab_rung RUNGS[] = {
    {"v1_interleaved_divergent", v1_interleaved_divergent},
    {"v2_interleaved_bank_conflicts", v2_interleaved_bank_conflicts},
    {"v3_sequential_addressing", v3_sequential_addressing},
    {"v4_first_add_during_load", v4_first_add_during_load},
    {"v5_unrolled_last_warp_syncwarp", v5_unrolled_last_warp_syncwarp},
    {"v6_complete_unroll_template", v6_complete_unroll_template},
    {"v7_many_elements_per_thread", v7_many_elements_per_thread},
    {"v8_float4_shuffles_atomic", v8_float4_shuffles_atomic},
#ifndef CUDA_EMU
    {"cub_device_reduce_sum", cub_device_reduce_sum},
#endif
    {"v9_float4_shuffles_two_pass", v9_float4_shuffles_two_pass},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
