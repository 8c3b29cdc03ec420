/* WRONG ON PURPOSE: no kernel of its own; thrust::transform with
 * thrust::plus on the given stream, which is right on any GPU. But graded
 * code may only compute, and Thrust's host code does more: it loads the
 * CUDA driver itself (dlopen, dlsym), reads the environment (getenv) and
 * throws C++ exceptions. The grader names Thrust and rejects the file
 * before it runs, where it used to name only the first call it found
 * (std::runtime_error::what). Must first fail the work stage.
 * REPORT-SAYS: your file uses Thrust
 * EMULATION: fail skipped: the CPU emulation has no Thrust, so there the file does not build
 */
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/transform.h>

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    if (n > 0)
        thrust::transform(thrust::cuda::par_nosync.on(stream), d_a, d_a + n, d_b, d_c,
                          thrust::plus<float>());
    return cudaGetLastError();
}
