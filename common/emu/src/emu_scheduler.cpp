/* The scheduler: runs the threads of one block on fibers.
 *
 * Runnable threads are picked in a seeded random order and run until they
 * finish or wait (at __syncthreads or a warp primitive).  A thread that
 * stops picks the next one itself and switches straight to it; a fresh
 * thread picked after one that finished starts on the same stack with no
 * switch at all, so a block whose threads never wait runs in one fiber,
 * one body after another.  Only when nothing is runnable does control go
 * back to the scheduler: either every live thread waits at the same
 * __syncthreads (release them all), or the block is stuck (report). */
#include "emu_block.h"
#include "emu_counters_internal.h"

#include <cstdio>
#include <cstring>

namespace emu {

uint3 current_thread_index;
uint3 current_block_index;
dim3 current_block_dim;
dim3 current_grid_dim;
block_state *active_block = nullptr;

namespace {
bool same_site(const char *file_a, int line_a, const char *file_b, int line_b)
{
    return line_a == line_b && (file_a == file_b || std::strcmp(file_a, file_b) == 0);
}

unsigned int random_below(unsigned int bound) { return (unsigned int)(((next_random() >> 32) * bound) >> 32); }

/* The next thread to run, taken from the ready list in the seeded order. */
thread_slot &pick_ready(block_state &block)
{
    unsigned int pick = random_below(block.ready_count);
    unsigned int id = block.ready[pick];
    block.ready[pick] = block.ready[--block.ready_count];
    return block.threads[id];
}

void start_running(block_state &block, thread_slot &thread)
{
    thread.state = thread_state::running;
    block.current = &thread;
    current_thread_index = thread.index;
}

void thread_main(void *argument);

/* Gives a fresh thread a stack of the pool and a fiber that starts it. */
void prepare_fresh(block_state &block, thread_slot &thread)
{
    thread.stack = take_stack();
    /* Stagger the stack tops: identical page offsets would make every
     * suspended thread's frame compete for one cache set. */
    std::size_t colour = (std::size_t)(&thread - block.threads) % 61 * 64;
    fiber_prepare(&thread.context, thread.stack->user, thread.stack->size - colour, thread_main, &thread);
}

/* The stack of a thread that ended goes back to the pool once its fiber
 * has been left: by whichever fiber runs next. */
void give_back_retired(block_state &block)
{
    if (block.retired) {
        give_back_stack(block.retired);
        block.retired = nullptr;
    }
}

/* The running thread `from` stops (it waits, or it ended and left its
 * stack in block.retired); next, picked already, runs now, or with none
 * ready the scheduler decides. Returns when from is resumed. */
void switch_to(block_state &block, fiber &from, thread_slot *next)
{
    fiber *to = &block.scheduler;
    if (next) {
        if (next->state == thread_state::fresh)
            prepare_fresh(block, *next);
        start_running(block, *next);
        to = &next->context;
    }
    fiber_switch(&from, to);
    give_back_retired(block);
}

thread_slot *pick_if_any(block_state &block) { return block.ready_count ? &pick_ready(block) : nullptr; }

/* A fiber: the body of the thread it was made for, then of every fresh
 * thread picked after it, on the same stack, until the pick is a thread
 * that waits somewhere or none is ready. A finished lane leaves its warp
 * here, on its fiber, where a shuffle that reads it can still abort the
 * kernel (abort_kernel_from_thread switches away from a thread). */
void thread_main(void *argument)
{
    thread_slot *thread = (thread_slot *)argument;
    block_state *block = active_block;
    give_back_retired(*block);
    for (;;) {
        block->body(block->body_context);
        thread->state = thread_state::exited;
        --block->live_count;
        lane_exited(*block, *thread);
        thread_slot *next = pick_if_any(*block);
        if (!next || next->state != thread_state::fresh) {
            block->retired = thread->stack;
            thread->stack = nullptr;
            switch_to(*block, thread->context, next);
            __builtin_unreachable();
        }
        next->stack = thread->stack;
        thread->stack = nullptr;
        start_running(*block, *next);
        thread = next;
    }
}

void release_barrier(block_state &block)
{
    counters_barrier();
    barrier_outcome outcome{block.barrier_true_count, (int)block.barrier_waiting};
    for (unsigned int i = 0; i < block.thread_count; ++i) {
        thread_slot &thread = block.threads[i];
        if (thread.state == thread_state::at_barrier) {
            thread.barrier_result = outcome;
            make_ready(block, thread);
        }
    }
    block.barrier_waiting = 0;
    block.barrier_true_count = 0;
    block.barrier_first = nullptr;
}

void format_index(char *buffer, std::size_t size, uint3 index)
{
    std::snprintf(buffer, size, "(%u,%u,%u)", index.x, index.y, index.z);
}

/* Kept out of block_barrier so that the frame every waiting thread keeps on
 * its stack stays small. */
[[noreturn]] __attribute__((noinline, cold)) void report_divergent_barrier(const block_state &block,
                                                                          const thread_slot &thread,
                                                                          const char *file, int line)
{
    char first[48], second[48], block_name[48], detail[640];
    format_index(first, sizeof first, block.barrier_first->index);
    format_index(second, sizeof second, thread.index);
    format_index(block_name, sizeof block_name, current_block_index);
    std::snprintf(detail, sizeof detail,
                  "threads of block %s in kernel %s wait at different __syncthreads: thread %s at %s:%d and "
                  "thread %s at %s:%d (a barrier in divergent code; the GPU would hang or misbehave)",
                  block_name, current_kernel_name, first, block.barrier_first->wait_file,
                  block.barrier_first->wait_line, second, file, line);
    abort_kernel_from_thread(cudaErrorLaunchFailure, detail);
}

void report_stuck_block(const block_state &block)
{
    const thread_slot *at_barrier = nullptr, *at_warp = nullptr;
    unsigned int barrier_count = 0, warp_count = 0;
    for (unsigned int i = 0; i < block.thread_count; ++i) {
        const thread_slot &thread = block.threads[i];
        if (thread.state == thread_state::at_barrier && barrier_count++ == 0)
            at_barrier = &thread;
        if (thread.state == thread_state::at_warp_op && warp_count++ == 0)
            at_warp = &thread;
    }
    char block_name[48], detail[768];
    format_index(block_name, sizeof block_name, current_block_index);
    int used = std::snprintf(detail, sizeof detail, "deadlock in block %s of kernel %s:", block_name,
                             current_kernel_name);
    if (at_barrier) {
        char thread_name[48];
        format_index(thread_name, sizeof thread_name, at_barrier->index);
        used += std::snprintf(detail + used, sizeof detail - used,
                              " %u thread(s) wait at __syncthreads (%s:%d, e.g. thread %s)", barrier_count,
                              at_barrier->wait_file, at_barrier->wait_line, thread_name);
    }
    if (at_warp) {
        char thread_name[48];
        format_index(thread_name, sizeof thread_name, at_warp->index);
        std::snprintf(detail + used, sizeof detail - used,
                      "%s %u thread(s) wait in warp primitives that can never complete (e.g. thread %s at %s with "
                      "mask 0x%08x, %s:%d)",
                      at_barrier ? " while" : "", warp_count, thread_name, warp_op_name(at_warp->request.op),
                      at_warp->request.mask, at_warp->wait_file, at_warp->wait_line);
    }
    report_kernel_error(cudaErrorLaunchFailure, detail);
}

/* A thread that has ended after waiting at the very __syncthreads the
 * others wait at now: the barrier sits in a condition or a loop that not
 * every thread meets the same number of times (a tree reduction with the
 * barrier inside "if (tid < step)"). Exited threads release a barrier, so
 * the answer may even come out right, but the GPU's synccheck reports it
 * and the result is undefined. A thread that returned before ever
 * reaching the barrier (the usual bounds check) is not one. */
const thread_slot *left_a_barrier_behind(const block_state &block)
{
    for (unsigned int i = 0; i < block.thread_count; ++i) {
        const thread_slot &thread = block.threads[i];
        if (thread.state == thread_state::exited && thread.barrier_file &&
            same_site(thread.barrier_file, thread.barrier_line, block.barrier_first->wait_file,
                      block.barrier_first->wait_line))
            return &thread;
    }
    return nullptr;
}

void report_barrier_left_behind(const block_state &block, const thread_slot &left)
{
    char gone[48], waiting[48], block_name[48], detail[640];
    format_index(gone, sizeof gone, left.index);
    format_index(waiting, sizeof waiting, block.barrier_first->index);
    format_index(block_name, sizeof block_name, current_block_index);
    std::snprintf(detail, sizeof detail,
                  "in block %s of kernel %s, thread %s waits at the __syncthreads at %s:%d, which thread %s "
                  "reached before and has now left behind: it ended instead (a barrier inside a condition "
                  "or loop that not every thread meets alike; the result is undefined on the GPU)",
                  block_name, current_kernel_name, waiting, block.barrier_first->wait_file,
                  block.barrier_first->wait_line, gone);
    report_kernel_error(cudaErrorLaunchFailure, detail);
}

void release_stacks(block_state &block)
{
    for (unsigned int i = 0; i < block.thread_count; ++i)
        if (block.threads[i].stack) {
            give_back_stack(block.threads[i].stack);
            block.threads[i].stack = nullptr;
        }
}

} // namespace

void make_ready(block_state &block, thread_slot &thread)
{
    thread.state = thread_state::ready;
    block.ready[block.ready_count++] = (unsigned int)(&thread - block.threads);
}

void suspend_current_thread()
{
    block_state &block = *active_block;
    thread_slot &thread = *block.current;
    switch_to(block, thread.context, pick_if_any(block));
    /* Resumed by the fiber that picked it, which has restored threadIdx. */
}

void abort_kernel_from_thread(cudaError_t error, const char *detail)
{
    block_state &block = *active_block;
    report_kernel_error(error, detail);
    block.aborted = true;
    fiber_switch(&block.current->context, &block.scheduler);
    __builtin_unreachable();
}

barrier_outcome block_barrier(int predicate, const char *file, int line)
{
    block_state *block = active_block;
    if (!block) /* host code calling a __device__ helper: a block of one thread */
        return barrier_outcome{predicate != 0, 1};
    thread_slot &thread = *block->current;
    thread.wait_file = file;
    thread.wait_line = line;
    thread.barrier_file = file;
    thread.barrier_line = line;
    if (block->barrier_waiting == 0) {
        block->barrier_first = &thread;
    } else if (!same_site(block->barrier_first->wait_file, block->barrier_first->wait_line, file, line)) {
        report_divergent_barrier(*block, thread, file, line);
    }
    ++block->barrier_waiting;
    block->barrier_true_count += predicate != 0;
    thread.state = thread_state::at_barrier;
    suspend_current_thread();
    return thread.barrier_result;
}

bool run_block(block_state &block)
{
    const dim3 dim = current_block_dim;
    block.thread_count = dim.x * dim.y * dim.z;
    for (unsigned int i = 0; i < block.thread_count; ++i) {
        thread_slot &thread = block.threads[i];
        thread.stack = nullptr;
        thread.index = uint3{i % dim.x, (i / dim.x) % dim.y, i / (dim.x * dim.y)};
        thread.warp = i / 32;
        thread.lane = i % 32;
        thread.state = thread_state::fresh;
        thread.barrier_file = nullptr;
        thread.barrier_line = 0;
        block.ready[i] = i;
    }
    for (unsigned int w = 0; w * 32 < block.thread_count; ++w) {
        unsigned int lanes = block.thread_count - w * 32;
        block.warps[w].live_mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
        block.warps[w].group_count = 0;
    }
    block.ready_count = block.thread_count;
    block.live_count = block.thread_count;
    block.barrier_waiting = 0;
    block.barrier_true_count = 0;
    block.barrier_first = nullptr;
    block.retired = nullptr;
    block.aborted = false;

    for (;;) {
        if (block.ready_count != 0) {
            switch_to(block, block.scheduler, &pick_ready(block));
            /* Back when no thread is ready, or the kernel was aborted. */
            block.current = nullptr;
            if (block.aborted) {
                release_stacks(block);
                return false;
            }
            continue;
        }
        if (block.live_count == 0)
            return true;
        if (block.barrier_waiting == block.live_count) {
            if (const thread_slot *left = left_a_barrier_behind(block)) {
                report_barrier_left_behind(block, *left);
                release_stacks(block);
                return false;
            }
            release_barrier(block);
            continue;
        }
        report_stuck_block(block);
        release_stacks(block);
        return false;
    }
}
} // namespace emu
