/* predict.cu - lab 03's "Predict, then measure" questions for make predict
 * (grader/predict/predict.h). Question 1 is counted on the naive baseline
 * (trusted/lab.cu), question 2 on the student's own kernel, question 3 on a
 * small kernel that only reads a column of shared memory. Question 4 needs
 * a GPU's DRAM counters and is left to ncu. */
#include <cuda_runtime.h>

#include "predict.h"

namespace {

/* Each warp's request is alike wherever it falls: 1024 x 1024 counts the
 * same per request as 8192 x 8192, in a fraction of the time. */
const std::int64_t SMALL[2] = {1024, 1024}, TIMED[2] = {8192, 8192};

bool per_request(const emu::memory_count &m, double *value)
{
    if (m.requests == 0) return false;
    *value = (double)m.sectors / (double)m.requests;
    return true;
}

bool naive_load_sectors(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(PREDICT_BASELINE, SMALL, 16, &k, note, size)) return false;
    std::snprintf(note, size, "(sectors per load request of the naive kernel)");
    return per_request(k.global_load, value);
}

bool naive_store_sectors(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(PREDICT_BASELINE, SMALL, 16, &k, note, size)) return false;
    std::snprintf(note, size, "(sectors per store request of the naive kernel)");
    return per_request(k.global_store, value);
}

/* The student's kernel at the timed size, when it is the design questions
 * 2a and 2b describe: 32 x 8 threads moving four floats each (32 x 32
 * tiles). A 64 x 64 tile with the same threads would give other answers,
 * right for it, so it is not judged against these. */
bool as_described(emu::kernel_count *k, char *note, std::size_t size)
{
    if (!predict_call(PREDICT_SUBMISSION, TIMED, 4, k, note, size)) return false;
    if (k->threads_run == 0) return false;
    double per_thread = (double)k->global_load.bytes / sizeof(float) / (double)k->threads_run;
    if (k->block[0] != 32 || k->block[1] != 8 || k->block[2] != 1 || per_thread != 4) {
        std::snprintf(note, size,
                      "your kernel launches %u x %u blocks of %u x %u threads loading %.3g floats "
                      "each, not the one the question describes (32 x 32 tiles, 32 x 8 threads)",
                      k->grid[0], k->grid[1], k->block[0], k->block[1], per_thread);
        return false;
    }
    return true;
}

bool your_blocks(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!as_described(&k, note, size)) return false;
    *value = (double)k.blocks_launched;
    std::snprintf(note, size, "(your kernel: %u x %u blocks of 32 x 8 threads)", k.grid[0], k.grid[1]);
    return true;
}

bool your_elements_per_thread(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!as_described(&k, note, size)) return false;
    *value = (double)k.global_load.bytes / sizeof(float) / (double)k.threads_run;
    std::snprintf(note, size, "(floats your kernel loads per thread)");
    return true;
}

/* One warp reads column 0 of float tile[32][W]: lane i reads tile[i][0]. */
template <int W> __global__ void read_a_column(float *out)
{
    __shared__ float tile[32][W];
    for (int c = 0; c < W; c++) tile[threadIdx.x][c] = (float)c;
    __syncwarp();
    out[threadIdx.x] = tile[threadIdx.x][0];
}

template <int W> void launch_column(void *, void *out) { read_a_column<W><<<1, 32>>>((float *)out); }

template <int W> bool column_passes(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_probe("read_a_column", launch_column<W>, &k, note, size) || k.shared_load.requests == 0)
        return false;
    *value = (double)k.shared_load.wavefronts / (double)k.shared_load.requests;
    std::snprintf(note, size, "(passes for one warp's read of a column of float[32][%d])", W);
    return true;
}

} // namespace

extern const predict_question LAB_PREDICTIONS[] = {
    {"1a", "the naive kernel: how many 32-byte sectors does one warp's load touch?", naive_load_sectors,
     "A sector holds 8 floats. Lane i reads the float just after lane i - 1's, in one input row: count "
     "the sectors the 32 lanes' 128 bytes span."},
    {"1b", "the naive kernel: how many 32-byte sectors does one warp's store touch?", naive_store_sectors,
     "Lane i writes into output row i of the block's rows: rows are thousands of bytes apart, so no two "
     "lanes share a sector."},
    {"2a", "32 x 32 tiles, 32 x 8 threads: how many blocks does an 8192 x 8192 transpose launch?",
     your_blocks, "One block per tile: how many 32 x 32 tiles cover the matrix?"},
    {"2b", "32 x 32 tiles, 32 x 8 threads: how many elements does each thread move?",
     your_elements_per_thread, "A tile has 32 x 32 elements and a block 32 x 8 threads."},
    {"3a", "how many passes does a warp's read of one column of float tile[32][34] take?", column_passes<34>,
     "Element (r, 0) is word 34 r, in bank (34 r) mod 32 = (2 r) mod 32: which lanes share a bank?"},
    {"3b", "and of float tile[32][48]?", column_passes<48>,
     "Word 48 r is in bank (16 r) mod 32: how many banks do the 32 rows use, and how many rows per bank?"},
};
extern const int LAB_PREDICTIONS_COUNT = sizeof LAB_PREDICTIONS / sizeof LAB_PREDICTIONS[0];
