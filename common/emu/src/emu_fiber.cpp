/* Fiber set-up, switching and the pool of guarded fiber stacks. */
#include "emu_fiber.h"
#include "emu_internal.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if !EMU_FIBER_UCONTEXT
extern "C" void emu_fiber_switch_x86_64(void **save_sp, void *next_sp);
extern "C" void emu_fiber_trampoline_x86_64();
#endif

namespace emu {

#if EMU_FIBER_UCONTEXT
namespace {
/* makecontext passes int arguments only, so the fiber's address travels in two halves. */
void ucontext_trampoline(unsigned int low, unsigned int high)
{
    fiber *f = (fiber *)(((std::uintptr_t)high << 32) | low);
    f->entry(f->argument);
    std::abort();
}
} // namespace

void fiber_prepare(fiber *f, void *stack_low, std::size_t stack_size, void (*entry)(void *), void *argument)
{
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = stack_low;
    f->context.uc_stack.ss_size = stack_size;
    f->context.uc_link = nullptr;
    f->entry = entry;
    f->argument = argument;
    std::uintptr_t address = (std::uintptr_t)f;
    makecontext(&f->context, (void (*)())ucontext_trampoline, 2, (unsigned int)address,
                (unsigned int)(address >> 32));
}

void fiber_switch(fiber *from, fiber *to) { swapcontext(&from->context, &to->context); }
#else
void fiber_prepare(fiber *f, void *stack_low, std::size_t stack_size, void (*entry)(void *), void *argument)
{
    /* Frame popped by the first switch: r15 r14 r13 r12 rbx rbp, then the
     * trampoline as return address.  It sits just below a 16-byte aligned
     * top so that the entry starts with the ABI's stack alignment. */
    std::uintptr_t top = ((std::uintptr_t)stack_low + stack_size) & ~(std::uintptr_t)15;
    void **frame = (void **)top;
    frame[-1] = (void *)&emu_fiber_trampoline_x86_64;
    frame[-2] = nullptr;           /* rbp */
    frame[-3] = nullptr;           /* rbx */
    frame[-4] = argument;          /* r12 */
    frame[-5] = (void *)entry;     /* r13 */
    frame[-6] = nullptr;           /* r14 */
    frame[-7] = nullptr;           /* r15 */
    f->stack_pointer = &frame[-7];
}

void fiber_switch(fiber *from, fiber *to) { emu_fiber_switch_x86_64(&from->stack_pointer, to->stack_pointer); }
#endif

namespace {
std::vector<guarded_region *> free_stacks;

std::size_t stack_bytes()
{
    static const std::size_t bytes = [] {
        const char *setting = std::getenv("CUDA_EMU_STACK_KB");
        long kib = setting ? std::atol(setting) : 0;
        return (std::size_t)(kib >= 16 ? kib : 256) * 1024;
    }();
    return bytes;
}
} // namespace

guarded_region *take_stack()
{
    if (!free_stacks.empty()) {
        guarded_region *stack = free_stacks.back();
        free_stacks.pop_back();
        return stack;
    }
    guarded_region *stack = create_guarded_region(stack_bytes(), 16, region_kind::fiber_stack, "thread stack");
    if (!stack) {
        std::fprintf(stderr, "emulator: cannot map a %zu-byte stack for another thread\n", stack_bytes());
        std::exit(CUDA_EMU_FAULT_EXIT_CODE);
    }
    return stack;
}

void give_back_stack(guarded_region *stack) { free_stacks.push_back(stack); }
} // namespace emu
