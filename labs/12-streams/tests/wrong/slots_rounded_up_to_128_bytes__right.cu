/* WRONG ON PURPOSE: four streams take turns, each chunk in its own slot
 * of d_work, as in the lecture. Each slot was then rounded UP to a whole
 * number of 128-byte lines (32 floats), "so that every slot starts on a
 * cache line and the copies run at full speed". Four slots rounded up no
 * longer fit in work_elems floats: the last slot used runs past the end of
 * d_work, and the copy into it (and the kernel on it) writes there. Every
 * answer is right, and work's work_elems are multiples of 128, so its
 * slots are whole lines already and it passes work; right's first chunked
 * case, 31 floats through a d_work of 7, copies its 31 floats into a slot
 * of 32, 24 past the end of d_work.
 * REPORT-SAYS: only d_work[0 .. work_elems) is yours: a slot of d_work past its end
 * EMULATION: pass fail: the emulation's right stage gives d_work exactly its size, so the copy past the end is refused (cudaErrorInvalidValue) instead of landing in the guard bytes
 */
#include <cuda_runtime.h>

enum { SLOTS = 4 };
static const size_t MAX_CHUNK = (size_t)1 << 20; /* 4 MiB: small enough to fill the pipeline quickly */

/* f exactly as given: 1024 steps of y = x - y^2 / 4, one fmaf each. */
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

/* The call's own streams and events, made once. */
static cudaStream_t lanes[SLOTS];
static cudaEvent_t forked, done[SLOTS];
static int ready;

static cudaError_t make_streams(void)
{
    if (ready) return cudaSuccess;
    cudaError_t e = cudaEventCreateWithFlags(&forked, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&lanes[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&done[s], cudaEventDisableTiming);
    }
    ready = e == cudaSuccess;
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_streams();
    if (e != cudaSuccess) return e;
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS;
    size_t chunk = work_elems / slots;
    chunk = (chunk + 31) / 32 * 32; /* the mistake: slots x chunk may now exceed work_elems */
    if (chunk > MAX_CHUNK) chunk = MAX_CHUNK;

    /* Fork: every stream of ours starts after what `stream` holds. */
    e = cudaEventRecord(forked, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(lanes[s], forked, 0);

    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        size_t s = c % slots;
        float *slot = d_work + s * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, lanes[s]);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, lanes[s]>>>(slot, count);
        e = cudaGetLastError();
        if (e != cudaSuccess) break;
        e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, lanes[s]);
    }

    /* Join: `stream` waits for the last work of each of our streams. */
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(done[s], lanes[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, done[s], 0);
    }
    return e;
}
