/* WRONG ON PURPOSE: copies the input to the output unchanged. The bytes
 * are all there, in the wrong places.
 * Must first fail the work stage. */
#include <cuda_runtime.h>

extern "C" cudaError_t transpose(const float *d_in, float *d_out, int rows, int cols,
                                 cudaStream_t stream)
{
    return cudaMemcpyAsync(d_out, d_in, (size_t)rows * cols * sizeof(float),
                           cudaMemcpyDeviceToDevice, stream);
}
