/* Context switch for the emulator's fibers (System V x86-64 ABI).
 *
 * emu_fiber_switch_x86_64(void **save_sp, void *next_sp)
 *   pushes the callee-saved registers, stores the stack pointer in *save_sp,
 *   loads next_sp and pops the registers saved there.  Everything else is
 *   caller-saved, so the C++ caller has already preserved it.
 *
 * emu_fiber_trampoline_x86_64
 *   first "return address" of a new fiber: calls r13(r12), as prepared by
 *   fiber_prepare.  The entry never returns. */
#if defined(__x86_64__)
        .text
        .globl  emu_fiber_switch_x86_64
        .type   emu_fiber_switch_x86_64, @function
emu_fiber_switch_x86_64:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   emu_fiber_switch_x86_64, .-emu_fiber_switch_x86_64

        .globl  emu_fiber_trampoline_x86_64
        .type   emu_fiber_trampoline_x86_64, @function
emu_fiber_trampoline_x86_64:
        movq    %r12, %rdi
        callq   *%r13
        ud2
        .size   emu_fiber_trampoline_x86_64, .-emu_fiber_trampoline_x86_64
#endif
        .section .note.GNU-stack,"",@progbits
