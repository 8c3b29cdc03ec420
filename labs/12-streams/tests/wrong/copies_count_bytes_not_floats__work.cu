/* WRONG ON PURPOSE: four streams take turns over four slots of d_work, as
 * in the lecture, forked from and joined back to the given stream; but
 * both copies of a chunk are given `count`, the number of floats, where
 * cudaMemcpyAsync takes a number of BYTES. Only the first quarter of every
 * chunk goes to the GPU and back; the kernel computes f over the whole
 * slot (the rest of it holds what the slot held before), and the last
 * three quarters of every chunk of h_out keep the NaN they held on entry.
 * Must first fail the work stage.
 * REPORT-SAYS: never written
 */
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

enum { SLOTS = 4 };

static cudaStream_t streams[SLOTS];
static cudaEvent_t fork_ev, join_ev[SLOTS];

static cudaError_t make_once(void)
{
    static bool made = false;
    if (made) return cudaSuccess;
    cudaError_t e = cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&join_ev[s], cudaEventDisableTiming);
    }
    made = e == cudaSuccess;
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_once();
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS, chunk = work_elems / slots;
    if (e == cudaSuccess) e = cudaEventRecord(fork_ev, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(streams[s], fork_ev, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t s = c % slots, count = n - at < chunk ? n - at : chunk;
        float *slot = d_work + s * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count, cudaMemcpyHostToDevice, streams[s]);
        if (e == cudaSuccess) e = launch_f(slot, count, streams[s]);
        if (e == cudaSuccess) e = cudaMemcpyAsync(h_out + at, slot, count, cudaMemcpyDeviceToHost, streams[s]);
    }
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(join_ev[s], streams[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, join_ev[s], 0);
    }
    return e;
}
