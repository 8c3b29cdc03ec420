// Speed of the emulation: a barrier-free kernel over 4M threads and a
// 1024-thread block reduction with barriers over 1M elements. Timed in the
// process's CPU time: the emulation runs on one thread, and make test runs
// other parts beside it, which slow the wall clock but not the work.
#include <cstdio>
#include <ctime>
#include <cuda_runtime.h>
#include <vector>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

__global__ void block_reduce(const float *in, float *out, int n)
{
    __shared__ float partial[1024];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < (unsigned)n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, partial[0]);
}

static double cpu_seconds()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main()
{
    const int n = 1 << 22, m = 1 << 20;
    std::vector<float> h(n, 1.0f);
    float *a, *b, *c, *sum;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&sum, sizeof(float));
    cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    double start = cpu_seconds();
    vector_add<<<(n + 255) / 256, 256>>>(a, b, c, n);
    double add_seconds = cpu_seconds() - start;
    cudaMemcpy(h.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost);
    bool add_ok = cudaGetLastError() == cudaSuccess && h[0] == 2.0f && h[n - 1] == 2.0f;

    cudaMemset(sum, 0, sizeof(float));
    start = cpu_seconds();
    block_reduce<<<(m + 1023) / 1024, 1024>>>(a, sum, m);
    double reduce_seconds = cpu_seconds() - start;
    float total = 0;
    cudaMemcpy(&total, sum, sizeof total, cudaMemcpyDeviceToHost);
    bool reduce_ok = cudaGetLastError() == cudaSuccess && total == (float)m;

    std::printf("vector_add_4M %s %.3f\n", add_ok ? "ok" : "wrong", add_seconds);
    std::printf("block_reduce_1M %s %.3f\n", reduce_ok ? "ok" : "wrong", reduce_seconds);
    return add_ok && reduce_ok ? 0 : 1;
}
