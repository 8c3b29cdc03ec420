/* Part of the CPU emulation (see common/emu/README.md): the pipeline
 * primitives of <cuda_pipeline.h>, the C-style interface to the
 * asynchronous global-to-shared copies of sm_80 and later (cp.async):
 *
 *   __pipeline_memcpy_async(dst_shared, src_global, size, zfill = 0)
 *   __pipeline_commit()
 *   __pipeline_wait_prior(n)
 *
 * On the GPU a copy is only started by __pipeline_memcpy_async; the
 * copies a thread has started since its last commit form a group, and
 * __pipeline_wait_prior(n) waits until at most n of the thread's groups
 * are still in flight. Another thread may read the bytes only after that
 * wait and a barrier.
 *
 * Here the copy is done at once and the commit and the wait do nothing.
 * Threads switch only at barriers and warp primitives (README.md, Thread
 * scheduling), so no other thread can see the destination before the
 * barrier that a correct kernel has after its wait anyway; a copy issued
 * into a buffer that other threads are still reading (a missing barrier
 * before the copy) overwrites it before they read, in some scheduling
 * orders, as the GPU's copy would. What the emulation does not catch: a
 * thread that reads its own copy's destination without waiting for it
 * (the GPU may not have written it yet; here it always has).
 *
 * As on the GPU, size must be 4, 8 or 16, both addresses multiples of it
 * (a misaligned copy faults with cudaErrorMisalignedAddress), and the
 * last zfill bytes of the destination are written with zeros instead of
 * being read (zfill == size reads nothing from src: a copy from outside
 * the matrix that only zeroes its destination). */
#ifndef EMU_CUDA_PIPELINE_H
#define EMU_CUDA_PIPELINE_H

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cuda_runtime.h"

inline void __pipeline_memcpy_async(void *__restrict__ dst_shared, const void *__restrict__ src_global,
                                    size_t size_and_align, size_t zfill = 0,
                                    const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align) {
        std::fprintf(stderr,
                     "%s:%d: __pipeline_memcpy_async: size %zu with zfill %zu (the size must be 4, 8 "
                     "or 16, zfill at most the size)\n",
                     file, line, size_and_align, zfill);
        emu::kernel_trap(file, line);
    }
    emu::check_vector_access(dst_shared, size_and_align);
    unsigned char *d = static_cast<unsigned char *>(dst_shared);
    size_t copied = size_and_align - zfill;
    if (copied) emu::check_vector_access(src_global, size_and_align);
    /* Constant sizes, so that a counting build (-fsanitize=thread, see
     * emu/emu_counters.h) sees one access of the copy's size per lane. */
    if (copied == size_and_align) {
        switch (size_and_align) {
        case 4: __builtin_memcpy(d, src_global, 4); return;
        case 8: __builtin_memcpy(d, src_global, 8); return;
        default: __builtin_memcpy(d, src_global, 16); return;
        }
    }
    std::memcpy(d, src_global, copied);
    std::memset(d + copied, 0, zfill);
}

inline void __pipeline_commit() {}

inline void __pipeline_wait_prior(size_t) {}

#endif
