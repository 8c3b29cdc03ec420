/* Declarations shared by the emulation runtime's source files (not by user code). */
#ifndef EMU_INTERNAL_H
#define EMU_INTERNAL_H

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace emu {

/* ---- errors (emu_errors.cpp) ---- */
/* Remembers error as the last error (as every failing CUDA call does) and returns it. */
cudaError_t record_error(cudaError_t error);
/* A kernel fault poisons the context: every later call returns it until cudaDeviceReset. */
cudaError_t sticky_error();
void set_sticky_error(cudaError_t error);
void clear_errors();
/* First line of every API call: a sticky error wins over everything. */
#define EMU_RETURN_IF_STICKY()                                                                  \
    do {                                                                                        \
        if (emu::sticky_error() != cudaSuccess)                                                 \
            return emu::record_error(emu::sticky_error());                                      \
    } while (0)

/* ---- guarded memory (emu_memory.cpp) ---- */
enum class region_kind { device, freed_device, static_shared, dynamic_shared, fiber_stack };

/* A mapping [guard page | data pages | guard page].  The user block
 * [user, user + size) is placed as high as its alignment allows, so that its
 * end touches (or nearly touches) the upper guard page; the bytes around it
 * inside the data pages hold a canary that is checked after kernels. */
struct guarded_region {
    char *mapping;
    std::size_t mapping_size;
    char *data_begin;
    char *data_end;
    char *user;
    std::size_t size;
    region_kind kind;
    const char *label;
};
std::size_t page_size();
guarded_region *create_guarded_region(std::size_t size, std::size_t alignment, region_kind kind, const char *label);
void destroy_guarded_region(guarded_region *region);
/* Moves the user block inside an existing region (dynamic shared memory of a new launch). */
void place_user_block(guarded_region *region, std::size_t size, std::size_t alignment);
/* Region whose mapping (guards included) holds address, or null.  Safe in a signal handler. */
const guarded_region *find_region(const void *address);
/* Live device allocation whose user block holds address, or null. */
guarded_region *find_device_allocation(const void *address);
void fill_canary(guarded_region *region);
/* Offset from the user block of the first modified canary byte; false if intact. */
bool find_canary_damage(const guarded_region *region, std::ptrdiff_t *offset);
void poison(guarded_region *region);
void release_device_allocation(guarded_region *region);
void release_all_device_allocations();
std::size_t device_bytes_in_use();
/* Kernel-time checks: refill shared memory before a block, check canaries after. */
void prepare_shared_for_block(guarded_region *dynamic_region);
void check_shared_after_block(const guarded_region *dynamic_region);
void check_device_canaries_after_kernel();

/* ---- faults (emu_fault.cpp) ---- */
void install_fault_handlers();
void use_alternate_stack();
/* "thread (x,y,z) of block (x,y,z) in kernel k", or "" outside a kernel. */
void describe_current_thread(char *buffer, std::size_t size);
/* Prints "emulator: <error name>: <detail>" and exits with CUDA_EMU_FAULT_EXIT_CODE. */
[[noreturn]] void fatal_kernel_fault(cudaError_t error, const char *detail);
/* Prints the same kind of line, makes error sticky and lets the process go on. */
void report_kernel_error(cudaError_t error, const char *detail);

/* ---- kernel state (emu_launch.cpp) ---- */
extern const char *current_kernel_name;
std::uint64_t next_random();
unsigned long long configured_seed();
std::size_t dynamic_shared_limit();
void note_dynamic_shared_attribute(int bytes);

/* ---- streams (emu_api_stream.cpp) ---- */
bool is_valid_stream(cudaStream_t stream);

/* ---- stream capture (emu_api_graph.cpp) ---- */
bool stream_is_capturing(cudaStream_t stream);
/* Keeps the operation for the graph the stream is capturing. */
void capture_operation(cudaStream_t stream, std::function<void()> operation);
/* An event recorded on a capturing stream belongs to its capture (true);
 * recorded elsewhere, it no longer does (false). */
bool capture_event_record(cudaEvent_t event, cudaStream_t stream);
/* A stream that waits for an event of a capture joins the capture (true
 * when the event was one). */
bool capture_event_wait(cudaStream_t stream, cudaEvent_t event);
void forget_captured_event(cudaEvent_t event);

/* ---- device description (emu_api_device.cpp) ---- */
const cudaDeviceProp &emulated_device();

} // namespace emu

#endif
