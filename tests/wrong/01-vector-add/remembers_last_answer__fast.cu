/* WRONG ON PURPOSE: the reference solution behind a cache of one: the
 * pointers and n of the last call are kept in static variables, and a call
 * with the same ones returns cudaSuccess at once ("d_c already holds a + b":
 * a student who saw the grader call the function hundreds of times on the
 * same buffers might think of it).
 * During the fast stage every call gets the same buffers, so after the first
 * one it returns at once and the timed calls look free. After timing, the
 * grader refills those same buffers with fresh inputs (and NaN in the
 * outputs) and calls once more: the cache hits, nothing is written, and the
 * re-check fails ("wrong on fresh inputs after timing"). The work and right
 * stages never make two calls in a row with the same pointers and sizes (the
 * sizes differ, or the right stage's pointers are offset differently), so it
 * passes them. Must first fail the fast stage.
 */
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

static const int THREADS = 256;

/* Thread t handles elements t, t + stride, t + 2 stride, ... */
__global__ void vector_add_scalar(const float *a, const float *b, float *c,
                                  int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

/* head elements one by one, then float4 steps from the aligned point, then
 * the fewer than 4 elements left over. */
__global__ void vector_add_vec4(const float *a, const float *b, float *c,
                                int n, int head)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    if (tid < head) c[tid] = a[tid] + b[tid];

    int n4 = (n - head) / 4;
    const float4 *a4 = reinterpret_cast<const float4 *>(a + head);
    const float4 *b4 = reinterpret_cast<const float4 *>(b + head);
    float4 *c4 = reinterpret_cast<float4 *>(c + head);
    for (int i = tid; i < n4; i += stride) {
        float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }

    int tail = head + 4 * n4 + tid;
    if (tail < n) c[tail] = a[tail] + b[tail];
}

/* Blocks the whole GPU holds at once: more only queue up behind them. */
static cudaError_t resident_blocks(const void *kernel, int *blocks)
{
    int device, sms, per_sm;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    *blocks = sms * per_sm;
    return cudaSuccess;
}

static int misalignment(const void *p) { return (int)((uintptr_t)p & 15); }

static cudaError_t vector_add_computed(const float *d_a, const float *d_b,
                                       float *d_c, int n, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int off = misalignment(d_a);
    bool vec = off == misalignment(d_b) && off == misalignment(d_c);
    int per_thread = vec ? 4 : 1;
    int needed = (n / per_thread + THREADS - 1) / THREADS + 1;
    int blocks;
    const void *kernel = vec ? (const void *)vector_add_vec4 : (const void *)vector_add_scalar;
    CUDA_RETURN_IF_ERROR(resident_blocks(kernel, &blocks));
    if (needed < blocks) blocks = needed;

    if (vec) {
        int head = ((16 - off) & 15) / 4;
        if (head > n) head = n;
        vector_add_vec4<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, n, head);
    } else {
        vector_add_scalar<<<blocks, THREADS, 0, stream>>>(d_a, d_b, d_c, n);
    }
    return cudaGetLastError();
}

/* The buffers and sizes of the last call that succeeded. */
static struct {
    const float *d_a;
    const float *d_b;
    float *d_c;
    int n;
    bool valid;
} last;

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b,
                                  float *d_c, int n, cudaStream_t stream)
{
    /* "Same buffers, same sizes: same answer, d_c still holds it." */
    if (last.valid && last.d_a == d_a && last.d_b == d_b && last.d_c == d_c && last.n == n)
        return cudaSuccess;
    cudaError_t status = vector_add_computed(d_a, d_b, d_c, n, stream);
    last = {d_a, d_b, d_c, n, status == cudaSuccess};
    return status;
}
