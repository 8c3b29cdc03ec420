/* WRONG ON PURPOSE: right answer, but the first kernel stores the products
 * x[i] * y[i] back into x (it "has the memory anyway"), and the second sums
 * x. The inputs belong to the caller and must come back unchanged.
 * Must first fail the right stage (work only notes it).
 * REPORT-SAYS: d_x and d_y are inputs: keep
 */
#include <cuda_runtime.h>

__global__ void multiply_in_place(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= y[i];
}

__global__ void sum_kernel(const float *v, int n, float *result)
{
    __shared__ float partial[256];
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += v[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, partial[0]);
}

extern "C" cudaError_t dot(const float *d_x, const float *d_y, int n, float *d_result,
                           cudaStream_t stream)
{
    cudaError_t e = cudaMemsetAsync(d_result, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 255) / 256;
    multiply_in_place<<<blocks, 256, 0, stream>>>(const_cast<float *>(d_x), d_y, n);
    sum_kernel<<<blocks < 1024 ? blocks : 1024, 256, 0, stream>>>(d_x, n, d_result);
    return cudaGetLastError();
}
