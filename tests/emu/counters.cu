// counters.cu - the emulation's memory counters (emu/emu_counters.h)
// against what the GPU counts for access patterns whose answer is known from
// the hardware's rules: 32-byte sectors per global request, passes per
// shared request (the most distinct words one of the 32 banks must give),
// blocks and barriers. Built with -fsanitize=thread (tests/emu/run.sh), whose
// hooks the emulation defines.
#include "self_test.h"

#include <emu/emu_counters.h>

__global__ void consecutive_floats(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void floats_a_row_apart(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x * 1024]; }
__global__ void consecutive_float4s(const float4 *in, float4 *out) { out[threadIdx.x] = in[threadIdx.x]; }
/* The CPU copies a float4 as four floats; the GPU in one request. */
__global__ void float4_copies(const float4 *in, float4 *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void one_float_for_all(const float *in, float *out) { out[threadIdx.x] = in[0]; }
__global__ void half_a_warp(const float *in, float *out)
{
    if (threadIdx.x < 16) out[threadIdx.x] = in[threadIdx.x];
}
__global__ void four_loads_each(const float *in, float *out)
{
    float s = 0;
    for (int j = 0; j < 4; j++) s += in[j * 32 + threadIdx.x];
    out[threadIdx.x] = s;
}
template <int W> __global__ void shared_column(float *out)
{
    __shared__ float tile[32][W];
    tile[threadIdx.x][0] = (float)threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = tile[threadIdx.x][0];
}
__global__ void shared_broadcast(float *out)
{
    __shared__ float word;
    if (threadIdx.x == 0) word = 1.0f;
    __syncwarp();
    out[threadIdx.x] = word;
}
__global__ void three_barriers(float *out)
{
    __syncthreads();
    __syncthreads();
    __syncthreads();
    out[blockIdx.x] = 0;
}

static emu::kernel_count counted(const char *name)
{
    emu::kernel_count k;
    if (!emu::counters_of(name, &k)) std::printf("(no launch of %s)\n", name);
    return k;
}

static double per_request(const emu::memory_count &m, bool shared)
{
    return m.requests ? (double)(shared ? m.wavefronts : m.sectors) / (double)m.requests : -1;
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 << 20);
    cudaMalloc(&out, 1 << 20);
    emu::counters_start(0);
    consecutive_floats<<<1, 32>>>(in, out);
    floats_a_row_apart<<<1, 32>>>(in, out);
    consecutive_float4s<<<1, 32>>>((const float4 *)in, (float4 *)out);
    float4_copies<<<1, 32>>>((const float4 *)in, (float4 *)out);
    one_float_for_all<<<1, 32>>>(in, out);
    half_a_warp<<<1, 32>>>(in, out);
    four_loads_each<<<1, 64>>>(in, out);
    shared_column<32><<<1, 32>>>(out);
    shared_column<33><<<1, 32>>>(out);
    shared_broadcast<<<1, 32>>>(out);
    three_barriers<<<5, 64>>>(out);
    cudaDeviceSynchronize();

    double got;
    emu::kernel_count k;
    got = per_request(counted("consecutive_floats").global_load, false);
    report("counters_32_consecutive_floats_touch_4_sectors", got == 4, "%g", got);
    got = per_request(counted("floats_a_row_apart").global_load, false);
    report("counters_32_floats_a_row_apart_touch_32_sectors", got == 32, "%g", got);
    got = per_request(counted("consecutive_float4s").global_load, false);
    report("counters_32_consecutive_float4s_touch_16_sectors", got == 16, "%g", got);
    k = counted("float4_copies");
    report("counters_a_float4_copy_is_one_request_of_16_sectors",
           k.global_load.requests == 1 && k.global_load.sectors == 16 && k.global_load.bytes == 512 &&
               k.global_store.requests == 1 && k.global_store.sectors == 16,
           "%llu load requests of %llu sectors and %llu bytes, %llu store requests of %llu sectors",
           k.global_load.requests, k.global_load.sectors, k.global_load.bytes, k.global_store.requests,
           k.global_store.sectors);
    got = per_request(counted("one_float_for_all").global_load, false);
    report("counters_one_address_for_the_warp_is_1_sector", got == 1, "%g", got);
    got = per_request(counted("half_a_warp").global_load, false);
    report("counters_16_active_lanes_touch_2_sectors", got == 2, "%g", got);
    k = counted("four_loads_each");
    report("counters_a_request_per_warp_and_load", k.global_load.requests == 8 && k.global_store.requests == 2,
           "%llu load and %llu store requests, wanted 8 and 2", k.global_load.requests, k.global_store.requests);
    got = per_request(counted("shared_column<32>").shared_load, true);
    report("counters_a_column_of_float_32_by_32_takes_32_passes", got == 32, "%g", got);
    got = per_request(counted("shared_column<33>").shared_load, true);
    report("counters_a_column_of_float_32_by_33_takes_1_pass", got == 1, "%g", got);
    got = per_request(counted("shared_broadcast").shared_load, true);
    report("counters_one_shared_word_for_the_warp_takes_1_pass", got == 1, "%g", got);
    k = counted("three_barriers");
    report("counters_barriers_per_block_add_up", k.barriers == 15 && k.blocks_run == 5, "%llu barriers in %llu blocks",
           k.barriers, k.blocks_run);

    emu::counters_start(2);
    three_barriers<<<10, 64>>>(out);
    cudaDeviceSynchronize();
    k = counted("three_barriers");
    report("counters_a_block_limit_runs_that_many", k.blocks_run == 2 && k.blocks_launched == 10,
           "%llu of %llu blocks run", k.blocks_run, k.blocks_launched);
    return failures ? 1 : 0;
}
