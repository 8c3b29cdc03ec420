/* WRONG ON PURPOSE: hands the whole reduction to CUB. It computes the right
 * sum, but the lab forbids the library whose job it is to teach: the grader
 * finds CUB's symbols in the compiled file and rejects it before it runs.
 * Must first fail the work stage.
 * EMULATION: fail skipped: the emulation has no CUB, so the file does not build there
 */
#include <cub/cub.cuh>
#include <cuda_runtime.h>

extern "C" cudaError_t reduce_sum(const float *d_in, int n, float *d_out, float *d_scratch,
                                  cudaStream_t stream)
{
    size_t bytes = 0;
    cudaError_t e = cub::DeviceReduce::Sum(nullptr, bytes, d_in, d_out, n, stream);
    if (e != cudaSuccess) return e;
    /* The scratch buffer has room for n + 1024 floats; assume it is enough. */
    return cub::DeviceReduce::Sum(d_scratch, bytes, d_in, d_out, n, stream);
}
