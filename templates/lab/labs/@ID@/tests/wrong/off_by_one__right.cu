/* WRONG ON PURPOSE: off by one: i <= n writes one element past the end.
 * Must first fail the right stage: work does not look past the outputs,
 * right checks the guard bytes behind d_y.
 * REPORT-SAYS: threads past the end wrote
 * EMULATION: pass fail: the emulator reports the access just past an
 * allocation as a fault, where the GPU run finds the write in the guard
 * bytes and shows the lab's hint for writes past the end
 */
#include <cuda_runtime.h>

__global__ void @ENTRY@_kernel(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = 2.0f * x[i] + 1.0f;
}

extern "C" cudaError_t @ENTRY@(const float *d_x, float *d_y, int n, cudaStream_t stream)
{
    @ENTRY@_kernel<<<n / 256 + 1, 256, 0, stream>>>(d_x, d_y, n);
    return cudaGetLastError();
}
