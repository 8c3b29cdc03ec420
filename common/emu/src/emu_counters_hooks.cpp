/* The hooks GCC's -fsanitize=thread puts around every memory access, atomic
 * and function of the file it compiles, defined here in place of
 * ThreadSanitizer's runtime: loads and stores go to the counters
 * (emu_counters.cpp), atomics are done as asked and not counted, the rest
 * does nothing. Only a file compiled for counting calls them, so only such
 * a program links this file. */
#include <cstdint>

#include "emu_counters_internal.h"

#define EMU_PC ((std::uint64_t)__builtin_return_address(0))

extern "C" {

void __tsan_init(void) {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}
void __tsan_ignore_thread_begin(void) {}
void __tsan_ignore_thread_end(void) {}

#define EMU_ACCESS(kind, store, size)                                                                \
    void __tsan_##kind##size(void *p)                                                                \
    {                                                                                                \
        if (emu::counting) emu::counters_access(p, size, store, EMU_PC);                             \
    }                                                                                                \
    void __tsan_unaligned_##kind##size(void *p)                                                      \
    {                                                                                                \
        if (emu::counting) emu::counters_access(p, size, store, EMU_PC);                             \
    }                                                                                                \
    void __tsan_volatile_##kind##size(void *p)                                                       \
    {                                                                                                \
        if (emu::counting) emu::counters_access(p, size, store, EMU_PC);                             \
    }
EMU_ACCESS(read, false, 1)
EMU_ACCESS(read, false, 2)
EMU_ACCESS(read, false, 4)
EMU_ACCESS(read, false, 8)
EMU_ACCESS(read, false, 16)
EMU_ACCESS(write, true, 1)
EMU_ACCESS(write, true, 2)
EMU_ACCESS(write, true, 4)
EMU_ACCESS(write, true, 8)
EMU_ACCESS(write, true, 16)

void __tsan_read_range(void *p, unsigned long size)
{
    if (emu::counting) emu::counters_access(p, size, false, EMU_PC);
}
void __tsan_write_range(void *p, unsigned long size)
{
    if (emu::counting) emu::counters_access(p, size, true, EMU_PC);
}

/* Atomics: the operation itself, with the order asked for. */
#define EMU_ATOMICS(bits, T)                                                                          \
    T __tsan_atomic##bits##_load(const volatile T *a, int mo) { return __atomic_load_n(a, mo); }      \
    void __tsan_atomic##bits##_store(volatile T *a, T v, int mo) { __atomic_store_n(a, v, mo); }      \
    T __tsan_atomic##bits##_exchange(volatile T *a, T v, int mo) { return __atomic_exchange_n(a, v, mo); } \
    T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo) { return __atomic_fetch_add(a, v, mo); } \
    T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo) { return __atomic_fetch_sub(a, v, mo); } \
    T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo) { return __atomic_fetch_and(a, v, mo); } \
    T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo) { return __atomic_fetch_or(a, v, mo); }   \
    T __tsan_atomic##bits##_fetch_xor(volatile T *a, T v, int mo) { return __atomic_fetch_xor(a, v, mo); } \
    T __tsan_atomic##bits##_fetch_nand(volatile T *a, T v, int mo) { return __atomic_fetch_nand(a, v, mo); } \
    int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fail)   \
    {                                                                                                 \
        return __atomic_compare_exchange_n(a, c, v, false, mo, fail);                                 \
    }                                                                                                 \
    int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fail)     \
    {                                                                                                 \
        return __atomic_compare_exchange_n(a, c, v, true, mo, fail);                                  \
    }                                                                                                 \
    T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fail)         \
    {                                                                                                 \
        __atomic_compare_exchange_n(a, &c, v, false, mo, fail);                                       \
        return c;                                                                                     \
    }
EMU_ATOMICS(8, std::uint8_t)
EMU_ATOMICS(16, std::uint16_t)
EMU_ATOMICS(32, std::uint32_t)
EMU_ATOMICS(64, std::uint64_t)

void __tsan_atomic_thread_fence(int mo) { __atomic_thread_fence(mo); }
void __tsan_atomic_signal_fence(int mo) { __atomic_signal_fence(mo); }
}
