/* lab.cu - lab 12's trusted CUDA side: how to call the student's entry
 * point from the grader's generic buffer list, the serial baseline the
 * fast stage compares against, and the three parts of the work whose
 * slowest is the bound (lab_spec.fast.roof = ROOF_PARTS). Students do not
 * edit it.
 */
#include <cuda_runtime.h>

#include "lab_spec.h"
#include "pipeline_f.h"

extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream);
extern "C" const lab_spec LAB_12_STREAMS;

/* The runner hands over the buffers in the order of the spec's list (h_in
 * and h_out in pinned host memory, d_work on the device) and the sizes in
 * the order of its dims (n, work_elems). */
static int call_submission(void *const *d, const int64_t *dims, void *stream)
{
    return pipeline((const float *)d[0], (float *)d[1], (size_t)dims[0], (float *)d[2],
                    (size_t)dims[1], (cudaStream_t)stream);
}

/* f over count floats, in place or not: one thread per element, 256 per
 * block. Compute-bound: 1024 dependent steps of two instructions per
 * element and no memory traffic to speak of, so the only thing that
 * matters is that every SM is full, which 2^26 threads are many times
 * over. */
__global__ static void apply_f(const float *in, float *out, size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = pipeline_f(in[i]);
}

static cudaError_t launch_f(const float *in, float *out, size_t count, cudaStream_t s)
{
    if (count == 0) return cudaSuccess;
    apply_f<<<(unsigned)((count + 255) / 256), 256, 0, s>>>(in, out, count);
    return cudaGetLastError();
}

/* The baseline: right, and the first thing one writes. Chunks of
 * work_elems, all on the one stream: copy the chunk in, run the kernel,
 * copy it out, then the next chunk. Every operation waits for the one
 * before, so at any moment only one of the three engines (the copy engine
 * from the host, the SMs, the copy engine to the host) is busy, and the
 * call takes H2D + kernel + D2H. */
static int call_baseline(void *const *d, const int64_t *dims, void *stream)
{
    const float *h_in = (const float *)d[0];
    float *h_out = (float *)d[1], *d_work = (float *)d[2];
    size_t n = (size_t)dims[0], work = (size_t)dims[1];
    cudaStream_t s = (cudaStream_t)stream;
    for (size_t at = 0; at < n; at += work) {
        size_t count = n - at < work ? n - at : work;
        cudaError_t e = cudaMemcpyAsync(d_work, h_in + at, count * sizeof(float),
                                        cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) e = launch_f(d_work, d_work, count, s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + at, d_work, count * sizeof(float),
                                cudaMemcpyDeviceToHost, s);
        if (e != cudaSuccess) return e;
    }
    return cudaGetLastError();
}

/* The parts of the bound, each the whole data at once on the stream: the
 * kernel over n floats in device memory, n floats from h_in to the device,
 * n floats from the device to h_out. A pipeline overlaps them and can at
 * best take as long as the slowest. They need n floats of device memory,
 * which the grader does not give (d_work is smaller): kept here, made on
 * the first call (a warm-up call, never a timed one) and kept for the run.
 *
 * One buffer, and the kernel first: it computes f in place over the inputs
 * the previous round's copy left there, and the copy in then overwrites
 * them with this round's, so between rounds the buffer holds inputs, never
 * f of them. (With f's results left on the device, a submission could find
 * them and copy f of the last round's inputs out, fixing up the one pair of
 * elements the grader exchanges between rounds.) The copy out then copies
 * inputs to h_out: the same bytes to move, and h_out is poisoned again
 * before the submission's next call. */
static float *part_data;
static size_t part_elems;

static cudaError_t part_buffer(size_t n)
{
    if (n <= part_elems) return cudaSuccess;
    cudaFree(part_data);
    part_data = NULL;
    part_elems = 0;
    cudaError_t e = cudaMalloc((void **)&part_data, n * sizeof(float));
    if (e == cudaSuccess) e = cudaMemset(part_data, 0, n * sizeof(float));
    if (e == cudaSuccess) part_elems = n;
    return e;
}

static int part_kernel(void *const *, const int64_t *dims, void *stream)
{
    size_t n = (size_t)dims[0];
    cudaError_t e = part_buffer(n);
    if (e != cudaSuccess) return e;
    return launch_f(part_data, part_data, n, (cudaStream_t)stream);
}

static int part_h2d(void *const *d, const int64_t *dims, void *stream)
{
    size_t n = (size_t)dims[0];
    cudaError_t e = part_buffer(n);
    if (e != cudaSuccess || n == 0) return e;
    return cudaMemcpyAsync(part_data, d[0], n * sizeof(float), cudaMemcpyHostToDevice,
                           (cudaStream_t)stream);
}

static int part_d2h(void *const *d, const int64_t *dims, void *stream)
{
    size_t n = (size_t)dims[0];
    cudaError_t e = part_buffer(n);
    if (e != cudaSuccess || n == 0) return e;
    return cudaMemcpyAsync(d[1], part_data, n * sizeof(float), cudaMemcpyDeviceToHost,
                           (cudaStream_t)stream);
}

static const lab_rung PARTS[] = {
    {"kernel", part_kernel},
    {"h2d", part_h2d},
    {"d2h", part_d2h},
};

extern "C" const lab_device LAB_DEVICE = {&LAB_12_STREAMS, call_submission, call_baseline, NULL,
                                          PARTS, 3};
