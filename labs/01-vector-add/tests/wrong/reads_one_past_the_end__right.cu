/* WRONG ON PURPOSE: every answer is right, but the last thread also reads
 * the element just past the end of d_a (a "look-ahead" that is never
 * used). Reading past a buffer is undefined behaviour: on a real program
 * the next page may not be mapped at all. Under compute-sanitizer the
 * grader gives every buffer an allocation of exactly its size, so memcheck
 * reports the read with the kernel, the thread and the address.
 * Must first fail the right stage.
 * EMULATION: pass pass: the emulator fences each allocation at the 256 bytes
 * cudaMalloc aligns to, so a read a few bytes past the end lands in the
 * slack before the fence (a write there is caught, a read is not)
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    volatile const float *ahead = a + i + 1;
    float next = i == n - 1 ? *ahead : 0.0f; /* one past the end */
    float sum = a[i] + b[i];
    if (next == 1e30f) sum = 0.0f; /* never: the look-ahead is not used */
    c[i] = sum;
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
