/* WRONG ON PURPOSE: the reference, right at every size the grader checks
 * on the CPU (the largest has about 2.2 million outputs), lazy above: for
 * an image of more than 2^24 pixels it computes only the top 4096 rows,
 * and is timed at half the cost. Every timed call (8192 x 8192) is
 * compared with the baseline's answer on the same input; the bottom half
 * still holds the grader's poison.
 * Must first fail the fast stage (on a GPU).
 * BUILDS-ON: the reference
 * REPORT-SAYS: the timed calls computed a wrong answer
 */
extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if ((long long)rows * cols > (1LL << 24) && rows > 4096) rows = 4096;
    return reference_conv2d(d_in, d_out, rows, cols, d_filter, radius, stream);
}
