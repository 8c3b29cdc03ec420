/* CORRECT, in an unusual way: one stream per engine instead of one per
 * slot. A copy-in stream, a kernel stream and a copy-out stream, made once,
 * and three events per slot of d_work, recorded again for every chunk:
 * "copied in", "computed" and "copied out". Chunk c in slot s: its copy in
 * waits for the slot's last "copied out" (chunk c - slots), its kernel for
 * its "copied in", its copy out for its "computed". A wait takes the event's
 * latest record at the moment it is queued, so re-recording an event for
 * the next chunk never disturbs an earlier wait. Fork from `stream` at the
 * start, join all three back at the end.
 * Must pass every stage up to and including right. */
#include <cuda_runtime.h>

#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

/* f over one chunk, in place: data[i] = f(data[i]) for i < count. Done. */
__global__ static void apply_f(float *data, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = f(data[i]);
}

/* Launch apply_f over count elements on stream s (nothing when count == 0). */
static cudaError_t launch_f(float *data, size_t count, cudaStream_t s)
{
    if (count == 0) return cudaSuccess;
    apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(data, count);
    return cudaGetLastError();
}

enum { SLOTS = 4, ENGINES = 3 };

static cudaStream_t engine[ENGINES]; /* 0 copies in, 1 kernels, 2 copies out */
static cudaEvent_t copied_in[SLOTS], computed[SLOTS], copied_out[SLOTS], fork_ev, join_ev[ENGINES];

static cudaError_t make_once(void)
{
    static bool made = false;
    if (made) return cudaSuccess;
    cudaError_t e = cudaSuccess;
    for (int s = 0; s < ENGINES && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&engine[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&join_ev[s], cudaEventDisableTiming);
    }
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaEventCreateWithFlags(&copied_in[s], cudaEventDisableTiming);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&computed[s], cudaEventDisableTiming);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&copied_out[s], cudaEventDisableTiming);
    }
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming);
    made = e == cudaSuccess;
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_once();
    if (e == cudaSuccess) e = cudaEventRecord(fork_ev, stream);
    for (int s = 0; s < ENGINES && e == cudaSuccess; s++) e = cudaStreamWaitEvent(engine[s], fork_ev, 0);

    size_t slots = work_elems < SLOTS ? work_elems : SLOTS, chunk = work_elems / slots;
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t s = c % slots, count = n - at < chunk ? n - at : chunk, bytes = count * sizeof(float);
        float *slot = d_work + s * chunk;
        if (c >= slots) e = cudaStreamWaitEvent(engine[0], copied_out[s], 0);
        if (e == cudaSuccess) e = cudaMemcpyAsync(slot, h_in + at, bytes, cudaMemcpyHostToDevice, engine[0]);
        if (e == cudaSuccess) e = cudaEventRecord(copied_in[s], engine[0]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(engine[1], copied_in[s], 0);
        if (e == cudaSuccess) e = launch_f(slot, count, engine[1]);
        if (e == cudaSuccess) e = cudaEventRecord(computed[s], engine[1]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(engine[2], computed[s], 0);
        if (e == cudaSuccess) e = cudaMemcpyAsync(h_out + at, slot, bytes, cudaMemcpyDeviceToHost, engine[2]);
        if (e == cudaSuccess) e = cudaEventRecord(copied_out[s], engine[2]);
    }

    for (int s = 0; s < ENGINES && e == cudaSuccess; s++) {
        e = cudaEventRecord(join_ev[s], engine[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, join_ev[s], 0);
    }
    return e;
}
