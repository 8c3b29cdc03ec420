// ATTACK: an extern "C" kernel called prctl. Its host-side stub is a global
// function named prctl, so the runner's own call to prctl (which closes the
// sandbox) would launch this kernel instead and leave the sandbox open.
// Defended: the grader keeps only the entry point visible to the linker, so
// the runner still calls the C library's prctl, and this otherwise correct
// file passes every stage.
#include <cuda_runtime.h>

extern "C" __global__ void prctl(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n > 0) prctl<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
