/* WRONG ON PURPOSE: each chunk is copied back into h_in (it is pinned host
 * memory, and "the input is not needed any more"), then from there to
 * h_out. The answer is right; the input is gone. Work only notes it;
 * right fails it.
 * BUILDS-ON: the reference
 * EDIT: s/        e = cudaMemcpyAsync(h_out + at, slot, count \* sizeof(float), cudaMemcpyDeviceToHost, s);/        e = cudaMemcpyAsync((float *)h_in + at, slot, count * sizeof(float), cudaMemcpyDeviceToHost, s);\n        if (e == cudaSuccess)\n            e = cudaMemcpyAsync(h_out + at, h_in + at, count * sizeof(float), cudaMemcpyHostToHost, s);/
 * REPORT-SAYS: h_in is an input
 */
extern "C" cudaError_t pipeline(const float *h_in, float *h_out, size_t n, float *d_work,
                                size_t work_elems, cudaStream_t stream)
{
    return reference_pipeline(h_in, h_out, n, d_work, work_elems, stream);
}
