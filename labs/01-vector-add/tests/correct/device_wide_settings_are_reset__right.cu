/* CORRECT: a grid-stride add that, on every call, asks the whole device to
 * prefer shared memory to L1 and to fetch 32 bytes at a time from the L2.
 * Settings like these hold for every kernel, the grader's baseline and copy
 * included: left in place they could slow the kernels a submission is
 * compared with, a speedup earned by making the other side slower. The
 * grader must put them back before each call. So each call first looks at
 * what an earlier call left and, if it is not what the first call found,
 * answers a - b on purpose: the grading fails unless the grader reset them.
 * (Changing them costs time a call, so speed is no concern here.)
 * Must pass work and right. */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void add(const float *a, const float *b, float *c, int n, bool subtract)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = subtract ? a[i] - b[i] : a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    int device = 0, sms = 0;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));

    /* The settings found by the first call are the device's own; every
     * later call must find them again, before it changes them. */
    static bool seen;
    static cudaFuncCache first_cache;
    static size_t first_fetch;
    cudaFuncCache cache = cudaFuncCachePreferNone;
    size_t fetch = 0;
    CUDA_RETURN_IF_ERROR(cudaDeviceGetCacheConfig(&cache));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetLimit(&fetch, cudaLimitMaxL2FetchGranularity));
    if (!seen) {
        seen = true;
        first_cache = cache;
        first_fetch = fetch;
    }
    bool left_set = cache != first_cache || fetch != first_fetch;

    CUDA_RETURN_IF_ERROR(cudaDeviceSetCacheConfig(
        first_cache == cudaFuncCachePreferShared ? cudaFuncCachePreferL1 : cudaFuncCachePreferShared));
    CUDA_RETURN_IF_ERROR(
        cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, first_fetch == 32 ? 128 : 32));
    add<<<8 * sms, 256, 0, stream>>>(d_a, d_b, d_c, n, left_set); /* n == 0: no loop */
    return cudaGetLastError();
}
