/* WRONG ON PURPOSE: four streams take turns, each chunk in its own slot
 * of d_work, and the kernel reads and writes its slot as float4 (its tail
 * element by element). float4 needs 16-byte aligned addresses, and d_work
 * is only 4-byte aligned, so the slots are laid out from d_work rounded
 * DOWN to 16 bytes, each a multiple of 4 floats. The slots still fit in
 * work_elems floats, but when d_work is not aligned the first slot starts
 * up to three floats in front of it, and the first chunk's copy in (and
 * the kernel) writes there. Every answer is right, and work's pointers
 * are aligned, so it passes work; right's first call with data (one
 * element, d_work offset by 4 bytes) copies it to d_work[-1].
 * REPORT-SAYS: a negative offset into a buffer
 */
#include <stdint.h>

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

/* f over one chunk in place, four elements per thread: one float4 load
 * and store where the slot is 16-byte aligned (vec) and the four are all
 * in the chunk, else one element at a time. */
__global__ static void apply_f(float *data, size_t count, int vec)
{
    size_t i0 = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
    if (i0 >= count) return;
    if (vec && i0 + 4 <= count) {
        float4 v = *(float4 *)(data + i0);
        v.x = f(v.x);
        v.y = f(v.y);
        v.z = f(v.z);
        v.w = f(v.w);
        *(float4 *)(data + i0) = v;
        return;
    }
    for (size_t i = i0; i < count && i < i0 + 4; i++) data[i] = f(data[i]);
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
    if (chunk > MAX_CHUNK) chunk = MAX_CHUNK;
    if (chunk >= 4) chunk &= ~(size_t)3; /* whole float4s: every slot stays 16-byte aligned */
    int vec = chunk % 4 == 0;
    float *base = (float *)((uintptr_t)d_work & ~(uintptr_t)15); /* the mistake */

    /* Fork: every stream of ours starts after what `stream` holds. */
    e = cudaEventRecord(forked, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(lanes[s], forked, 0);

    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        size_t s = c % slots;
        float *slot = base + s * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, lanes[s]);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 1023) / 1024), 256, 0, lanes[s]>>>(slot, count, vec);
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
