// ATTACK: a constructor with a priority, which the compiler places in a
// section of its own (.init_array.00101) that a check of .init_array alone
// would miss. Code that runs before main, before the sandbox closes: it could
// read the environment or open the seed file.
// EXPECT: has a constructor
static void early(void) __attribute__((constructor(101), used));
static volatile int touched;
static void early(void) { touched = 1; }
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n > 0) add<<<(n + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, n);
    return cudaGetLastError();
}
