/* WRONG ON PURPOSE: an estimate, not the answer. Above 2^24 elements (no
 * size the grader checks on the CPU is that large) it sums the first half
 * only and doubles it, so it reads half the memory and is timed at twice
 * the speed. The lab's typical inputs all lie near 1, so the estimate is
 * within about 0.01% of the true sum, well inside the 0.1% by which a
 * timed call may differ from the baseline's answer (float sums in another
 * order differ too). What tells: before every timed round the grader puts
 * two large values of opposite sign at random places in the input
 * (lab_spec.fast.spike); a call that reads half the input misses one of
 * them about every other round, and the stage fails with "the timed calls
 * computed a wrong answer".
 * Must first fail the fast stage.
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
#include <cuda_runtime.h>

__global__ void sum_double(const float *__restrict__ in, int n, float scale, float *out)
{
    __shared__ double warp_sums[8];
    double sum = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 32) {
        sum = threadIdx.x < 8 ? warp_sums[threadIdx.x] : 0.0;
        for (int offset = 16; offset > 0; offset /= 2)
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (threadIdx.x == 0) atomicAdd(out, (float)(sum * scale));
    }
}

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    (void)d_scratch;
    cudaError_t e = cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    if (e != cudaSuccess || n == 0) return e;
    int sampled = n > (1 << 24) ? n / 2 : n;
    float scale = (float)n / (float)sampled;
    int device, sms, per_sm;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_double, 256, 0);
    int blocks = (sampled + 255) / 256;
    if (blocks > sms * per_sm) blocks = sms * per_sm;
    sum_double<<<blocks, 256, 0, stream>>>(d_in, sampled, scale, d_out);
    return cudaGetLastError();
}
