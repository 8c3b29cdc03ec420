/* Built-in variables and block-level synchronisation.
 *
 * threadIdx and friends are read-only views of the emulator's notion of the
 * running thread; the scheduler updates them on every switch between fibers.
 * Each synchronisation call records its call site (file and line) through
 * GCC's __builtin_FILE/__builtin_LINE default arguments, so that threads
 * waiting at different __syncthreads can be reported precisely. */
#ifndef EMU_THREAD_H
#define EMU_THREAD_H

namespace emu {
extern uint3 current_thread_index;
extern uint3 current_block_index;
extern dim3 current_block_dim;
extern dim3 current_grid_dim;

struct barrier_outcome {
    int true_count;   /* threads whose predicate was non-zero */
    int participants; /* threads that reached the barrier (exited ones do not) */
};
/* Waits until every live thread of the block reaches the barrier. */
barrier_outcome block_barrier(int predicate, const char *file, int line);
[[noreturn]] void kernel_trap(const char *file, int line);
} // namespace emu

static const uint3 &threadIdx = emu::current_thread_index;
static const uint3 &blockIdx = emu::current_block_index;
static const dim3 &blockDim = emu::current_block_dim;
static const dim3 &gridDim = emu::current_grid_dim;
static const int warpSize = 32;

inline void __syncthreads(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu::block_barrier(0, file, line);
}
inline int __syncthreads_count(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu::block_barrier(predicate, file, line).true_count;
}
inline int __syncthreads_and(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu::barrier_outcome outcome = emu::block_barrier(predicate, file, line);
    return outcome.true_count == outcome.participants;
}
inline int __syncthreads_or(int predicate, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return emu::block_barrier(predicate, file, line).true_count != 0;
}
inline void __trap(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    emu::kernel_trap(file, line);
}

/* One core runs one thread at a time and threads switch only at
 * synchronisation points, so fences only need to stop the compiler from
 * moving memory accesses across them. */
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned int) {}

#endif
