/* WRONG ON PURPOSE: one stream per engine (copies in, kernels, copies
 * out), ordered with events, and one event wrong: the copy out of a chunk
 * waits for the chunk's copy IN (copied and pasted) instead of its kernel.
 * On a GPU the copy out then starts together with the kernel and reads the
 * slot before the kernel has written it: the chunk's input comes back, not
 * f of it. d_work's slots hold the chunk's input at that moment, so every
 * chunk raced is wrong by millions of ulps, on every run.
 * EMULATION: pass pass: the emulation runs every operation the moment it is queued, in program order, so the copy out always comes after the kernel
 * REPORT-SAYS: its kernel finished
 * (both hints a copy out too early can get say it: the wrong-value one when
 * the chunk's input comes back, the NaN-or-Inf one when d_work's random
 * bits do, as on an H100 on 2026-11-27)
 */
#include <cuda_runtime.h>

#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

__global__ static void apply_f(float *data, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = f(data[i]);
}

enum { SLOTS = 4, ENGINES = 3 };
static cudaStream_t engine[ENGINES]; /* copies in, kernels, copies out */
static cudaEvent_t copied_in[SLOTS], computed[SLOTS], copied_out[SLOTS], forked, joined;
static bool made;

static cudaError_t make_all(void)
{
    if (made) return cudaSuccess;
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < ENGINES && e == cudaSuccess; i++)
        e = cudaStreamCreateWithFlags(&engine[i], cudaStreamNonBlocking);
    cudaEvent_t *all[] = {copied_in, computed, copied_out};
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < SLOTS && e == cudaSuccess; s++)
            e = cudaEventCreateWithFlags(&all[k][s], cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&forked, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&joined, cudaEventDisableTiming);
    made = e == cudaSuccess;
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_all();
    if (e != cudaSuccess) return e;
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS;
    size_t chunk = work_elems / slots;
    if (chunk > ((size_t)1 << 20)) chunk = (size_t)1 << 20;
    e = cudaEventRecord(forked, stream);
    for (int i = 0; i < ENGINES && e == cudaSuccess; i++)
        e = cudaStreamWaitEvent(engine[i], forked, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk, s = c % slots;
        float *slot = d_work + s * chunk;
        /* the slot is free once its last chunk went out */
        if (c >= slots) e = cudaStreamWaitEvent(engine[0], copied_out[s], 0);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice,
                                engine[0]);
        if (e == cudaSuccess) e = cudaEventRecord(copied_in[s], engine[0]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(engine[1], copied_in[s], 0);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, engine[1]>>>(slot, count);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaEventRecord(computed[s], engine[1]);
        /* the bug: copied_in where computed[s] belongs */
        if (e == cudaSuccess) e = cudaStreamWaitEvent(engine[2], copied_in[s], 0);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost,
                                engine[2]);
        if (e == cudaSuccess) e = cudaEventRecord(copied_out[s], engine[2]);
    }
    for (int i = 0; i < ENGINES && e == cudaSuccess; i++) {
        e = cudaEventRecord(joined, engine[i]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined, 0);
    }
    return e != cudaSuccess ? e : cudaGetLastError();
}
