/* WRONG ON PURPOSE: a grid-stride loop that adds two elements, i and
 * i + 256, per step, with a misplaced brace: the step i += stride sits
 * inside "if (i + T < n)", so a thread whose second element is past the
 * end adds in[i] again and again and never moves. Such a thread exists
 * whenever n is not a multiple of 512 (it needs i < n <= i + 256): never
 * in work (1024, 65536, 2^20), and at once in right's n = 1 (thread 0), so
 * the right stage hangs there, on every GPU.
 * Must first fail the right stage.
 * TIME-LIMITS: 30,6
 * REPORT-SAYS: does every grid-stride loop step forward
 * SMALLEST: a hang fails by the time limit, not on an answer to show
 */
#include <cuda_runtime.h>

#define T 256
#define MAX_BLOCKS 2048

__global__ void sum_into(const float *in, int n, float *out)
{
    __shared__ float s[T];
    int tid = threadIdx.x, stride = 2 * T * gridDim.x;
    float v = 0.0f;
    for (int i = blockIdx.x * 2 * T + tid; i < n;) {
        v += in[i];
        if (i + T < n) {
            v += in[i + T];
            i += stride; /* should come after the brace */
        }
    }
    s[tid] = v;
    __syncthreads();
    for (int step = T / 2; step > 0; step /= 2) {
        if (tid < step) s[tid] += s[tid + step];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, s[0]);
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int blocks = (n + 2 * T - 1) / (2 * T);
    if (blocks > MAX_BLOCKS) blocks = MAX_BLOCKS;
    sum_into<<<blocks, T, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
