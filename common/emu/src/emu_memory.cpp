/* Guarded memory: device allocations, shared memory and fiber stacks all
 * live in mappings fenced by PROT_NONE pages, so that an access just past
 * either end faults and the fault handler can say whose memory it was. */
#include "emu_internal.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <vector>

namespace emu {
namespace {
const unsigned char canary_byte = 0xCA;
/* Fresh device and shared memory reads as all-ones bytes: NaN as a float,
 * -1 as an integer, so reading memory nobody wrote shows up in results. */
const unsigned char garbage_byte = 0xFF;
/* Freed device allocations stay mapped PROT_NONE for a while so that a
 * use after cudaFree faults instead of reading reused memory. */
const std::size_t freed_regions_kept = 4096;
const std::size_t device_guard_bytes = 64 * 1024;

std::map<std::uintptr_t, guarded_region *> &regions_by_address()
{
    static std::map<std::uintptr_t, guarded_region *> regions;
    return regions;
}
std::vector<guarded_region *> &static_shared_regions()
{
    static std::vector<guarded_region *> regions;
    return regions;
}
std::deque<guarded_region *> &freed_regions()
{
    static std::deque<guarded_region *> regions;
    return regions;
}
std::size_t bytes_in_use = 0;

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
} // namespace

std::size_t page_size()
{
    static const std::size_t size = (std::size_t)sysconf(_SC_PAGESIZE);
    return size;
}

void place_user_block(guarded_region *region, std::size_t size, std::size_t alignment)
{
    std::uintptr_t end = (std::uintptr_t)region->data_end;
    region->user = (char *)((end - size) & ~(std::uintptr_t)(alignment - 1));
    region->size = size;
}

guarded_region *create_guarded_region(std::size_t size, std::size_t alignment, region_kind kind, const char *label)
{
    const std::size_t page = page_size();
    const std::size_t data_bytes = round_up(size, page);
    /* Device allocations get wide guards (address space is free) so that an
     * index far past the end still faults instead of landing in a
     * neighbour; the many fiber stacks and shared variables get one page. */
    const std::size_t guard = kind == region_kind::device ? device_guard_bytes : page;
    const std::size_t total = data_bytes + 2 * guard;
    void *mapping = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED)
        return nullptr;
    char *data_begin = (char *)mapping + guard;
    if (data_bytes != 0 && mprotect(data_begin, data_bytes, PROT_READ | PROT_WRITE) != 0) {
        munmap(mapping, total);
        return nullptr;
    }
    guarded_region *region = new guarded_region{(char *)mapping, total, data_begin, data_begin + data_bytes,
                                                nullptr, 0, kind, label};
    place_user_block(region, size, alignment);
    regions_by_address()[(std::uintptr_t)mapping] = region;
    if (kind == region_kind::static_shared)
        static_shared_regions().push_back(region);
    if (kind == region_kind::device)
        bytes_in_use += size;
    return region;
}

void destroy_guarded_region(guarded_region *region)
{
    regions_by_address().erase((std::uintptr_t)region->mapping);
    munmap(region->mapping, region->mapping_size);
    delete region;
}

const guarded_region *find_region(const void *address)
{
    const std::map<std::uintptr_t, guarded_region *> &regions = regions_by_address();
    auto above = regions.upper_bound((std::uintptr_t)address);
    if (above == regions.begin())
        return nullptr;
    const guarded_region *region = std::prev(above)->second;
    const char *p = (const char *)address;
    return p < region->mapping + region->mapping_size ? region : nullptr;
}

guarded_region *find_device_allocation(const void *address)
{
    guarded_region *region = const_cast<guarded_region *>(find_region(address));
    if (!region || region->kind != region_kind::device)
        return nullptr;
    const char *p = (const char *)address;
    if (p < region->user || p > region->user + region->size)
        return nullptr;
    return region;
}

void fill_canary(guarded_region *region)
{
    std::memset(region->data_begin, canary_byte, (std::size_t)(region->user - region->data_begin));
    char *tail = region->user + region->size;
    std::memset(tail, canary_byte, (std::size_t)(region->data_end - tail));
}

