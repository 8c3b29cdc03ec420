/* WRONG ON PURPOSE: the reference, with the student's own timing left in:
 * the first call records events around its launch, waits, and prints the
 * kernel's milliseconds and GB/s "to see the speedup without the grader".
 * Waiting inside the entry point breaks the contract (no synchronization),
 * and timing is the grader's job: graded code may not time itself. The
 * grader finds cudaEventElapsedTime in the compiled file and rejects it
 * before it runs. Must first fail the work stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <stdio.h>

#include <cuda_runtime.h>

extern "C" cudaError_t divergence(const float *d_x, const int *d_m, float *d_y, int *d_q, int n,
                                  cudaStream_t stream)
{
    if (n == 0) return cudaSuccess; /* as the reference: no launch, nothing timed */
    static bool timed = false;
    cudaEvent_t start, stop;
    if (!timed) {
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        cudaEventRecord(start, stream);
    }
    cudaError_t status = reference_divergence(d_x, d_m, d_y, d_q, n, stream);
    if (!timed && status == cudaSuccess) {
        float ms = 0;
        cudaEventRecord(stop, stream);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        printf("divergence: n = %d in %.3f ms, %.1f GB/s\n", n, ms, 16.0 * n / (ms * 1e6));
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        timed = true;
    }
    return status;
}
