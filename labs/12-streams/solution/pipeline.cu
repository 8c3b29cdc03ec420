/* pipeline.cu - lab 12 reference: a copy/compute pipeline on four streams.
 *
 * h_out[i] = f(h_in[i]) for n floats in pinned host memory, through d_work
 * (work_elems floats of device memory). The data goes through in chunks;
 * chunk c runs on stream c % SLOTS and uses slot c % SLOTS of d_work:
 *
 *   stream 0:  [in 0][f 0][out 0][in 4][f 4][out 4] ...
 *   stream 1:        [in 1][f 1][out 1][in 5][f 5] ...
 *   stream 2:              [in 2][f 2][out 2] ...
 *   stream 3:                    [in 3][f 3][out 3] ...
 *
 * One stream's operations run in order, so a slot is refilled only once
 * its last chunk went out; different streams' operations overlap, so the
 * copy engine from the host, the SMs and the copy engine to the host each
 * work on a different chunk at the same time. Once the pipeline is full,
 * a chunk leaves every max(H2D, kernel, D2H) per chunk, and the call takes
 * about the slowest of the three parts plus one chunk of each of the
 * other two (filling and draining). Chunks of at most 2^20 floats (4 MiB)
 * make that fill and drain small (2 of 64 chunks at the timed size) while
 * each copy stays large enough to run at the link's full rate.
 *
 * The streams are the call's own, non-blocking (a blocking stream waits
 * for the legacy default stream, which other code may be using), made on
 * the first call and kept. The call forks from `stream` (the streams wait
 * for what was queued there before the call: h_in may be the result of
 * it) and joins back (`stream` waits for the last operation of each), so
 * to the caller it is one asynchronous operation on `stream`; it never
 * waits on the host.
 */
#include <cuda_runtime.h>

enum { SLOTS = 4 };
static const size_t MAX_CHUNK = (size_t)1 << 20;

/* The lab's function, exactly as given: PIPELINE_F_STEPS steps of
 * y = x - y^2 / 4, one fmaf each. */
#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

/* One thread per element of a chunk, in place in its slot of d_work. */
__global__ static void apply_f(float *data, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = f(data[i]);
}

static cudaStream_t lanes[SLOTS];
static cudaEvent_t forked, joined[SLOTS];
static bool made;

static cudaError_t make_streams(void)
{
    if (made) return cudaSuccess;
    cudaError_t e = cudaEventCreateWithFlags(&forked, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&lanes[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&joined[s], cudaEventDisableTiming);
    }
    made = e == cudaSuccess;
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_streams();
    if (e != cudaSuccess) return e;
    /* As many slots as d_work holds (work_elems may be as small as 1), and
     * chunks that fit in one. */
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS;
    size_t chunk = work_elems / slots;
    if (chunk > MAX_CHUNK) chunk = MAX_CHUNK;

    /* Fork: every stream starts after what `stream` already holds. */
    e = cudaEventRecord(forked, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++)
        e = cudaStreamWaitEvent(lanes[s], forked, 0);

    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        cudaStream_t s = lanes[c % slots];
        float *slot = d_work + (c % slots) * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(slot, count);
        e = cudaGetLastError();
        if (e != cudaSuccess) break;
        e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }

    /* Join: `stream` waits for the last operation of every stream used. */
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(joined[s], lanes[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined[s], 0);
    }
    return e != cudaSuccess ? e : cudaGetLastError();
}
