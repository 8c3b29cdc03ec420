/* CORRECT, in an unusual way: the call captures the grader's own stream.
 * cudaStreamBeginCapture(stream) turns what is queued on it next into the
 * nodes of a graph instead of work: an event recorded there forks two
 * streams of this file into the capture, the chunks take turns over them
 * in two slots of d_work, and two events join them back. EndCapture gives
 * the graph, which is instantiated and launched on the same stream; the
 * launch is one operation of `stream`, after what it held, so no other
 * fork or join is needed. The graph and its executable are destroyed at
 * once: work already launched still runs to the end. Nothing is cached, so
 * every call captures again (slow for many small chunks, but right).
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

enum { SLOTS = 2 };

static cudaStream_t side[SLOTS];
static cudaEvent_t fork_ev, join_ev[SLOTS];

static cudaError_t make_once(void)
{
    static bool made = false;
    if (made) return cudaSuccess;
    cudaError_t e = cudaEventCreateWithFlags(&fork_ev, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&side[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&join_ev[s], cudaEventDisableTiming);
    }
    made = e == cudaSuccess;
    return e;
}

/* Queue the pipeline while `stream` is being captured. */
static cudaError_t queue_chunks(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS, chunk = work_elems / slots;
    cudaError_t e = cudaEventRecord(fork_ev, stream);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(side[s], fork_ev, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t s = c % slots, count = n - at < chunk ? n - at : chunk, bytes = count * sizeof(float);
        float *slot = d_work + s * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, bytes, cudaMemcpyHostToDevice, side[s]);
        if (e == cudaSuccess) e = launch_f(slot, count, side[s]);
        if (e == cudaSuccess) e = cudaMemcpyAsync(h_out + at, slot, bytes, cudaMemcpyDeviceToHost, side[s]);
    }
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(join_ev[s], side[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(stream, join_ev[s], 0);
    }
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_once();
    if (e != cudaSuccess) return e;
    e = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return e;
    cudaError_t queued = queue_chunks(h_in, h_out, n, d_work, work_elems, stream);
    cudaGraph_t graph = NULL;
    e = cudaStreamEndCapture(stream, &graph); /* always ends the capture */
    if (queued != cudaSuccess) e = queued;
    cudaGraphExec_t exec = NULL;
    if (e == cudaSuccess) e = cudaGraphInstantiate(&exec, graph, 0);
    if (e == cudaSuccess) e = cudaGraphLaunch(exec, stream);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    return e;
}