bool find_canary_damage(const guarded_region *region, std::ptrdiff_t *offset)
{
    /* Shared memory is checked after every block: look only at the bytes
     * just below it.  Device allocations are checked once per kernel. */
    const std::ptrdiff_t window = region->kind == region_kind::device ? region->user - region->data_begin : 256;
    const char *low = region->user - region->data_begin > window ? region->user - window : region->data_begin;
    for (const char *p = low; p < region->user; ++p)
        if ((unsigned char)*p != canary_byte) {
            *offset = p - region->user;
            return true;
        }
    for (const char *p = region->user + region->size; p < region->data_end; ++p)
        if ((unsigned char)*p != canary_byte) {
            *offset = p - region->user;
            return true;
        }
    return false;
}

void poison(guarded_region *region) { std::memset(region->user, garbage_byte, region->size); }

void release_device_allocation(guarded_region *region)
{
    bytes_in_use -= region->size;
    /* Replace the pages by fresh inaccessible ones: the memory goes back to
     * the system but the addresses stay reserved and fault when touched. */
    mmap(region->mapping, region->mapping_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
         -1, 0);
    region->kind = region_kind::freed_device;
    std::deque<guarded_region *> &freed = freed_regions();
    freed.push_back(region);
    if (freed.size() > freed_regions_kept) {
        destroy_guarded_region(freed.front());
        freed.pop_front();
    }
}

void release_all_device_allocations()
{
    std::vector<guarded_region *> live;
    for (auto &entry : regions_by_address())
        if (entry.second->kind == region_kind::device)
            live.push_back(entry.second);
    for (guarded_region *region : live)
        release_device_allocation(region);
}

std::size_t device_bytes_in_use() { return bytes_in_use; }

void prepare_shared_for_block(guarded_region *dynamic_region)
{
    for (guarded_region *region : static_shared_regions())
        poison(region);
    if (dynamic_region)
        poison(dynamic_region);
}

namespace {
[[noreturn]] void report_damage(const guarded_region *region, std::ptrdiff_t offset, const char *when)
{
    char what[160];
    if (region->kind == region_kind::static_shared)
        std::snprintf(what, sizeof what, "the %zu-byte __shared__ variable '%s'", region->size, region->label);
    else if (region->kind == region_kind::dynamic_shared)
        std::snprintf(what, sizeof what, "the %zu bytes of dynamic shared memory (extern __shared__)", region->size);
    else
        std::snprintf(what, sizeof what, "a %zu-byte device allocation", region->size);
    char where[96];
    if (offset < 0)
        std::snprintf(where, sizeof where, "%td bytes before the start", -offset);
    else
        std::snprintf(where, sizeof where, "%td bytes past the end", offset - (std::ptrdiff_t)region->size);
    char detail[512];
    std::snprintf(detail, sizeof detail,
                  "out-of-bounds write: memory %s of %s was overwritten by kernel %s (found %s; the emulator "
                  "notices writes this close to an allocation only afterwards, so it cannot name the thread)",
                  where, what, current_kernel_name, when);
    fatal_kernel_fault(cudaErrorIllegalAddress, detail);
}
} // namespace

void check_shared_after_block(const guarded_region *dynamic_region)
{
    std::ptrdiff_t offset;
    for (const guarded_region *region : static_shared_regions())
        if (find_canary_damage(region, &offset))
            report_damage(region, offset, "at the end of the block");
    if (dynamic_region && find_canary_damage(dynamic_region, &offset))
        report_damage(dynamic_region, offset, "at the end of the block");
}

void check_device_canaries_after_kernel()
{
    std::ptrdiff_t offset;
    for (auto &entry : regions_by_address())
        if (entry.second->kind == region_kind::device && find_canary_damage(entry.second, &offset))
            report_damage(entry.second, offset, "after the kernel");
}

void *allocate_static_shared(std::size_t size, std::size_t alignment, const char *name)
{
    /* 32-byte alignment at least, so that vector loads from shared arrays
     * behave as on the GPU and a WMMA tile at the start of one is aligned
     * as load_matrix_sync requires (the rewriter drops __align__, which a
     * kernel would write for that on the GPU); any slack above the array
     * holds a canary. */
    guarded_region *region =
        create_guarded_region(size, alignment < 32 ? 32 : alignment, region_kind::static_shared, name);
    if (!region) {
        std::fprintf(stderr, "emulator: cannot map %zu bytes for __shared__ variable '%s'\n", size, name);
        std::exit(CUDA_EMU_FAULT_EXIT_CODE);
    }
    fill_canary(region);
    poison(region);
    return region->user;
}
} // namespace emu
