/* gpu_busy.cu - keeps the GPU busy for a number of seconds with kernels
 * that spin, as other gradings' checks do when a class is graded side by
 * side (tests/run.sh: the default-stream race must still be caught while
 * the GPU is shared in time slices). Usage: gpu_busy SECONDS */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 10;
    cudaEvent_t t0, t1;
    if (cudaEventCreate(&t0) != cudaSuccess || cudaEventCreate(&t1) != cudaSuccess) return 1;
    cudaEventRecord(t0);
    for (;;) {
        spin<<<264, 256>>>(2000000); /* about a millisecond at 1.98 GHz */
        if (cudaEventRecord(t1) != cudaSuccess || cudaEventSynchronize(t1) != cudaSuccess) {
            fprintf(stderr, "gpu_busy: %s\n", cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        float ms = 0;
        cudaEventElapsedTime(&ms, t0, t1);
        if (ms >= seconds * 1e3) return 0;
    }
}
