/* WRONG ON PURPOSE: a cache that is never stale. The first call with a
 * set of positions computes the histogram with the reference and keeps a
 * copy of the positions and of the histogram. Every later call compares
 * the positions with the copy and, when only a few particles moved, takes
 * the pairs of those particles out of the kept histogram and puts them
 * back with their new places: 2n pairs for each moved particle, not n^2/2.
 * The answer is always right; it is fast only when a call's inputs are
 * nearly those of the call before, which is how a grader that changes a
 * few elements between timed calls would call it. A short spin makes the
 * call look like a fast kernel (200x the baseline, under the lab's
 * ceiling) instead of an impossible one. The grader rearranges every
 * input completely before each timed round, so every particle has moved
 * and each call computes the whole histogram with the reference, behind
 * its comparison and its spin: no faster than the reference itself.
 * Must first fail the fast stage.
 *
 * BUILDS-ON: the reference (tests/fixtures.sh)
 */

#define MOST_MOVED 64

static struct {
    const float4 *d_pos;
    int n, bins;
    float dr;
    float4 *kept_pos;
    unsigned int *kept_hist;
    int *moved, *count;      /* the moved particles, and how many */
    unsigned char *is_moved; /* one flag per particle */
    int *h_count;
} cache;

__global__ void find_moved(const float4 *pos, const float4 *kept, int n, int *moved, int *count,
                           unsigned char *is_moved)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 a = pos[i], b = kept[i];
    if (a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w) {
        is_moved[i] = 1;
        int at = atomicAdd(count, 1);
        if (at < MOST_MOVED) moved[at] = i;
    }
}

/* Block m: the pairs of moved particle c with every other particle j,
 * taken out at their old places and put back at their new ones; a pair of
 * two moved particles only once (from the smaller index). */
__global__ void move_pairs(const float4 *pos, const float4 *kept, int n, int bins, float dr,
                           const int *moved, const unsigned char *is_moved, unsigned int *hist)
{
    int c = moved[blockIdx.x];
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        if (j == c || (is_moved[j] && j < c)) continue;
        int old_bin = pair_bin(kept[c], kept[j], dr), new_bin = pair_bin(pos[c], pos[j], dr);
        if (old_bin == new_bin) continue;
        if (old_bin < bins) atomicSub(hist + old_bin, 1u);
        if (new_bin < bins) atomicAdd(hist + new_bin, 1u);
    }
}

__global__ void keep_moved(const float4 *pos, float4 *kept, const int *moved, int count,
                           unsigned char *is_moved)
{
    int m = threadIdx.x;
    if (m < count) {
        kept[moved[m]] = pos[moved[m]];
        is_moved[moved[m]] = 0;
    }
}

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static cudaError_t compute_and_keep(const float4 *d_pos, int n, int bins, float dr,
                                    unsigned int *d_hist, cudaStream_t stream)
{
    cudaFree(cache.kept_pos);
    cudaFree(cache.kept_hist);
    cudaFree(cache.is_moved);
    cache.kept_pos = NULL, cache.kept_hist = NULL, cache.is_moved = NULL, cache.d_pos = NULL;
    cudaError_t e = reference_rdf(d_pos, n, bins, dr, d_hist, stream);
    if (e != cudaSuccess || n < 2 || bins < 1) return e;
    if (cudaMalloc(&cache.kept_pos, n * sizeof(float4)) != cudaSuccess ||
        cudaMalloc(&cache.kept_hist, bins * sizeof(unsigned int)) != cudaSuccess ||
        cudaMalloc(&cache.is_moved, n) != cudaSuccess)
        return e;
    cudaMemsetAsync(cache.is_moved, 0, n, stream);
    cudaMemcpyAsync(cache.kept_pos, d_pos, n * sizeof(float4), cudaMemcpyDeviceToDevice, stream);
    cudaMemcpyAsync(cache.kept_hist, d_hist, bins * sizeof(unsigned int),
                    cudaMemcpyDeviceToDevice, stream);
    cache.d_pos = d_pos, cache.n = n, cache.bins = bins, cache.dr = dr;
    return cudaGetLastError();
}

extern "C" cudaError_t rdf(const float4 *d_pos, int n, int bins, float dr, unsigned int *d_hist,
                           cudaStream_t stream)
{
    if (!cache.moved) {
        cudaMalloc(&cache.moved, MOST_MOVED * sizeof(int));
        cudaMalloc(&cache.count, sizeof(int));
        cudaMallocHost(&cache.h_count, sizeof(int));
    }
    if (d_pos != cache.d_pos || n != cache.n || bins != cache.bins || dr != cache.dr)
        return compute_and_keep(d_pos, n, bins, dr, d_hist, stream);
    cudaMemsetAsync(cache.count, 0, sizeof(int), stream);
    find_moved<<<(n + 255) / 256, 256, 0, stream>>>(d_pos, cache.kept_pos, n, cache.moved,
                                                    cache.count, cache.is_moved);
    cudaMemcpyAsync(cache.h_count, cache.count, sizeof(int), cudaMemcpyDeviceToHost, stream);
    cudaStreamSynchronize(stream);
    int moved = *cache.h_count;
    if (moved > MOST_MOVED) {
        spin<<<1, 1, 0, stream>>>(2000000);
        return compute_and_keep(d_pos, n, bins, dr, d_hist, stream);
    }
    if (moved > 0) {
        move_pairs<<<moved, 256, 0, stream>>>(d_pos, cache.kept_pos, n, bins, dr, cache.moved,
                                              cache.is_moved, cache.kept_hist);
        keep_moved<<<1, MOST_MOVED, 0, stream>>>(d_pos, cache.kept_pos, cache.moved, moved,
                                                 cache.is_moved);
    }
    spin<<<1, 1, 0, stream>>>(2000000); /* about 1 ms: 200x the baseline */
    cudaMemcpyAsync(d_hist, cache.kept_hist, bins * sizeof(unsigned int),
                    cudaMemcpyDeviceToDevice, stream);
    return cudaGetLastError();
}
