/* Kernel launches: configuration checks with CUDA's error codes, then every
 * block in turn on the scheduler. */
#include "emu_block.h"
#include "emu_counters_internal.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace emu {

bool kernel_is_running = false;
const char *current_kernel_name = "";

namespace {
const unsigned int max_threads_per_block = 1024;
const std::size_t default_shared_per_block = 48 * 1024;
std::size_t opted_in_dynamic_shared = 0; /* largest cudaFuncAttributeMaxDynamicSharedMemorySize set */
std::uint64_t random_state = 0;
guarded_region *dynamic_region = nullptr;

std::vector<void (*)(void *)> &dynamic_pointer_setters()
{
    static std::vector<void (*)(void *)> setters;
    return setters;
}

bool configuration_is_valid(const launch_request &request)
{
    const dim3 b = request.block, g = request.grid;
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
        return false;
    if (b.x > 1024 || b.y > 1024 || b.z > 64)
        return false;
    if ((unsigned long long)b.x * b.y * b.z > max_threads_per_block)
        return false;
    if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return false;
    return request.dynamic_shared_bytes <= dynamic_shared_limit();
}

/* Dynamic shared memory: one guarded region, reused by every launch that
 * fits, with the requested bytes placed right below the upper guard page. */
void place_dynamic_shared(std::size_t bytes)
{
    if (!dynamic_region || (std::size_t)(dynamic_region->data_end - dynamic_region->data_begin) < bytes) {
        if (dynamic_region)
            destroy_guarded_region(dynamic_region);
        std::size_t capacity = bytes < default_shared_per_block ? default_shared_per_block : bytes;
        dynamic_region = create_guarded_region(capacity, 16, region_kind::dynamic_shared, "dynamic shared memory");
        if (!dynamic_region) {
            std::fprintf(stderr, "emulator: cannot map %zu bytes of dynamic shared memory\n", capacity);
            std::exit(CUDA_EMU_FAULT_EXIT_CODE);
        }
    }
    place_user_block(dynamic_region, bytes, 16);
    fill_canary(dynamic_region);
    for (void (*set_pointer)(void *) : dynamic_pointer_setters())
        set_pointer(dynamic_region->user);
}

/* Per-block arrays, sized for the largest block once. */
block_state &block_storage()
{
    static block_state block;
    static std::vector<thread_slot> threads(max_threads_per_block);
    static std::vector<unsigned int> ready(max_threads_per_block);
    block.threads = threads.data();
    block.ready = ready.data();
    return block;
}
} // namespace

unsigned long long configured_seed()
{
    static const unsigned long long seed = [] {
        const char *setting = std::getenv("CUDA_EMU_SEED");
        return setting && *setting ? std::strtoull(setting, nullptr, 0) : 12345ull;
    }();
    return seed;
}

/* splitmix64: small, fast and good enough to shuffle threads. */
std::uint64_t next_random()
{
    std::uint64_t z = (random_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::size_t dynamic_shared_limit()
{
    return opted_in_dynamic_shared > default_shared_per_block ? opted_in_dynamic_shared : default_shared_per_block;
}

void note_dynamic_shared_attribute(int bytes)
{
    if (bytes > 0 && (std::size_t)bytes > opted_in_dynamic_shared)
        opted_in_dynamic_shared = (std::size_t)bytes;
}

bool register_dynamic_shared(void (*set_pointer)(void *))
{
    dynamic_pointer_setters().push_back(set_pointer);
    if (dynamic_region)
        set_pointer(dynamic_region->user);
    return true;
}

void *current_dynamic_shared() { return dynamic_region ? dynamic_region->user : nullptr; }

void run_kernel(const launch_request &request, thread_body body, void *context)
{
    static bool initialised = false;
    if (!initialised) {
        random_state = configured_seed();
        initialised = true;
    }
    use_alternate_stack();
    if (sticky_error() != cudaSuccess) {
        record_error(sticky_error());
        return;
    }
    if (kernel_is_running) { /* a launch from device code: dynamic parallelism */
        record_error(cudaErrorNotSupported);
        return;
    }
    if (!configuration_is_valid(request)) {
        record_error(cudaErrorInvalidConfiguration);
        return;
    }
    if (!is_valid_stream(request.stream)) {
        record_error(cudaErrorInvalidResourceHandle);
        return;
    }
    place_dynamic_shared(request.dynamic_shared_bytes);
    current_grid_dim = request.grid;
    current_block_dim = request.block;
    current_kernel_name = request.kernel_name;
    block_state &block = block_storage();
    block.body = body;
    block.body_context = context;
    active_block = &block;
    kernel_is_running = true;
    counters_launch(request.grid, request.block);
    bool completed = true;
    for (unsigned int z = 0; z < request.grid.z && completed; ++z)
        for (unsigned int y = 0; y < request.grid.y && completed; ++y)
            for (unsigned int x = 0; x < request.grid.x && completed && counters_block_wanted(); ++x) {
                current_block_index = uint3{x, y, z};
                prepare_shared_for_block(dynamic_region);
                counters_block_begin();
                completed = run_block(block);
                if (completed) {
                    check_shared_after_block(dynamic_region);
                    counters_block_end(block.thread_count);
                }
            }
    kernel_is_running = false;
    active_block = nullptr;
    if (completed)
        check_device_canaries_after_kernel();
}
} // namespace emu
