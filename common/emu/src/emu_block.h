/* The state of the block being emulated: its threads, their fibers, the
 * barrier and the warps' pending rendezvous.  Shared by the scheduler
 * (emu_scheduler.cpp) and the warp primitives (emu_warp.cpp). */
#ifndef EMU_BLOCK_H
#define EMU_BLOCK_H

#include "emu_fiber.h"
#include "emu_internal.h"

#include <cstdint>

namespace emu {

enum class thread_state : unsigned char { fresh, ready, running, at_barrier, at_warp_op, exited };

struct thread_slot {
    fiber context;
    guarded_region *stack; /* held only while the thread is suspended or running */
    uint3 index;
    unsigned int warp;
    unsigned int lane;
    thread_state state;
    const char *wait_file; /* where a waiting thread waits */
    int wait_line;
    const char *barrier_file; /* the last __syncthreads it waited at */
    int barrier_line;
    barrier_outcome barrier_result;
    warp_request request; /* what this lane brought to its warp's rendezvous */
    std::uint64_t warp_result;
};

/* Lanes of one warp waiting in the same primitive with the same mask. */
struct warp_group {
    unsigned int mask;
    unsigned int arrived;
    warp_op op;
};

struct warp_state {
    unsigned int live_mask; /* lanes that exist and have not exited */
    int group_count;
    warp_group groups[32];
};

struct block_state {
    thread_slot *threads;
    unsigned int thread_count;
    unsigned int *ready; /* indices of runnable threads, picked at random */
    unsigned int ready_count;
    unsigned int live_count;
    unsigned int barrier_waiting;
    int barrier_true_count;
    const thread_slot *barrier_first; /* the first arrival, whose call site all must share */
    warp_state warps[32];
    bool aborted;
    fiber scheduler;
    thread_slot *current;
    guarded_region *retired; /* the stack of a thread that ended, until its fiber is left */
    thread_body body;
    void *body_context;
};

extern block_state *active_block;

/* Called by the running thread: hand control back until someone makes it ready. */
void suspend_current_thread();
void make_ready(block_state &block, thread_slot &thread);
/* Called by the running thread: report the error (sticky) and stop the kernel. */
[[noreturn]] void abort_kernel_from_thread(cudaError_t error, const char *detail);
/* Runs one block of the active launch to completion; false if it was aborted. */
bool run_block(block_state &block);

/* emu_warp.cpp: a lane exited; rendezvous that were waiting only for it complete. */
void lane_exited(block_state &block, thread_slot &thread);
const char *warp_op_name(warp_op op);

} // namespace emu

#endif
