/* Lab 12's ladder: every version of the lesson, slowest first.
 * `make ladder LAB=12` checks and times every rung in one run, together
 * with the three parts of the bound (the whole input copied in, the kernel
 * over it, the whole output copied out, each alone); `make ladder LAB=12
 * RESULTS=labs/12-streams/slides/ladder.json` keeps the figures for the
 * slides' chart (`make charts`).
 */
#include "pipeline.cu" /* the reference solution: the last streamed rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* A pipeline over `lanes` streams of one's own, chunks of at most
 * max_chunk, forked from and joined to `stream`: the reference's loop with
 * the two choices the rungs differ in as parameters. */
typedef struct {
    cudaStream_t s[SLOTS];
    cudaEvent_t fork, join[SLOTS];
    int made;
} lane_set;

static cudaError_t make_lanes(lane_set *l, unsigned stream_flags)
{
    if (l->made) return cudaSuccess;
    cudaError_t e = cudaEventCreateWithFlags(&l->fork, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&l->s[s], stream_flags);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&l->join[s], cudaEventDisableTiming);
    }
    l->made = e == cudaSuccess;
    return e;
}

static int pipelined(lane_set *l, unsigned stream_flags, size_t lanes, size_t max_chunk,
                     void *const *d, const int64_t *dims, void *stream_arg)
{
    const float *h_in = (const float *)d[0];
    float *h_out = (float *)d[1], *d_work = (float *)d[2];
    size_t n = (size_t)dims[0], work = (size_t)dims[1];
    cudaStream_t stream = (cudaStream_t)stream_arg;
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_lanes(l, stream_flags);
    if (e != cudaSuccess) return e;
    size_t slots = work < lanes ? work : lanes;
    size_t chunk = work / slots < max_chunk ? work / slots : max_chunk;
    e = cudaEventRecord(l->fork, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(l->s[s], l->fork, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        cudaStream_t s = l->s[c % slots];
        float *slot = d_work + (c % slots) * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(slot, count);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(l->join[s], l->s[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, l->join[s], 0);
    }
    return e != cudaSuccess ? e : cudaGetLastError();
}

/* v1: the fast stage's baseline itself (trusted/lab.cu): chunks of
 * work_elems, copy in, kernel, copy out, all on `stream`. One engine busy
 * at a time: H2D + kernel + D2H. */
static int v1_serial_chunks(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* v2: smaller chunks (2^20 floats) on one stream. Chunking alone buys
 * nothing: one stream still runs one operation at a time. */
static int v2_one_stream_small_chunks(void *const *d, const int64_t *dims, void *s)
{
    static lane_set l;
    return pipelined(&l, cudaStreamNonBlocking, 1, (size_t)1 << 20, d, dims, s);
}

/* v3: two streams taking turns. A chunk's kernel overlaps the other
 * stream's copies, but both copies of one stream are serial with its
 * kernel: two of the three engines at most. */
static int v3_two_streams(void *const *d, const int64_t *dims, void *s)
{
    static lane_set l;
    return pipelined(&l, cudaStreamNonBlocking, 2, (size_t)1 << 20, d, dims, s);
}

/* v4: four streams, but each chunk a quarter of d_work (2^22 floats at
 * the timed size: 16 chunks). Everything overlaps once the pipeline is
 * full, but filling and draining it (the first chunk's copy in, the last
 * one's copy out, alone) is 2 chunk times out of 18. */
static int v4_four_streams_big_chunks(void *const *d, const int64_t *dims, void *s)
{
    static lane_set l;
    return pipelined(&l, cudaStreamNonBlocking, 4, (size_t)-1, d, dims, s);
}

/* v5: the reference's pipeline on blocking streams (cudaStreamCreate's
 * default). Each of them waits for the legacy default stream, which the
 * grader holds during every call as a busy program might: the pipeline
 * starts only once that hold gives up. */
static int v5_blocking_streams(void *const *d, const int64_t *dims, void *s)
{
    static lane_set l;
    return pipelined(&l, cudaStreamDefault, 4, (size_t)1 << 20, d, dims, s);
}

/* v6: the reference (pipeline.cu): four non-blocking streams, chunks of
 * 2^20 floats (64 at the timed size): filling and draining cost 2 of 66
 * chunk times. */
static int v6_four_streams(void *const *d, const int64_t *dims, void *s)
{
    return pipeline((const float *)d[0], (float *)d[1], (size_t)dims[0], (float *)d[2],
                    (size_t)dims[1], (cudaStream_t)s);
}

/* v7: zero-copy. No copies and no d_work: the kernel reads h_in and writes
 * h_out through the host link itself (pinned memory is mapped for the GPU
 * at the same address). The overlap is the warps': while some wait for
 * their loads across the link, others compute. Each load is a small
 * request across PCIe, so how close it comes to the copy engines depends
 * on how many are in flight. */
__global__ static void apply_f_mapped(const float *in, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(in[i]);
}

static int v7_zero_copy(void *const *d, const int64_t *dims, void *s)
{
    size_t n = (size_t)dims[0];
    if (n == 0) return cudaSuccess;
    apply_f_mapped<<<(unsigned)((n + 255) / 256), 256, 0, (cudaStream_t)s>>>(
        (const float *)d[0], (float *)d[1], n);
    return cudaGetLastError();
}

static const lab_rung RUNGS[] = {
    {"v1_serial_chunks", v1_serial_chunks},
    {"v2_one_stream_small_chunks", v2_one_stream_small_chunks},
    {"v3_two_streams", v3_two_streams},
    {"v4_four_streams_big_chunks", v4_four_streams_big_chunks},
    {"v5_blocking_streams", v5_blocking_streams},
    {"v6_four_streams", v6_four_streams},
    {"v7_zero_copy", v7_zero_copy},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
