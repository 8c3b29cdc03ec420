/* ATTACK: the fast stage measures a reduction against the grader's own
 * read of the same input (read_alone() in grader/runner/read_alone.cu,
 * linked into the same program). This file defines a function of that
 * name that does nothing, hoping the grader's bound would call it and take
 * no time, or a slow one, so its own time looks close to the bound. Only
 * the entry point and kernels may be visible in a submission: the build
 * refuses the file before anything runs.
 * REPORT-SAYS: has external linkage
 */
#include <stddef.h>

#include <cuda_runtime.h>

extern "C" int read_alone(const void *const *buffers, const size_t *bytes, int n, void *stream)
{
    (void)buffers;
    (void)bytes;
    (void)n;
    (void)stream;
    return 0;
}

__global__ void sum_all(const float *in, int n, float *out)
{
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        v += in[i];
    atomicAdd(out, v);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    sum_all<<<264, 256, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
