/* predict.h - `make predict LAB=NN`: the student's answers to a lab's
 * "Predict, then measure" questions, against what the CPU emulation counts
 * (common/emu/include/emu/emu_counters.h), with no GPU.
 *
 * A lab that takes part defines its questions in trusted/predict.cu. Each
 * measures its own truth when the student asks, on the naive baseline, on
 * the student's own code, or on a small kernel of its own that shows one
 * effect (never a stage's answer): no answer is stored anywhere. */
#ifndef PREDICT_H
#define PREDICT_H

#include <cstddef>
#include <cstdint>

#include <emu/emu_counters.h>

struct predict_question {
    const char *key;  /* "1a": the README's question 1, its first part */
    const char *asks; /* the question, on one line */
    /* The truth: true with the value (and where it was counted, in note),
     * or false with why it cannot be measured now. */
    bool (*measure)(double *value, char *note, std::size_t size);
    const char *on_a_miss; /* how to get there: the reasoning, not the number */
};

extern const predict_question LAB_PREDICTIONS[];
extern const int LAB_PREDICTIONS_COUNT;

enum predict_who { PREDICT_BASELINE, PREDICT_SUBMISSION };

/* Calls the lab's baseline or the student's entry point at these sizes, on
 * buffers of zeros, counting every kernel it launches, but running at most
 * max_blocks blocks of each launch (the outputs are then wrong, and only
 * the counts matter). The counts are those of this call only (*k: every
 * kernel it launched, added up). False, with why, when the call failed or
 * launched nothing. */
bool predict_call(predict_who who, const std::int64_t *dims, unsigned long long max_blocks,
                  emu::kernel_count *k, char *why, std::size_t size);

/* predict_call, then the grid of its first launch: *blocks blocks of
 * *threads threads. */
bool predict_first_launch(predict_who who, const std::int64_t *dims, unsigned long long max_blocks,
                          unsigned long long *blocks, unsigned long long *threads, char *why,
                          std::size_t size);

/* A kernel of the question file that shows one effect: launch(in, out)
 * launches it on two buffers of zeros (1 MiB each), counting; *k gets the
 * counts of the kernels whose name holds `kernel`. False, with why, when
 * it did not run. */
bool predict_probe(const char *kernel, void (*launch)(void *in, void *out), emu::kernel_count *k,
                   char *why, std::size_t size);

#endif
