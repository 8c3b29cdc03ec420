/* WRONG ON PURPOSE: two outputs per thread, rows r0 and r0 + 1 of one
 * column, which share all but one of the 2 radius + 2 input rows they
 * read. When rows is odd, the last pair would run past the last row; to
 * spare every store its row guard, that pair is moved up one row instead
 * (r0 = rows - 2), so it recomputes row rows - 2, the same value its
 * neighbour writes there. With rows == 1 the pair moves to rows -1 and 0:
 * row 0 is right, but row -1, cols floats, is stored in front of d_out.
 * Every output is right, and work's sides are multiples of 128, so it
 * passes work; right's 1 x 1 image (radius 0) writes d_out[-1].
 * REPORT-SAYS: only out[0 .. rows*cols) is yours to write: a negative row or column index in a store
 */
#include <cuda_runtime.h>

#define THREADS 256

/* Thread t: the pair of rows p = t / cols, column c = t % cols. Each
 * output sums its filter rows top to bottom, columns left to right, one
 * fmaf per term: the same order for a row computed as the top of a pair
 * or as the bottom, so the overlapping pair writes identical values. */
__global__ void conv_pairs(const float *in, float *out, int rows, int cols, const float *filter,
                           int radius, long long threads)
{
    long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    int c = (int)(t % cols);
    int r0 = (int)(t / cols) * 2;
    if (r0 + 1 >= rows) r0 = rows - 2; /* the mistake: -1 when rows == 1 */
    int w = 2 * radius + 1;
    float top = 0.0f, bottom = 0.0f;
    /* input rows r0 - radius .. r0 + 1 + radius: q is the offset from r0 */
    for (int q = -radius; q <= radius + 1; q++) {
        int rr = r0 + q;
        if (rr < 0 || rr >= rows) continue; /* zero padding */
        const float *irow = in + (size_t)rr * cols;
        for (int j = -radius; j <= radius; j++) {
            int cc = c + j;
            if (cc < 0 || cc >= cols) continue;
            float v = irow[cc];
            if (q <= radius) top = fmaf(filter[(q + radius) * w + j + radius], v, top);
            if (q >= 1 - radius) bottom = fmaf(filter[(q - 1 + radius) * w + j + radius], v, bottom);
        }
    }
    out[(long long)r0 * cols + c] = top;
    out[(long long)(r0 + 1) * cols + c] = bottom;
}

extern "C" cudaError_t conv2d(const float *d_in, float *d_out, int rows, int cols,
                              const float *d_filter, int radius, cudaStream_t stream)
{
    if (rows == 0 || cols == 0) return cudaSuccess;
    long long pairs = (rows + 1) / 2;
    long long threads = pairs * cols;
    unsigned blocks = (unsigned)((threads + THREADS - 1) / THREADS);
    conv_pairs<<<blocks, THREADS, 0, stream>>>(d_in, d_out, rows, cols, d_filter, radius, threads);
    return cudaGetLastError();
}
