// Prints the order in which the threads of one block ran, to show that the
// order is shuffled, and reproducible for a given CUDA_EMU_SEED.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void record_order(int *order, int *next)
{
    order[atomicAdd(next, 1)] = (int)threadIdx.x;
}

int main()
{
    int *order, *next, host[64];
    cudaMalloc(&order, sizeof host);
    cudaMalloc(&next, sizeof(int));
    cudaMemset(next, 0, sizeof(int));
    record_order<<<1, 64>>>(order, next);
    cudaMemcpy(host, order, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; ++i)
        std::printf("%d ", host[i]);
    std::printf("\n");
    return 0;
}
