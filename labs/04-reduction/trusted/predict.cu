/* predict.cu - lab 04's "Predict, then measure" questions for make predict
 * (grader/predict/predict.h). Question 1 is counted on the student's own
 * launches, question 2 on the naive baseline (trusted/lab.cu), whose tree
 * passes as many barriers as the one the question describes. Questions 3
 * (active warps) and 4 (bytes through DRAM) need a GPU's counters. */
#include <cuda_runtime.h>

#include "predict.h"

namespace {

const std::int64_t TIMED[1] = {1 << 26}, SMALL[1] = {1 << 16};

/* The student's launches at n = 2^26 (two blocks of each run: enough to
 * see the grids), when the first is the one question 1 describes:
 * 256-thread blocks, two elements per thread. */
bool launches_as_asked(char *note, std::size_t size)
{
    unsigned long long blocks = 0, threads = 0;
    if (!predict_first_launch(PREDICT_SUBMISSION, TIMED, 2, &blocks, &threads, note, size)) return false;
    unsigned long long covered = blocks * threads * 2, n = 1ull << 26;
    if (threads != 256 || covered < n || covered >= n + 2 * threads) {
        std::snprintf(note, size,
                      "your first launch at n = 2^26 is %llu block%s of %llu threads, not the one the question "
                      "describes (256 threads, two elements each)",
                      blocks, blocks == 1 ? "" : "s", threads);
        return false;
    }
    return true;
}

bool first_blocks(double *value, char *note, std::size_t size)
{
    if (!launches_as_asked(note, size)) return false;
    emu::launch_record r = emu::counters_launch_at(0);
    *value = (double)r.grid[0] * r.grid[1] * r.grid[2];
    std::snprintf(note, size, "(blocks of your first launch at n = 2^26)");
    return true;
}

bool launches(double *value, char *note, std::size_t size)
{
    if (!launches_as_asked(note, size)) return false;
    int n = emu::counters_launch_count();
    *value = n;
    std::snprintf(note, size, "(launches of your call at n = 2^26)");
    return true;
}

bool barriers_per_block(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(PREDICT_BASELINE, SMALL, 8, &k, note, size)) return false;
    emu::launch_record first = emu::counters_launch_at(0);
    emu::kernel_count one;
    if (!emu::counters_of(first.kernel, &one) || one.blocks_run == 0) return false;
    *value = (double)one.barriers / (double)one.blocks_run;
    std::snprintf(note, size, "(__syncthreads() passed per block of the baseline's 256-thread tree)");
    return true;
}

} // namespace

extern const predict_question LAB_PREDICTIONS[] = {
    {"1a", "256 threads, two elements each: how many blocks does the first launch need for n = 2^26?",
     first_blocks, "Each block takes 2 x 256 elements: divide 2^26 by that."},
    {"1b", "how many launches until one value is left?", launches,
     "Each launch leaves one value per block: divide by 512 again until one block is enough."},
    {"2", "one block's tree of 256 threads: how many __syncthreads() does each thread pass, the one after the "
          "loads included?",
     barriers_per_block, "One after the loads, then one per level: the step halves from 128 to 1."},
};
extern const int LAB_PREDICTIONS_COUNT = sizeof LAB_PREDICTIONS / sizeof LAB_PREDICTIONS[0];
