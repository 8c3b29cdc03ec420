/* CORRECT, UNUSUAL: the four-stream pipeline captured once into a CUDA
 * graph (a private stream begins the capture, forks to four streams with
 * an event, joins them back) and launched on the given stream. A graph
 * launch is one operation of that stream: it starts after what the stream
 * held and what the stream is given next waits for all of it, so no fork
 * or join with `stream` is needed. The pointers and sizes are part of the
 * graph, so it is captured again whenever one of them changes.
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

enum { SLOTS = 4 };
static const size_t MAX_CHUNK = (size_t)1 << 20;

static cudaStream_t origin, lanes[SLOTS];
static cudaEvent_t forked, joined[SLOTS];
static bool made;

/* The graph of the last call, and what it was captured for. */
static cudaGraphExec_t exec;
static const float *exec_in;
static float *exec_out, *exec_work;
static size_t exec_n, exec_work_elems;

static cudaError_t make_streams(void)
{
    if (made) return cudaSuccess;
    cudaError_t e = cudaStreamCreateWithFlags(&origin, cudaStreamNonBlocking);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&forked, cudaEventDisableTiming);
    for (int s = 0; s < SLOTS && e == cudaSuccess; s++) {
        e = cudaStreamCreateWithFlags(&lanes[s], cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaEventCreateWithFlags(&joined[s], cudaEventDisableTiming);
    }
    made = e == cudaSuccess;
    return e;
}

static cudaError_t capture(const float *h_in, float *h_out, size_t n, float *d_work,
                           size_t work_elems)
{
    size_t slots = work_elems < SLOTS ? work_elems : SLOTS;
    size_t chunk = work_elems / slots;
    if (chunk > MAX_CHUNK) chunk = MAX_CHUNK;
    cudaError_t e = cudaStreamBeginCapture(origin, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return e;
    e = cudaEventRecord(forked, origin);
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) e = cudaStreamWaitEvent(lanes[s], forked, 0);
    size_t c = 0;
    for (size_t at = 0; at < n && e == cudaSuccess; at += chunk, c++) {
        size_t count = n - at < chunk ? n - at : chunk;
        cudaStream_t s = lanes[c % slots];
        float *slot = d_work + (c % slots) * chunk;
        e = cudaMemcpyAsync(slot, h_in + at, count * sizeof(float), cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) break;
        apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(slot, count);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, s);
    }
    for (size_t s = 0; s < slots && e == cudaSuccess; s++) {
        e = cudaEventRecord(joined[s], lanes[s]);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(origin, joined[s], 0);
    }
    cudaGraph_t graph = NULL;
    cudaError_t ended = cudaStreamEndCapture(origin, &graph); /* ends it whatever happened */
    if (e == cudaSuccess) e = ended;
    if (e == cudaSuccess) {
        if (exec) cudaGraphExecDestroy(exec);
        exec = NULL;
        e = cudaGraphInstantiate(&exec, graph, 0);
    }
    if (graph) cudaGraphDestroy(graph);
    if (e == cudaSuccess) {
        exec_in = h_in;
        exec_out = h_out;
        exec_work = d_work;
        exec_n = n;
        exec_work_elems = work_elems;
    } else {
        exec = NULL;
    }
    return e;
}

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    cudaError_t e = make_streams();
    if (e != cudaSuccess) return e;
    if (!exec || h_in != exec_in || h_out != exec_out || d_work != exec_work || n != exec_n ||
        work_elems != exec_work_elems)
        e = capture(h_in, h_out, n, d_work, work_elems);
    if (e != cudaSuccess) return e;
    e = cudaGraphLaunch(exec, stream);
    return e != cudaSuccess ? e : cudaGetLastError();
}
