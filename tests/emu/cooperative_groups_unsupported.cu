// Cooperative groups the CPU emulation lacks. Compiled once per USES_...
// macro by cooperative_groups.sh: each use must fail to compile with the
// CUDA_EMU_LACKS_ mark that grader/build.c (EMULATION_LACKS) turns into
// "not supported yet; grade on a GPU". With no macro the file compiles
// (the headers that declare them included), so each failure is the
// feature's own.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>
#include <utility>

namespace cg = cooperative_groups;

__global__ void sums(const float *in, float *partial, float *out)
{
    cg::thread_block block = cg::this_thread_block();
    partial[blockIdx.x * blockDim.x + block.thread_rank()] = in[block.thread_rank()];
#ifdef USES_GRID_SYNC
    cg::grid_group grid = cg::this_grid();
    grid.sync();
    if (grid.thread_rank() == 0)
        *out = partial[0] + partial[1];
#endif
#ifdef USES_COALESCED_THREADS
    if (in[0] > 0.0f) {
        cg::coalesced_group active = cg::coalesced_threads();
        out[active.thread_rank()] = active.shfl(in[0], 0);
    }
#endif
#ifdef USES_LARGE_TILE
    cg::thread_block_tile<64> pair_of_warps = cg::tiled_partition<64>(block);
    pair_of_warps.sync();
#endif
#ifdef USES_SPLIT_BARRIER
    auto token = block.barrier_arrive();
    block.barrier_wait(std::move(token));
#endif
#ifdef USES_SCAN
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    out[block.thread_rank()] = cg::inclusive_scan(warp, in[block.thread_rank()], cg::plus<float>());
#endif
#ifdef USES_MEMCPY_ASYNC
    __shared__ float staged[32];
    cg::memcpy_async(block, staged, in, sizeof staged);
    cg::wait(block);
    out[block.thread_rank()] = staged[31 - block.thread_rank()];
#endif
#ifdef USES_CLUSTER
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    out[cluster.block_rank()] = 0.0f;
#endif
    (void)out;
}

int main()
{
    float *in, *partial, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&partial, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
#ifdef USES_COOPERATIVE_LAUNCH
    void *args[] = {&in, &partial, &out};
    cudaLaunchCooperativeKernel((const void *)sums, 2, 32, args, 0, 0);
#else
    sums<<<2, 32>>>(in, partial, out);
#endif
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
