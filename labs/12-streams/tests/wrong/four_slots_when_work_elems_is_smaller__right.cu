/* WRONG ON PURPOSE: the pipeline always splits d_work into SLOTS = 4
 * slots, where the lab says min(SLOTS, work_elems). With work_elems < 4
 * the chunk, work_elems / 4, is 0: the loop over chunks adds 0 to `at`
 * and queues empty copies (and no kernel: launch_f skips a count of 0)
 * for ever, so the call never returns, on every GPU. Work's d_work holds
 * thousands of floats, so it passes; right's third call, n = 1 with
 * work_elems = 1, hangs (the two before it have n = 0).
 * Everything else is right: streams and events made once, fork and join
 * through events, chunks taking turns over the streams and slots.
 * Must first fail the right stage.
 * TIME-LIMITS: 30,6
 * REPORT-SAYS: a chunk size of 0 (work_elems smaller than your number of slots)
 * SMALLEST: a hang fails by the time limit, not on an answer to show
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

static cudaError_t launch_f(float *data, size_t count, cudaStream_t s)
{
    if (count == 0) return cudaSuccess;
    apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(data, count);
    return cudaGetLastError();
}

enum { SLOTS = 4 };
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
    size_t slots = SLOTS;              /* should be min(SLOTS, work_elems) */
    size_t chunk = work_elems / slots; /* 0 when work_elems < 4 */
    if (chunk > ((size_t)1 << 20)) chunk = (size_t)1 << 20;
    e = cudaEventRecord(forked, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++)
        e = cudaStreamWaitEvent(lanes[s], forked, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        cudaStream_t s = lanes[c % slots];
        float *slot = d_work + (c % slots) * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) e = launch_f(slot, count, s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(joined[s], lanes[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, joined[s], 0);
    }
    return e;
}
