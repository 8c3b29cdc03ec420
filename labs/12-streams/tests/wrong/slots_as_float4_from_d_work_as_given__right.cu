/* WRONG ON PURPOSE: four streams take turns, each chunk in its own slot
 * of d_work, and the kernel reads and writes its slot as float4 (the last
 * 0..3 elements one by one). The slots are made multiples of 4 floats so
 * that each starts 16 bytes after the one before, but d_work itself is
 * taken as 16-byte aligned, as cudaMalloc's pointers are. Every answer is
 * right, and work's pointers are aligned, so it passes work. The contract
 * promises only 4 bytes: in right d_work, device memory, is offset by 4,
 * 8 or 12 bytes in most calls, and the kernel's 16-byte load from it
 * always faults on the GPU (misaligned address). h_in and h_out are only
 * touched by the copies, which take any alignment. The first right call
 * with a whole float4 and d_work off is n = 65537, work_elems = 4096.
 * Must first fail the right stage.
 * REPORT-SAYS: access through a pointer that is only 4-byte aligned
 */
#include <cuda_runtime.h>

enum { SLOTS = 4 };
static const size_t MAX_CHUNK = (size_t)1 << 20;

/* f exactly as given: 1024 steps of y = x - y^2 / 4, one fmaf each. */
#define PIPELINE_F_STEPS 1024
__device__ __forceinline__ static float f(float x)
{
    float y = x;
    for (int k = 0; k < PIPELINE_F_STEPS; k++) y = fmaf(-0.25f * y, y, x);
    return y;
}

/* f over one chunk in place, four elements per thread: one float4 load
 * and store when all four are in the chunk (and the slots are whole
 * float4s: vec), else one at a time. */
__global__ static void apply_f4(float *data, size_t count, int vec)
{
    size_t i0 = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
    if (i0 >= count) return;
    if (vec && i0 + 4 <= count) {
        /* BUG: data + i0 is 16-byte aligned only if d_work is. */
        float4 v = *reinterpret_cast<float4 *>(data + i0);
        v = make_float4(f(v.x), f(v.y), f(v.z), f(v.w));
        *reinterpret_cast<float4 *>(data + i0) = v;
        return;
    }
    for (size_t i = i0; i < count && i < i0 + 4; i++) data[i] = f(data[i]);
}

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
    if (chunk >= 4) chunk &= ~(size_t)3; /* whole float4s: slot s at d_work + s * chunk */
    int vec = chunk % 4 == 0;

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
        apply_f4<<<(unsigned)((count + 1023) / 1024), 256, 0, lanes[s]>>>(slot, count, vec);
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
