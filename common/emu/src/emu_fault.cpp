/* Fault reports.  A kernel's invalid access raises SIGSEGV/SIGBUS on the
 * guard pages; the handler (on its own stack, since the fault may be a fiber
 * stack overflow) names the memory, the thread and the block, and ends the
 * process with CUDA_EMU_FAULT_EXIT_CODE: after a wild write the emulated
 * "device" can no longer be trusted.  Outside kernels a fault is an
 * ordinary crash of the host program. */
#include "emu_block.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace emu {
namespace {
void write_line(const char *text)
{
    std::size_t length = std::strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written <= 0)
            return;
        text += written;
        length -= (std::size_t)written;
    }
}

void format_message(char *buffer, std::size_t size, cudaError_t error, const char *detail)
{
    char thread[192];
    describe_current_thread(thread, sizeof thread);
    std::snprintf(buffer, size, "emulator: %s: %s%s%s\n", cudaGetErrorName(error), detail, *thread ? " by " : "",
                  thread);
}

/* What the faulting address belongs to, e.g. "4 bytes past the end of a 4096-byte device allocation". */
void describe_address(char *buffer, std::size_t size, const char *address)
{
    const guarded_region *region = find_region(address);
    if ((std::uintptr_t)address < page_size()) {
        std::snprintf(buffer, size, "a null pointer");
        return;
    }
    if (!region) {
        std::snprintf(buffer, size,
                      "not inside any device allocation or shared memory (a host pointer, or a wild pointer?)");
        return;
    }
    if (region->kind == region_kind::fiber_stack) {
        std::snprintf(buffer, size, "stack overflow of the thread (large local arrays or deep recursion; "
                                    "set CUDA_EMU_STACK_KB to give threads more)");
        return;
    }
    char what[160];
    switch (region->kind) {
    case region_kind::static_shared:
        std::snprintf(what, sizeof what, "the %zu-byte __shared__ variable '%s'", region->size, region->label);
        break;
    case region_kind::dynamic_shared:
        std::snprintf(what, sizeof what, "the %zu bytes of dynamic shared memory (extern __shared__) of the launch",
                      region->size);
        break;
    case region_kind::freed_device:
        std::snprintf(buffer, size, "inside a %zu-byte device allocation that was already freed with cudaFree",
                      region->size);
        return;
    default:
        std::snprintf(what, sizeof what, "a %zu-byte device allocation", region->size);
        break;
    }
    if (address >= region->user + region->size)
        std::snprintf(buffer, size, "%td bytes past the end of %s", address - (region->user + region->size), what);
    else if (address < region->user)
        std::snprintf(buffer, size, "%td bytes before the start of %s", region->user - address, what);
    else
        std::snprintf(buffer, size, "inside %s", what);
}

void on_fatal_signal(int signal_number, siginfo_t *info, void *context)
{
    if (!kernel_is_running) {
        /* Host code: the handler was reset to the default as it was called
         * (SA_RESETHAND), so the fault happens again on return and ends the
         * process as a crash. */
        return;
    }
    char detail[512];
    cudaError_t error = cudaErrorIllegalAddress;
    const char *address = (const char *)info->si_addr;
    bool is_write = false;
    long trap = 14;
#if defined(__x86_64__) && defined(REG_ERR)
    const ucontext_t *uc = (const ucontext_t *)context;
    is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
    trap = uc->uc_mcontext.gregs[REG_TRAPNO];
#else
    (void)context;
#endif
    if (signal_number == SIGFPE) {
        error = cudaErrorLaunchFailure;
        std::snprintf(detail, sizeof detail, "integer division by zero (or overflow) trapped on the CPU; the GPU "
                                             "would not trap but return an unspecified value");
    } else if (signal_number == SIGILL) {
        error = cudaErrorIllegalInstruction;
        std::snprintf(detail, sizeof detail, "illegal instruction");
    } else if (signal_number == SIGSEGV && trap == 13) {
        /* A general-protection fault: an aligned SSE access (movaps) at a
         * misaligned address, or a non-canonical wild pointer. */
        error = cudaErrorMisalignedAddress;
        std::snprintf(detail, sizeof detail,
                      "misaligned address: a vector access (e.g. float4) at an address that is not a multiple of "
                      "its size, or a wild pointer");
    } else {
        char where[256];
        describe_address(where, sizeof where, address);
        const char *access = is_write ? "write" : "read";
        std::snprintf(detail, sizeof detail, "out-of-bounds %s: invalid %s at address %p (%s)", access, access,
                      (const void *)address, where);
    }
    char message[1024];
    format_message(message, sizeof message, error, detail);
    write_line(message);
    std::fflush(stdout);
    _exit(CUDA_EMU_FAULT_EXIT_CODE);
}
} // namespace

/* Each thread that runs kernels reports a stack overflow from a stack of
 * its own (the grader runs lab functions on a thread of their own). */
void use_alternate_stack()
{
    static thread_local char alternate_stack[64 * 1024];
    static thread_local bool in_use = false;
    if (in_use)
        return;
    stack_t stack{};
    stack.ss_sp = alternate_stack;
    stack.ss_size = sizeof alternate_stack;
    sigaltstack(&stack, nullptr);
    in_use = true;
}

/* Installed once, at start-up: the grader's sandbox forbids installing
 * signal handlers on the thread that runs graded code. SA_RESETHAND puts
 * back the default as a handler is called, so a fault in host code still
 * ends as a crash without another call to change the handler. */
void install_fault_handlers()
{
    use_alternate_stack();
    struct sigaction action {};
    action.sa_sigaction = on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int signal_number : {SIGSEGV, SIGBUS, SIGFPE, SIGILL})
        sigaction(signal_number, &action, nullptr);
}

namespace {
struct install_at_start {
    install_at_start() { install_fault_handlers(); }
} installed;
} // namespace

void describe_current_thread(char *buffer, std::size_t size)
{
    if (!kernel_is_running || !active_block || !active_block->current) {
        buffer[0] = '\0';
        return;
    }
    std::snprintf(buffer, size, "thread (%u,%u,%u) of block (%u,%u,%u) in kernel %s", current_thread_index.x,
                  current_thread_index.y, current_thread_index.z, current_block_index.x, current_block_index.y,
                  current_block_index.z, current_kernel_name);
}

void fatal_kernel_fault(cudaError_t error, const char *detail)
{
    char message[1024];
    format_message(message, sizeof message, error, detail);
    write_line(message);
    std::fflush(stdout);
    _exit(CUDA_EMU_FAULT_EXIT_CODE);
}

void report_kernel_error(cudaError_t error, const char *detail)
{
    char message[1024];
    format_message(message, sizeof message, error, detail);
    write_line(message);
    set_sticky_error(error);
}

void report_misaligned_access(const void *address, std::size_t alignment)
{
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "misaligned address: %zu-byte vector access at address %p (not a multiple of %zu)", alignment,
                  address, alignment);
    fatal_kernel_fault(cudaErrorMisalignedAddress, detail);
}

void kernel_trap(const char *file, int line)
{
    char detail[256];
    std::snprintf(detail, sizeof detail, "__trap() called at %s:%d", file, line);
    fatal_kernel_fault(cudaErrorIllegalInstruction, detail);
}
} // namespace emu
