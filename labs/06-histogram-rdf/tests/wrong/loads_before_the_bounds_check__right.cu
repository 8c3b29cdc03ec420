/* WRONG ON PURPOSE: every count is right, but each thread loads its own
 * particle before it checks that the particle exists ("load early, the
 * latency hides behind the index arithmetic"). In the last particle tile
 * the threads past n read up to a tile of float4s past the end of d_pos.
 * Reading past a buffer is undefined behaviour; under compute-sanitizer
 * the grader gives every buffer an allocation of exactly its size, so
 * memcheck reports the read with the kernel, the thread and the address,
 * and the CPU emulation's fence after each allocation stops the kernel too.
 * Must first fail the right stage.
 */
#include <cuda_runtime.h>

#include "cuda_check.h"

#define TILE 128 /* particles and offsets per tile */

__global__ void __launch_bounds__(TILE)
rdf_persistent(const float4 *__restrict__ pos, int n, int bins, float dr, unsigned int *hist)
{
    extern __shared__ unsigned int sub[];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) sub[b] = 0;
    __syncthreads();

    int half = n / 2;
    int particle_tiles = (n + TILE - 1) / TILE, offset_tiles = (half + TILE - 1) / TILE;
    long long tiles = (long long)particle_tiles * offset_tiles;
    for (long long w = blockIdx.x; w < tiles; w += gridDim.x) {
        int i = (int)(w % particle_tiles) * TILE + threadIdx.x;
        int d0 = 1 + (int)(w / particle_tiles) * TILE;
        /* volatile: the load stays where it is written, before the check,
         * instead of being moved under it by the compiler */
        const volatile float *early = (const volatile float *)(pos + i);
        float ax = early[0], ay = early[1], az = early[2];
        if (i >= n) continue;
        float4 a = make_float4(ax, ay, az, 0.0f);
        int j = i + d0 >= n ? i + d0 - n : i + d0;
        for (int d = d0; d < d0 + TILE && d <= half; d++) {
            if (!(2 * d == n && i >= half)) {
                float4 b = pos[j];
                float dx = __fsub_rn(b.x, a.x), dy = __fsub_rn(b.y, a.y), dz = __fsub_rn(b.z, a.z);
                float s = __fadd_rn(__fadd_rn(__fmul_rn(dx, dx), __fmul_rn(dy, dy)),
                                    __fmul_rn(dz, dz));
                unsigned bin = (unsigned)(int)__fdiv_rn(__fsqrt_rn(s), dr);
                if (bin < (unsigned)bins) atomicAdd(&sub[bin], 1u);
            }
            if (++j == n) j = 0;
        }
    }

    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (sub[b]) atomicAdd(&hist[b], sub[b]);
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    size_t shared_bytes = (size_t)bins * sizeof(unsigned int);
    int device, sms, per_sm;
    CUDA_RETURN_IF_ERROR(cudaGetDevice(&device));
    CUDA_RETURN_IF_ERROR(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, rdf_persistent, TILE, shared_bytes));
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d_hist, 0, shared_bytes, stream));
    if (n < 2 || bins == 0) return cudaSuccess;
    long long tiles = (long long)((n + TILE - 1) / TILE) * ((n / 2 + TILE - 1) / TILE);
    int blocks = sms * (per_sm > 0 ? per_sm : 1);
    if (tiles < blocks) blocks = (int)tiles;
    rdf_persistent<<<blocks, TILE, shared_bytes, stream>>>(d_pos, n, bins, dr, d_hist);
    return cudaGetLastError();
}
