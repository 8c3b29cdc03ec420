/* Fibers: one per CUDA thread that has to wait.  On x86-64 a switch is a
 * handful of register moves (emu_fiber_x86_64.S); elsewhere, or with
 * -DEMU_FIBER_UCONTEXT=1, ucontext does the job (slower: a system call per
 * switch to save the signal mask). */
#ifndef EMU_FIBER_H
#define EMU_FIBER_H

#include <cstddef>

#if !defined(EMU_FIBER_UCONTEXT)
#if defined(__x86_64__)
#define EMU_FIBER_UCONTEXT 0
#else
#define EMU_FIBER_UCONTEXT 1
#endif
#endif

#if EMU_FIBER_UCONTEXT
#include <ucontext.h>
#endif

namespace emu {
struct guarded_region;

struct fiber {
#if EMU_FIBER_UCONTEXT
    ucontext_t context;
    void (*entry)(void *);
    void *argument;
#else
    void *stack_pointer; /* where the callee-saved registers were pushed */
#endif
};

/* Sets f up to call entry(argument) on the given stack at its first switch.
 * entry must never return: it ends by switching away for good. */
void fiber_prepare(fiber *f, void *stack_low, std::size_t stack_size, void (*entry)(void *), void *argument);
void fiber_switch(fiber *from, fiber *to);

/* Stacks are reused: a thread that never waits hands its stack back as soon
 * as it finishes, so a block of threads that never synchronise needs one. */
guarded_region *take_stack();
void give_back_stack(guarded_region *stack);
} // namespace emu

#endif
