/* Warp primitives as rendezvous of fibers.
 *
 * A lane entering a primitive joins the pending group of its warp with the
 * same mask (or opens one).  The group completes when every lane of the mask
 * that has not exited has joined; then each lane gets what the hardware
 * would give it, computed from the values the lanes brought. */
#include "emu_block.h"

#include <cstdio>

namespace emu {
namespace {
const char *const op_names[] = {"__syncwarp",     "__shfl_sync",     "__shfl_up_sync",    "__shfl_down_sync",
                                "__shfl_xor_sync", "__ballot_sync",   "__all_sync",        "__any_sync",
                                "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                                "__reduce_or_sync", "__reduce_xor_sync", "__match_any_sync"};

thread_slot &lane_slot(block_state &block, unsigned int warp, unsigned int lane)
{
    return block.threads[warp * 32 + lane];
}

/* Source lane of a shuffle, following the PTX definition of shfl.sync: the
 * width splits the warp into segments; a source outside the lane's segment
 * (or below it, for up) yields the lane's own value. */
int shuffle_source(warp_op op, int lane, int argument, int width)
{
    if (width < 1 || width > 32 || (width & (width - 1)) != 0)
        width = 32;
    const int segment_mask = 32 - width;
    const int min_lane = lane & segment_mask;
    const int max_lane = op == warp_op::shfl_up ? min_lane : (min_lane | (31 & ~segment_mask));
    int source = lane;
    bool in_range = true;
    switch (op) {
    case warp_op::shfl_idx:
        source = min_lane | (argument & 31 & ~segment_mask);
        in_range = source <= max_lane;
        break;
    case warp_op::shfl_up:
        source = lane - argument;
        in_range = source >= max_lane;
        break;
    case warp_op::shfl_down:
        source = lane + argument;
        in_range = source <= max_lane;
        break;
    default: /* shfl_xor */
        source = lane ^ (argument & 31);
        in_range = source <= max_lane;
        break;
    }
    return in_range ? source : lane;
}

std::uint64_t reduce(warp_op op, block_state &block, unsigned int warp, unsigned int lanes)
{
    std::uint64_t result = 0;
    bool first = true;
    for (unsigned int lane = 0; lane < 32; ++lane) {
        if (!(lanes & (1u << lane)))
            continue;
        const warp_request &r = lane_slot(block, warp, lane).request;
        std::uint64_t v = r.value & 0xffffffffu;
        if (first) {
            result = v;
            first = false;
            continue;
        }
        switch (op) {
        case warp_op::reduce_add: result = (result + v) & 0xffffffffu; break;
        case warp_op::reduce_and: result &= v; break;
        case warp_op::reduce_or: result |= v; break;
        case warp_op::reduce_xor: result ^= v; break;
        case warp_op::reduce_min:
            if (r.is_signed ? (int)v < (int)result : v < result)
                result = v;
            break;
        default: /* reduce_max */
            if (r.is_signed ? (int)v > (int)result : v > result)
                result = v;
            break;
        }
    }
    return result;
}

std::uint64_t lane_result(block_state &block, unsigned int warp, unsigned int lane, const warp_group &group)
{
    const warp_request &mine = lane_slot(block, warp, lane).request;
    unsigned int ballot = 0;
    switch (group.op) {
    case warp_op::sync:
        return 0;
    case warp_op::shfl_idx:
    case warp_op::shfl_up:
    case warp_op::shfl_down:
    case warp_op::shfl_xor: {
        int source = shuffle_source(group.op, (int)lane, mine.lane_argument, mine.width);
        /* Reading a lane that is in the warp but not taking part is
         * undefined; give all ones (NaN, -1), like unwritten memory, so a
         * result that uses it comes out wrong. (A lane that does not exist
         * or has exited is reported before this: gone_lane_read.) */
        if (!(group.arrived & (1u << source)))
            return ~0ull;
        return lane_slot(block, warp, (unsigned int)source).request.value;
    }
    case warp_op::match_any: {
        unsigned int equal = 0;
        for (unsigned int other = 0; other < 32; ++other)
            if ((group.arrived & (1u << other)) && lane_slot(block, warp, other).request.value == mine.value)
                equal |= 1u << other;
        return equal;
    }
    default:
        break;
    }
    for (unsigned int other = 0; other < 32; ++other)
        if ((group.arrived & (1u << other)) && lane_slot(block, warp, other).request.value != 0)
            ballot |= 1u << other;
    switch (group.op) {
    case warp_op::ballot: return ballot;
    case warp_op::all: return ballot == group.arrived;
    case warp_op::any: return ballot != 0;
    default: return reduce(group.op, block, warp, group.arrived);
    }
}

bool is_complete(const warp_state &warp, const warp_group &group)
{
    return (group.mask & warp.live_mask & ~group.arrived) == 0;
}

bool is_shuffle(warp_op op)
{
    return op == warp_op::shfl_idx || op == warp_op::shfl_up || op == warp_op::shfl_down ||
           op == warp_op::shfl_xor;
}

/* A shuffle that reads a lane which does not exist (past the end of the
 * block) or has exited gets a value the hardware does not define: a full
 * warp's shuffle in a block of 16 threads, or after some lanes returned.
 * That is a bug on the GPU even when it happens to give the right answer,
 * so it is reported as a fault naming both lanes. */
void gone_lane_read(block_state &block, unsigned int warp_index, const warp_group &group)
{
    if (!is_shuffle(group.op))
        return;
    const warp_state &warp = block.warps[warp_index];
    for (unsigned int lane = 0; lane < 32; ++lane) {
        if (!(group.arrived & (1u << lane)))
            continue;
        const warp_request &mine = lane_slot(block, warp_index, lane).request;
        int source = shuffle_source(group.op, (int)lane, mine.lane_argument, mine.width);
        if ((group.arrived & (1u << source)) || (warp.live_mask & (1u << source)))
            continue;
        bool exists = warp_index * 32 + (unsigned int)source < block.thread_count;
        char detail[512];
        std::snprintf(detail, sizeof detail,
                      "%s at %s:%d: lane %u of warp %u reads lane %d, which %s: the value it gets is "
                      "undefined (leave that lane out of the mask and do not read from it)",
                      warp_op_name(group.op), mine.file, mine.line, lane, warp_index, source,
                      exists ? "has already exited" : "does not exist (the block has fewer threads)");
        /* The report names the reading lane's thread, not the lane whose
         * arrival or exit completed the shuffle. */
        current_thread_index = lane_slot(block, warp_index, lane).index;
        abort_kernel_from_thread(cudaErrorLaunchFailure, detail);
    }
}

/* Hands every lane its result, wakes the waiting ones and drops the group. */
void complete(block_state &block, unsigned int warp_index, int group_index)
{
    warp_state &warp = block.warps[warp_index];
    const warp_group group = warp.groups[group_index];
    gone_lane_read(block, warp_index, group);
    for (unsigned int lane = 0; lane < 32; ++lane)
        if (group.arrived & (1u << lane))
            lane_slot(block, warp_index, lane).warp_result = lane_result(block, warp_index, lane, group);
    for (unsigned int lane = 0; lane < 32; ++lane) {
        thread_slot &thread = lane_slot(block, warp_index, lane);
        if ((group.arrived & (1u << lane)) && thread.state == thread_state::at_warp_op)
            make_ready(block, thread);
    }
    warp.groups[group_index] = warp.groups[--warp.group_count];
}
} // namespace

const char *warp_op_name(warp_op op) { return op_names[(int)op]; }

std::uint64_t warp_exchange(const warp_request &request)
{
    block_state *block = active_block;
    if (!block) /* host code: a warp of one lane */
        return request.op == warp_op::ballot ? (request.value != 0) : request.value;
    thread_slot &thread = *block->current;
    warp_state &warp = block->warps[thread.warp];
    const unsigned int bit = 1u << thread.lane;
    char detail[512];
    if (!(request.mask & bit)) {
        std::snprintf(detail, sizeof detail,
                      "%s at %s:%d called by lane %u with mask 0x%08x, which does not include the lane itself",
                      warp_op_name(request.op), request.file, request.line, thread.lane, request.mask);
        abort_kernel_from_thread(cudaErrorLaunchFailure, detail);
    }
    int group_index = -1;
    for (int g = 0; g < warp.group_count; ++g)
        if (warp.groups[g].mask == request.mask)
            group_index = g;
    if (group_index >= 0 && warp.groups[group_index].op != request.op) {
        const warp_group &group = warp.groups[group_index];
        const thread_slot *other = nullptr;
        for (unsigned int lane = 0; lane < 32 && !other; ++lane)
            if (group.arrived & (1u << lane))
                other = &lane_slot(*block, thread.warp, lane);
        std::snprintf(detail, sizeof detail,
                      "lanes of warp %u meet at different warp primitives with mask 0x%08x: %s at %s:%d and %s at "
                      "%s:%d",
                      thread.warp, request.mask, warp_op_name(group.op), other->wait_file, other->wait_line,
                      warp_op_name(request.op), request.file, request.line);
        abort_kernel_from_thread(cudaErrorLaunchFailure, detail);
    }
    if (group_index < 0) {
        group_index = warp.group_count++;
        warp.groups[group_index] = warp_group{request.mask, 0, request.op};
    }
    thread.request = request;
    thread.wait_file = request.file;
    thread.wait_line = request.line;
    warp.groups[group_index].arrived |= bit;
    if (is_complete(warp, warp.groups[group_index])) {
        complete(*block, thread.warp, group_index);
        return thread.warp_result;
    }
    thread.state = thread_state::at_warp_op;
    suspend_current_thread();
    return thread.warp_result;
}

unsigned int warp_active_mask()
{
    block_state *block = active_block;
    if (!block)
        return 1;
    return block->warps[block->current->warp].live_mask;
}

void lane_exited(block_state &block, thread_slot &thread)
{
    warp_state &warp = block.warps[thread.warp];
    warp.live_mask &= ~(1u << thread.lane);
    for (int g = warp.group_count - 1; g >= 0; --g)
        if (is_complete(warp, warp.groups[g]))
            complete(block, thread.warp, g);
}
} // namespace emu
