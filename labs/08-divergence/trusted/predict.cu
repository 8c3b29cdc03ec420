/* predict.cu - lab 08's "Predict, then measure" questions for make predict
 * (grader/predict/predict.h). Question 3's grid is counted on the naive
 * baseline (trusted/lab.cu: 256-thread blocks, one element per thread),
 * question 4 on a kernel that only loads one float every 16 bytes.
 * Questions 1 and 2 (lanes active under divergence) need a GPU's counters. */
#include <cuda_runtime.h>

#include "predict.h"

namespace {

const std::int64_t TIMED[1] = {1 << 24};

bool baseline_blocks(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(PREDICT_BASELINE, TIMED, 2, &k, note, size)) return false;
    emu::launch_record r = emu::counters_launch_at(0);
    *value = (double)r.grid[0] * r.grid[1] * r.grid[2];
    std::snprintf(note, size, "(blocks of the baseline's launch at n = 2^24, %u threads each)",
                  r.block[0] * r.block[1] * r.block[2]);
    return true;
}

/* Lane i loads the float at byte 16 i: one kind per warp of lab 08's
 * 16-byte records. */
__global__ void load_every_fourth(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[4 * i];
}

void launch_every_fourth(void *in, void *out) { load_every_fourth<<<4, 256>>>((const float *)in, (float *)out); }

bool strided_load(emu::memory_count *m, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_probe("load_every_fourth", launch_every_fourth, &k, note, size) || k.global_load.sectors == 0)
        return false;
    *m = k.global_load;
    return true;
}

bool strided_sectors(double *value, char *note, std::size_t size)
{
    emu::memory_count m;
    if (!strided_load(&m, note, size)) return false;
    *value = (double)m.sectors / (double)m.requests;
    std::snprintf(note, size, "(sectors per request of a warp loading one float every 16 bytes)");
    return true;
}

bool strided_use(double *value, char *note, std::size_t size)
{
    emu::memory_count m;
    if (!strided_load(&m, note, size)) return false;
    *value = (double)m.bytes / (32.0 * (double)m.sectors);
    std::snprintf(note, size, "(bytes the warp uses over the bytes of the sectors it touches)");
    return true;
}

} // namespace

extern const predict_question LAB_PREDICTIONS[] = {
    {"3", "n = 2^24, 256-thread blocks: how many blocks does the launch need?", baseline_blocks,
     "One thread per element: divide 2^24 by 256."},
    {"4a", "one kind per warp (32 elements 16 bytes apart): how many 32-byte sectors does a warp's 4-byte load "
           "touch?",
     strided_sectors, "The 32 addresses span 32 x 16 = 512 bytes: how many 32-byte sectors is that?"},
    {"4b", "what fraction of those sectors' bytes does the warp use (a number between 0 and 1)?", strided_use,
     "The warp uses 32 x 4 bytes of the sectors it touches."},
};
extern const int LAB_PREDICTIONS_COUNT = sizeof LAB_PREDICTIONS / sizeof LAB_PREDICTIONS[0];
