/* WRONG ON PURPOSE: two elements per thread, c[2t] and c[2t + 1]. The loads
 * of the second are guarded (i + 1 < n), its store is not: for an odd n
 * the last thread writes c[n], one float past the end of d_c. Every value
 * in c[0..n-1] is right, and work's sizes are even, so it passes work;
 * right's odd sizes catch the write in the guard bytes behind d_c.
 * REPORT-SAYS: threads past the end wrote
 * EMULATION: pass fail: the emulator reports a write just past an
 * allocation as a fault (after the kernel), where the GPU run finds it in
 * the guard bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

__global__ void add_pairs(const float *a, const float *b, float *c, int n)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    c[i] = a[i] + b[i];
    float second = i + 1 < n ? a[i + 1] + b[i + 1] : 0.0f;
    c[i + 1] = second;
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    int pairs = (n + 1) / 2;
    add_pairs<<<(pairs + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
