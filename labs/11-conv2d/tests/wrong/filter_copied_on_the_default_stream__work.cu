/* WRONG ON PURPOSE: the reference copying the filter with the synchronous
 * cudaMemcpyToSymbol instead of cudaMemcpyToSymbolAsync on the caller's
 * stream. A device-to-device copy does not block the host: it is queued on
 * the legacy default stream, which is not ordered with the grader's
 * non-blocking stream. The copy and the kernel race. The grader holds the
 * default stream back during every call (grader/runner/call.cu), as a busy
 * program would, so the copy lands after the kernel, which reads the
 * previous call's filter (or, on the first call, zeros).
 * Must first fail the work stage (on a GPU; the CPU emulation runs streams
 * in order and cannot show this race).
 * EMULATION: pass pass: emulated streams run in order, so the copy always comes first; on a GPU the runner holds the default stream back
 * BUILDS-ON: the reference
 * EDIT: s/cudaMemcpyToSymbolAsync(c_filter, d_filter/cudaMemcpyToSymbol(c_filter, d_filter/
 * EDIT: s/0, cudaMemcpyDeviceToDevice, stream);/0, cudaMemcpyDeviceToDevice);/
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
