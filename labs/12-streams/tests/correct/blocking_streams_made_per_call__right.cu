/* CORRECT, UNUSUAL: three streams made with plain cudaStreamCreate (so
 * blocking: each waits for the legacy default stream) and three events,
 * all created at the start of every call and destroyed at its end
 * (cudaStreamDestroy and cudaEventDestroy return at once; the work queued
 * still runs, and a wait on a destroyed event's record still holds). Right
 * everywhere; slow where it is timed, since the grader holds the legacy
 * default stream during every call and a blocking stream waits for it.
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

enum { LANES = 3 };

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    size_t lanes = work_elems < LANES ? work_elems : LANES;
    size_t chunk = work_elems / lanes;
    cudaStream_t s[LANES];
    cudaEvent_t ev[LANES + 1]; /* ev[LANES]: the fork */
    cudaError_t e = cudaEventCreateWithFlags(&ev[LANES], cudaEventDisableTiming);
    size_t made = 0;
    for (; made < lanes && e == cudaSuccess; made++) {
        e = cudaStreamCreate(&s[made]);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&ev[made], cudaEventDisableTiming);
        if (e != cudaSuccess) break;
    }
    if (e == cudaSuccess) e = cudaEventRecord(ev[LANES], stream);
    for (size_t l = 0; l < lanes && e == cudaSuccess; l++) e = cudaStreamWaitEvent(s[l], ev[LANES], 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        cudaStream_t here = s[c % lanes];
        float *slot = d_work + (c % lanes) * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, here);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, here>>>(slot, count);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost,
                                here);
    }
    for (size_t l = 0; l < lanes && e == cudaSuccess; l++) {
        e = cudaEventRecord(ev[l], s[l]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, ev[l], 0);
    }
    for (size_t l = 0; l < made && l < lanes; l++) {
        cudaStreamDestroy(s[l]);
        cudaEventDestroy(ev[l]);
    }
    cudaEventDestroy(ev[LANES]);
    return e != cudaSuccess ? e : cudaGetLastError();
}
