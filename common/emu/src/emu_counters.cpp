/* Memory counters (include/emu/emu_counters.h): requests, sectors and
 * shared-memory passes, the way the GPU counts them.
 *
 * The threads of a block run one after another on fibers, so the 32 lanes
 * of a warp do not reach an instruction together. Each access is therefore
 * filed under (warp, the instruction's address, how many times this thread
 * has executed that instruction): the lanes' n-th execution of one load is
 * one warp request, whatever order the lanes ran in. When the block ends,
 * every request is reduced to its sectors or passes and added to its
 * kernel's counts.
 *
 * A vector (a float4 copied whole) is one access of its full size, as the
 * GPU's one vector instruction: emu_vector_types.h copies it in one move.
 * Scalar accesses are never joined, even neighbouring ones: nvcc issues
 * them one by one unless it can prove the pair aligned (s[t] and s[t + 1]
 * in lab 04's reductions are two shared loads on an H100 or H200, and
 * Nsight Compute counts both). */
/* The standard headers first: the emulation's keyword macros (__noinline__
 * and friends) would break newer libstdc++'s own attributes. */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "emu_block.h"
#include "emu_counters_internal.h"

namespace emu {

bool counting = false;

namespace {
unsigned long long block_limit = 0;
unsigned long long blocks_run_this_launch = 0;
unsigned long long access_limit = 0; /* per launch; 0: none */
unsigned long long accesses_this_launch = 0;

std::map<std::string, kernel_count> &kernels()
{
    static std::map<std::string, kernel_count> all;
    return all;
}

std::vector<launch_record> &launches()
{
    static std::vector<launch_record> all;
    return all;
}

struct request_key {
    std::uint64_t pc;
    std::uint32_t occurrence;
    std::uint16_t warp;
    std::uint8_t store, shared;
    bool operator==(const request_key &o) const
    {
        return pc == o.pc && occurrence == o.occurrence && warp == o.warp && store == o.store &&
               shared == o.shared;
    }
};
struct request_hash {
    std::size_t operator()(const request_key &k) const
    {
        return std::hash<std::uint64_t>()(k.pc * 0x9e3779b97f4a7c15ull ^ ((std::uint64_t)k.occurrence << 20) ^
                                          ((std::uint64_t)k.warp << 4) ^ k.store ^ (k.shared << 1));
    }
};

/* The block being run: every request's units (global: sector numbers;
 * shared: word numbers) and the bytes its lanes asked for (each
 * [start, end), lanes that share bytes counted once), and each thread's count of each
 * instruction. */
struct request_units {
    std::vector<std::uint64_t> units;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> bytes;
};

/* Bytes covered by the ranges, each once. */
unsigned long long distinct_bytes(std::vector<std::pair<std::uint64_t, std::uint64_t>> &ranges)
{
    std::sort(ranges.begin(), ranges.end());
    unsigned long long total = 0;
    std::uint64_t reached = 0;
    for (const auto &r : ranges) {
        std::uint64_t from = r.first > reached ? r.first : reached;
        if (r.second > from) total += r.second - from;
        if (r.second > reached) reached = r.second;
    }
    return total;
}
std::unordered_map<request_key, request_units, request_hash> requests;
std::unordered_map<std::uint64_t, std::uint32_t> executed; /* (thread, pc) -> times */
unsigned long long block_barriers = 0;

kernel_count &current_kernel() { return kernels()[current_kernel_name]; }

void add_request(const request_key &key, request_units &request, kernel_count &k)
{
    std::vector<std::uint64_t> &units = request.units;
    std::sort(units.begin(), units.end());
    units.erase(std::unique(units.begin(), units.end()), units.end());
    memory_count &m = key.shared ? (key.store ? k.shared_store : k.shared_load)
                                 : (key.store ? k.global_store : k.global_load);
    m.requests++;
    m.bytes += distinct_bytes(request.bytes);
    if (!key.shared) {
        m.sectors += units.size();
        return;
    }
    unsigned int per_bank[32] = {0};
    unsigned int passes = 1;
    for (std::uint64_t word : units) {
        unsigned int n = ++per_bank[word % 32];
        if (n > passes) passes = n;
    }
    m.wavefronts += passes;
}
} // namespace

void counters_start(unsigned long long max_blocks)
{
    counting = true;
    block_limit = max_blocks;
    kernels().clear();
    launches().clear();
}

void counters_stop()
{
    counting = false;
    block_limit = 0;
    access_limit = 0;
}

void counters_limit_accesses(unsigned long long max_accesses)
{
    access_limit = max_accesses;
}

int counters_kernel_count() { return (int)kernels().size(); }

bool counters_kernel_at(int i, char *name, unsigned long size, kernel_count *out)
{
    if (i < 0 || i >= (int)kernels().size())
        return false;
    auto entry = std::next(kernels().begin(), i);
    std::snprintf(name, size, "%s", entry->first.c_str());
    *out = entry->second;
    return true;
}

int counters_launch_count() { return (int)launches().size(); }

launch_record counters_launch_at(int i)
{
    launch_record none{};
    return i >= 0 && i < (int)launches().size() ? launches()[(std::size_t)i] : none;
}

bool counters_of(const char *name, kernel_count *out)
{
    std::memset(out, 0, sizeof *out);
    bool found = false;
    for (const auto &entry : kernels()) {
        if (name && entry.first.find(name) == std::string::npos)
            continue;
        const kernel_count &k = entry.second;
        found = true;
        out->launches += k.launches;
        out->blocks_launched += k.blocks_launched;
        out->blocks_run += k.blocks_run;
        out->threads_run += k.threads_run;
        out->barriers += k.barriers;
        std::memcpy(out->grid, k.grid, sizeof k.grid);
        std::memcpy(out->block, k.block, sizeof k.block);
        memory_count *to[4] = {&out->global_load, &out->global_store, &out->shared_load, &out->shared_store};
        const memory_count *from[4] = {&k.global_load, &k.global_store, &k.shared_load, &k.shared_store};
        for (int i = 0; i < 4; ++i) {
            to[i]->requests += from[i]->requests;
            to[i]->bytes += from[i]->bytes;
            to[i]->sectors += from[i]->sectors;
            to[i]->wavefronts += from[i]->wavefronts;
        }
    }
    return found;
}

void counters_launch(dim3 grid, dim3 block)
{
    if (!counting)
        return;
    kernel_count &k = current_kernel();
    k.launches++;
    k.blocks_launched += (unsigned long long)grid.x * grid.y * grid.z;
    k.grid[0] = grid.x, k.grid[1] = grid.y, k.grid[2] = grid.z;
    k.block[0] = block.x, k.block[1] = block.y, k.block[2] = block.z;
    launch_record r{};
    std::snprintf(r.kernel, sizeof r.kernel, "%s", current_kernel_name);
    std::memcpy(r.grid, k.grid, sizeof r.grid);
    std::memcpy(r.block, k.block, sizeof r.block);
    launches().push_back(r);
    blocks_run_this_launch = 0;
    accesses_this_launch = 0;
}

bool counters_block_wanted()
{
    return !counting || ((block_limit == 0 || blocks_run_this_launch < block_limit) &&
                         (access_limit == 0 || accesses_this_launch < access_limit));
}

void counters_block_begin()
{
    if (!counting)
        return;
    requests.clear();
    executed.clear();
    block_barriers = 0;
}

void counters_barrier()
{
    block_barriers++;
}

void counters_block_end(unsigned int threads)
{
    if (!counting)
        return;
    kernel_count &k = current_kernel();
    blocks_run_this_launch++;
    k.blocks_run++;
    k.threads_run += threads;
    k.barriers += block_barriers;
    for (auto &entry : requests)
        add_request(entry.first, entry.second, k);
    requests.clear();
    executed.clear();
}

void counters_access(const void *address, std::size_t size, bool store, std::uint64_t pc)
{
    block_state *block = active_block;
    if (!block || !block->current || size == 0)
        return;
    const guarded_region *region = find_region(address);
    if (!region)
        return;
    bool shared = region->kind == region_kind::static_shared || region->kind == region_kind::dynamic_shared;
    if (!shared && region->kind != region_kind::device)
        return;
    if (access_limit && accesses_this_launch >= access_limit)
        return; /* the block runs on, no longer counted */
    accesses_this_launch++;
    std::uint64_t thread = (std::uint64_t)(block->current - block->threads);
    std::uint64_t first = (std::uint64_t)address, last = first + size - 1;
    std::uint32_t occurrence = executed[thread << 48 ^ pc]++;
    request_key key{pc, occurrence, (std::uint16_t)block->current->warp, store, shared};
    request_units &request = requests[key];
    request.bytes.emplace_back(first, first + size);
    unsigned int unit = shared ? 4 : 32;
    for (std::uint64_t u = first / unit; u <= last / unit; ++u)
        request.units.push_back(u);
}

} // namespace emu
