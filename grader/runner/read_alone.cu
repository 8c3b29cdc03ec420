/* read_alone.cu - the bound of a lab whose work is to read its inputs once
 * (a reduction, a dot product): the time a trusted kernel takes to read
 * the same bytes and do nothing else. A lab uses it as a part of the work
 * (lab_spec.fast.roof = ROOF_PARTS, one part that calls read_alone()), so
 * it is timed in the same run as the submission, prepared the same way
 * (the L2 flushed before every call), at the same size.
 *
 * Why not the copy: a call that reads 256 MiB pays the kernel's ramp-up
 * and tail once, where the 1 GiB copy amortises them, and a read-only
 * stream runs a little faster than a read-write one. On the H100 the
 * fastest read of 256 MiB reached 91.5% of the copy's bandwidth and the
 * fastest read of 512 MiB 98.3%: "% of copy" told a student their
 * reduction had 10% left where there was 3%.
 *
 * The kernel is the fastest of those measured there: 16-byte loads, four
 * in flight per thread, a grid of two blocks of 1024 threads per SM
 * (grids of 2 to 8 blocks per SM, of 256 to 1024 threads, came within
 * 1.5% of each other; one block of 256 per SM was 15% slower). A first
 * version whose registers were capped for two resident blocks per SM
 * ran 8% slower than the reduction it was to bound.
 *
 * Nothing is cached between calls (graded code shares this process's
 * memory): the grid is worked out every time, on the host, while the GPU
 * still flushes the cache in front of the call.
 */
#include <stdint.h>

#include <cuda_runtime.h>

#include "lab_spec.h" /* READ_ALONE_MAX; linked by the runner and by make predict */

enum { READ_THREADS = 1024, READ_BLOCKS_PER_SM = 2 };

typedef struct {
    const unsigned char *base[READ_ALONE_MAX];
    size_t bytes[READ_ALONE_MAX];
    int n;
} read_list;

/* This thread's share of one buffer, added up as floats: the unaligned
 * head bytes one by one, then 16-byte words from the first 16-byte
 * boundary, four loads in flight (through the read-only cache path, as
 * __ldg), then the tail bytes. */
__device__ __forceinline__ float read_share(const unsigned char *p, size_t bytes, size_t tid,
                                            size_t stride)
{
    size_t head = (16 - ((uintptr_t)p & 15)) & 15;
    if (head > bytes) head = bytes;
    size_t words = (bytes - head) / 16;
    const float4 *v = (const float4 *)(p + head);
    float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
    if (tid < head) a = p[tid];
    size_t i = tid;
    for (; i + 3 * stride < words; i += 4 * stride) {
        float4 w0 = __ldg(v + i), w1 = __ldg(v + i + stride), w2 = __ldg(v + i + 2 * stride),
               w3 = __ldg(v + i + 3 * stride);
        a += (w0.x + w0.y) + (w0.z + w0.w);
        b += (w1.x + w1.y) + (w1.z + w1.w);
        c += (w2.x + w2.y) + (w2.z + w2.w);
        d += (w3.x + w3.y) + (w3.z + w3.w);
    }
    for (; i < words; i += stride) {
        float4 w = __ldg(v + i);
        a += (w.x + w.y) + (w.z + w.w);
    }
    size_t tail = head + 16 * words + tid;
    if (tail < bytes) b += p[tail];
    return (a + b) + (c + d);
}

/* Every buffer in turn (unrolled, so the list stays in registers); the
 * store at the end keeps every load (a kernel whose loads go unused is
 * compiled to nothing) and is never taken: the host passes no sink, which
 * the compiler cannot know. */
__global__ static void read_kernel(read_list list, float *sink)
{
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    float sum = 0.0f;
#pragma unroll
    for (int b = 0; b < READ_ALONE_MAX; b++)
        if (b < list.n) sum += read_share(list.base[b], list.bytes[b], tid, stride);
    if (sink) sink[tid] = sum;
}

extern "C" int read_alone(const void *const *buffers, const size_t *bytes, int n, void *stream)
{
    if (n < 1 || n > READ_ALONE_MAX) return cudaErrorInvalidValue;
    read_list list;
    for (int b = 0; b < n; b++) {
        list.base[b] = (const unsigned char *)buffers[b];
        list.bytes[b] = bytes[b];
    }
    list.n = n;
    int device, sms;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess) return e;
    read_kernel<<<sms * READ_BLOCKS_PER_SM, READ_THREADS, 0, (cudaStream_t)stream>>>(list, (float *)NULL);
    return cudaGetLastError();
}
