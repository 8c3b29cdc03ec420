/* counts.cu - MODE_COUNTS: the memory counts of one call, for the
 * student's information (REC_COUNTS), in the CPU emulation.
 *
 * The call is made like every other (call_prepared: the same stream, the
 * same preparation), on guarded buffers, with the emulation's counters on
 * and at most count_blocks blocks and count_accesses loads and stores of
 * each launch counted, and no block run past those: the outputs are then
 * incomplete, and nobody judges them. What the counters saw, kernel by
 * kernel, goes back as one record. A run of its own, after the right
 * stage passed, so that nothing this call does can reach a verdict. A
 * build for a GPU counts nothing: the grader asks only the emulation. */
#include <string.h>

#include "runner.h"

#ifdef CUDA_EMU
#include <emu/emu_counters.h>

static void copy_count(proto_kernel_count *to, const char *name, const emu::kernel_count &k)
{
    snprintf(to->name, sizeof to->name, "%s", name);
    to->launches = k.launches;
    to->blocks_run = k.blocks_run;
    const emu::memory_count *kinds[PROTO_ACCESS_KINDS] = {&k.global_load, &k.global_store, &k.shared_load,
                                                          &k.shared_store};
    for (int i = 0; i < PROTO_ACCESS_KINDS; i++) {
        to->requests[i] = kinds[i]->requests;
        to->bytes[i] = kinds[i]->bytes;
        to->units[i] = emu::memory_units(*kinds[i], i >= 2); /* kinds 2 and 3 are shared */
    }
}
#endif

void count_and_report(call_env *env, const proto_call *call, int max_blocks, int max_accesses)
{
#ifdef CUDA_EMU
    buffer_set set;
    buffers_create(&set, call, LAYOUT_GUARDED);
    buffers_fill(&set, call);
    emu::counters_start((unsigned long long)max_blocks);
    emu::counters_limit_accesses((unsigned long long)max_accesses);
    call_outcome o;
    call_prepared(env, &set, LAB_DEVICE.submission, set.ptr, call->c.dims, &o);
    emu::counters_stop();
    if (o.entry == cudaSuccess && o.sync == cudaSuccess && o.device == cudaSuccess) {
        proto_counts counts;
        memset(&counts, 0, sizeof counts);
        char name[128];
        emu::kernel_count k;
        for (int i = 0; emu::counters_kernel_at(i, name, sizeof name, &k); i++) {
            if (counts.n_kernels < PROTO_MAX_KERNELS)
                copy_count(&counts.kernel[counts.n_kernels++], name, k);
            else
                counts.more_kernels++;
        }
        rsp_write(REC_COUNTS, -1, &counts, sizeof counts, NULL, 0);
    }
    buffers_destroy(&set);
#else
    (void)env;
    (void)call;
    (void)max_blocks;
    (void)max_accesses;
#endif
}
