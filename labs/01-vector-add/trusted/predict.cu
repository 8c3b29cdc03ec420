/* predict.cu - lab 01's "Predict, then measure" questions for make predict
 * (grader/predict/predict.h). Question 1 is counted on the student's own
 * launch, question 2 on the naive baseline (trusted/lab.cu) and on a kernel
 * that only loads float4s, question 3 with the emulation's occupancy
 * calculator (the H100's limits). Question 4 needs a GPU's timing. */
#include <cuda_runtime.h>

#include "predict.h"

namespace {

const std::int64_t RIGHT_N[1] = {1000}, SMALL[1] = {1 << 16};

/* The student's first launch at n = 1000, when it is the one question 1
 * describes: 256-thread blocks, one element per thread. */
bool launch_as_asked(unsigned long long *blocks, char *note, std::size_t size)
{
    unsigned long long threads = 0;
    if (!predict_first_launch(PREDICT_SUBMISSION, RIGHT_N, 0, blocks, &threads, note, size)) return false;
    if (threads != 256 || *blocks * threads < 1000 || *blocks * threads >= 1000 + threads) {
        std::snprintf(note, size,
                      "your launch at n = 1000 is %llu block%s of %llu threads, not the one the question "
                      "describes (256-thread blocks, one element per thread)",
                      *blocks, *blocks == 1 ? "" : "s", threads);
        return false;
    }
    return true;
}

bool your_blocks(double *value, char *note, std::size_t size)
{
    unsigned long long blocks;
    if (!launch_as_asked(&blocks, note, size)) return false;
    *value = (double)blocks;
    std::snprintf(note, size, "(blocks of your launch at n = 1000)");
    return true;
}

bool your_idle_threads(double *value, char *note, std::size_t size)
{
    unsigned long long blocks;
    if (!launch_as_asked(&blocks, note, size)) return false;
    *value = (double)blocks * 256.0 - 1000.0;
    std::snprintf(note, size, "(threads your launch starts at n = 1000, less 1000)");
    return true;
}

bool baseline_load_sectors(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_call(PREDICT_BASELINE, SMALL, 16, &k, note, size)) return false;
    if (k.global_load.requests == 0) return false;
    *value = (double)k.global_load.sectors / (double)k.global_load.requests;
    std::snprintf(note, size, "(sectors per load request of the naive kernel)");
    return true;
}

/* Loads one float4 per thread (all of it), nothing more. */
__global__ void load_float4s(const float4 *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = v.x + v.y + v.z + v.w;
}

void launch_float4s(void *in, void *out) { load_float4s<<<4, 256>>>((const float4 *)in, (float *)out); }

bool float4_load_sectors(double *value, char *note, std::size_t size)
{
    emu::kernel_count k;
    if (!predict_probe("load_float4s", launch_float4s, &k, note, size) || k.global_load.requests == 0) return false;
    *value = (double)k.global_load.sectors / (double)k.global_load.requests;
    std::snprintf(note, size, "(sectors per request of a warp's float4 load)");
    return true;
}

__global__ void any_kernel(float *out) { out[threadIdx.x] = 0; }

/* Threads of 48-thread blocks an SM holds; as a share of its thread slots
 * when as_fraction. */
bool threads_working(double *value, bool as_fraction, char *note, std::size_t size)
{
    int blocks = 0, slots = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, any_kernel, 48, 0) != cudaSuccess ||
        cudaDeviceGetAttribute(&slots, cudaDevAttrMaxThreadsPerMultiProcessor, 0) != cudaSuccess || slots == 0) {
        std::snprintf(note, size, "the emulation's occupancy calculator did not answer");
        return false;
    }
    *value = blocks * 48.0 / (as_fraction ? slots : 1);
    std::snprintf(note, size, "(%d blocks of 48 threads per SM, by the occupancy calculator with the H100's limits)",
                  blocks);
    return true;
}

bool threads_per_sm(double *value, char *note, std::size_t size) { return threads_working(value, false, note, size); }
bool fraction_of_slots(double *value, char *note, std::size_t size) { return threads_working(value, true, note, size); }

} // namespace

extern const predict_question LAB_PREDICTIONS[] = {
    {"1a", "n = 1000, 256-thread blocks: how many blocks does the launch need?", your_blocks,
     "Every element needs a thread, and blocks come whole: divide and round up."},
    {"1b", "n = 1000, 256-thread blocks: how many of its threads have no element?", your_idle_threads,
     "The launch starts blocks x 256 threads; 1000 of them have an element."},
    {"2a", "a warp loads 32 consecutive floats: how many 32-byte sectors does that load touch?",
     baseline_load_sectors, "32 floats are 128 bytes, 16-byte aligned: how many 32-byte pieces?"},
    {"2b", "and when each thread loads a float4?", float4_load_sectors,
     "32 float4s are 512 bytes, read in one request: how many 32-byte pieces?"},
    {"3a", "48-thread blocks: how many threads per SM do work (32 blocks and 64 warps per SM at most)?",
     threads_per_sm, "A 48-thread block takes 2 warps (64 thread slots): which limit is reached first, and "
                     "how many of the threads it admits are real?"},
    {"3b", "what fraction of the SM's 2048 thread slots is that (a number between 0 and 1)?", fraction_of_slots,
     "Divide the working threads by 2048."},
};
extern const int LAB_PREDICTIONS_COUNT = sizeof LAB_PREDICTIONS / sizeof LAB_PREDICTIONS[0];
