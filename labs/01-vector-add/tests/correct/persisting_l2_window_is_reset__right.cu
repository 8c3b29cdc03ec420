/* CORRECT: a grid-stride add that, on every call, sets a persisting-L2 carve-out and an
 * access-policy window over its first input on the stream it was given. A window left in place
 * would keep that input in the L2 through the grader's cache flush, and a timed call would find it
 * there: a fake speedup. The grader must therefore clear both before each call. So each call first
 * looks at what an earlier call left (the device's persisting-L2 limit and the window on its
 * stream) and, if either is still set, answers a - b on purpose: the grading fails unless the
 * grader reset them. Changing the carve-out costs milliseconds a call on an H100 (5.2 ms: 5% of
 * copy), so speed is no concern here. Must pass work and right. */
#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void add(const float *a, const float *b, float *c, int n, bool subtract) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = subtract ? a[i] - b[i] : a[i] + b[i];
}

/* Asks for a persisting window over a[0, n) on stream, as a submission chasing the cache would. */
static cudaError_t keep_in_l2(const float *a, int n, cudaStream_t stream, int device) {
    int max_carve_out = 0, max_window = 0;
    CUDA_RETURN_IF_ERROR(
        cudaDeviceGetAttribute(&max_carve_out, cudaDevAttrMaxPersistingL2CacheSize, device));
    CUDA_RETURN_IF_ERROR(
        cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device));
    if (max_carve_out == 0 || max_window == 0)
        return cudaSuccess; /* no persisting L2 on this device */
    size_t carve_out = (size_t)max_carve_out < (4u << 20) ? (size_t)max_carve_out : (4u << 20);
    CUDA_RETURN_IF_ERROR(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, carve_out));
    cudaStreamAttrValue value = {};
    value.accessPolicyWindow.base_ptr = (void *)a;
    value.accessPolicyWindow.num_bytes = (size_t)n * sizeof(float) < (size_t)max_window
                                             ? (size_t)n * sizeof(float)
                                             : (size_t)max_window;
    value.accessPolicyWindow.hitRatio = 1.0f;
    value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    return cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value);
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream) {
    int device = 0, sms = 0;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));

    /* What an earlier call left, before this one sets anything. */
    size_t carve_out = 0;
    cudaStreamAttrValue window = {};
    CUDA_RETURN_IF_ERROR(cudaDeviceGetLimit(&carve_out, cudaLimitPersistingL2CacheSize));
    CUDA_RETURN_IF_ERROR(
        cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window));
    bool left_set = carve_out != 0 || window.accessPolicyWindow.num_bytes != 0;

    if (n > 0)
        CUDA_RETURN_IF_ERROR(keep_in_l2(d_a, n, stream, device));
    add<<<8 * sms, 256, 0, stream>>>(d_a, d_b, d_c, n, left_set); /* n == 0: no loop */
    return cudaGetLastError();
}
