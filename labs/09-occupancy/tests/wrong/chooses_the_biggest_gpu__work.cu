/* WRONG ON PURPOSE: the reference, but the first call looks at every GPU
 * and switches to the one with the most SMs ("occupancy is per SM: more
 * SMs, more warps in flight"). The buffers it is given live on the
 * grader's device, and the grader's timing and checks assume that device:
 * graded code must use the current GPU. The grader finds cudaSetDevice in
 * the compiled file and rejects it before it runs. Must first fail the
 * work stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */
#include <cuda_runtime.h>

/* The GPU with the most SMs. */
static int biggest_device()
{
    int count = 0, best = 0, best_sms = 0;
    cudaGetDeviceCount(&count);
    for (int d = 0; d < count; d++) {
        int sms = 0;
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
        if (sms > best_sms) best = d, best_sms = sms;
    }
    return best;
}

extern "C" cudaError_t distances(const float *d_points, const float *d_centers, int n, int k,
                                 int dim, int metric, float *d_out, cudaStream_t stream)
{
    static bool chosen = false;
    if (!chosen) {
        cudaError_t e = cudaSetDevice(biggest_device());
        if (e != cudaSuccess) return e;
        chosen = true;
    }
    return reference_distances(d_points, d_centers, n, k, dim, metric, d_out, stream);
}
