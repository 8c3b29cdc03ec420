/* CORRECT, in an unusual way: the sum goes first into scratch memory taken
 * from the stream-ordered allocator (cudaMallocAsync), then is copied into
 * d_c and the scratch given back (cudaFreeAsync), all on the given stream.
 * Slower than writing d_c directly, but right. The grader runs lab
 * functions on a fenced thread that may not start threads: the driver's
 * memory pool must not need one. Must pass work and right.
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    float *scratch = NULL;
    cudaError_t e = cudaMallocAsync(&scratch, (size_t)n * sizeof(float), stream);
    if (e != cudaSuccess) return e;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, scratch, n);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    e = cudaMemcpyAsync(d_c, scratch, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
    cudaError_t f = cudaFreeAsync(scratch, stream);
    return e != cudaSuccess ? e : f;
}
