// Cooperative groups in the CPU emulation: thread blocks, tiles of every
// width, their shuffles, votes and syncs, and cg::reduce, checked against
// what the CUDA headers define. Without an argument it prints one
// "PASS name" or "FAIL name: reason" line per case; it is plain CUDA (nvcc
// compiles it), so a GPU can be asked the same questions. With a mode it
// runs one misuse for cooperative_groups.sh to check.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#include "self_test.h"

namespace cg = cooperative_groups;

// A 16 x 4 block: thread ranks run along x first, so tiles and warps are
// cut from x + 16 * y, not from threadIdx.x.
static const dim3 BLOCK_2D(16, 4);
static const int THREADS = 64;

// ---------------------------------------------------------------- tiles
enum { SHFL, SHFL_DOWN, SHFL_UP, SHFL_XOR, RANK, SIZE, META_RANK, META_SIZE, BALLOT, ANY, ALL, MATCH_ANY,
       MATCH_ALL, MATCH_ALL_PREDICATE, FIELDS };

template <unsigned int N> __global__ void tile_operations(int *out, int src, unsigned int delta, unsigned int lanes)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int t = (int)block.thread_rank(), *o = out + t * FIELDS;
    int value = t * 10 + 7;
    o[SHFL] = tile.shfl(value, src + (int)tile.thread_rank());
    o[SHFL_DOWN] = tile.shfl_down(value, delta);
    o[SHFL_UP] = tile.shfl_up(value, delta);
    o[SHFL_XOR] = tile.shfl_xor(value, lanes);
    o[RANK] = (int)tile.thread_rank();
    o[SIZE] = (int)tile.size() * 1000 + (int)tile.num_threads();
    o[META_RANK] = (int)tile.meta_group_rank();
    o[META_SIZE] = (int)tile.meta_group_size();
    o[BALLOT] = (int)tile.ballot(t % 3 == 0);
    o[ANY] = tile.any(t % 7 == 6);
    o[ALL] = tile.all(t % 5 != 4);
    o[MATCH_ANY] = (int)tile.match_any(t / 3);
    int predicate = -1;
    o[MATCH_ALL] = (int)tile.match_all(t / 8, predicate);
    o[MATCH_ALL_PREDICATE] = predicate;
}

static int tile_expected(int field, int t, int n, int src, unsigned delta, unsigned lanes)
{
    int r = t % n, base = t - r, count = 0;
    auto value = [&](int rank) { return (base + rank) * 10 + 7; };
    unsigned bits = 0;
    switch (field) {
    case SHFL: return value((src + r) & (n - 1));
    case SHFL_DOWN: return value(r + (int)delta < n ? r + (int)delta : r);
    case SHFL_UP: return value(r >= (int)delta ? r - (int)delta : r);
    case SHFL_XOR: return value(r ^ (int)lanes);
    case RANK: return r;
    case SIZE: return n * 1000 + n;
    case META_RANK: return t / n;
    case META_SIZE: return THREADS / n;
    case BALLOT:
        for (int i = 0; i < n; ++i)
            bits |= (unsigned)((base + i) % 3 == 0) << i;
        return (int)bits;
    case ANY:
        for (int i = 0; i < n; ++i)
            count += (base + i) % 7 == 6;
        return count > 0;
    case ALL:
        for (int i = 0; i < n; ++i)
            count += (base + i) % 5 == 4;
        return count == 0;
    case MATCH_ANY:
        for (int i = 0; i < n; ++i)
            bits |= (unsigned)((base + i) / 3 == t / 3) << i;
        return (int)bits;
    default: { // MATCH_ALL, MATCH_ALL_PREDICATE
        bool same = base / 8 == (base + n - 1) / 8;
        unsigned full = n == 32 ? 0xffffffffu : (1u << n) - 1;
        return field == MATCH_ALL ? (int)(same ? full : 0u) : same;
    }
    }
}

template <unsigned int N> static void check_tile_width(int *d)
{
    char name[64], reason[200] = "";
    bool ok = true;
    for (int src : {0, 3, -1})
        for (unsigned delta : {1u, 2u, 5u, 40u})
            for (unsigned lanes : {1u, 3u, 16u}) {
                if (lanes >= N || !ok) // a mask past the tile reads outside it: undefined
                    continue;
                tile_operations<N><<<1, BLOCK_2D>>>(d, src, delta, lanes);
                std::vector<int> h = download(d, THREADS * FIELDS);
                for (int t = 0; t < THREADS && ok; ++t)
                    for (int f = 0; f < FIELDS && ok; ++f) {
                        int e = tile_expected(f, t, (int)N, src, delta, lanes);
                        if (h[t * FIELDS + f] != e) {
                            ok = false;
                            std::snprintf(reason, sizeof reason,
                                          "field %d of thread %d (src %d delta %u xor %u): got %d expected %d", f,
                                          t, src, delta, lanes, h[t * FIELDS + f], e);
                        }
                    }
            }
    std::snprintf(name, sizeof name, "tile_%u_shuffles_votes_ranks", N);
    report(name, ok && cudaGetLastError() == cudaSuccess, "%s", reason);
}

static void test_tiles()
{
    int *d;
    cudaMalloc(&d, THREADS * FIELDS * sizeof(int));
    check_tile_width<1>(d);
    check_tile_width<2>(d);
    check_tile_width<4>(d);
    check_tile_width<8>(d);
    check_tile_width<16>(d);
    check_tile_width<32>(d);
    cudaFree(d);
}

// A tile of a tile: ranks within the parent, meta ranks counted in it.
__global__ void nested_tiles(int *out)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::thread_block_tile<8> eighth = cg::tiled_partition<8>(warp);
    cg::thread_block_tile<1> alone = cg::this_thread();
    int t = (int)cg::this_thread_block().thread_rank();
    out[t] = (int)eighth.meta_group_rank() * 1000 + (int)eighth.meta_group_size() * 100 +
             (int)cg::thread_rank(eighth) * 10 + (int)(alone.size() + alone.thread_rank());
}

// Struct and 16-byte values cross a tile in pieces.
struct triple {
    double a;
    int b;
    short c;
};

__global__ void wide_shuffles(float4 *out4, triple *out3)
{
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    float r = (float)cg::this_thread_block().thread_rank();
    float4 mine = make_float4(r, r + 0.25f, r + 0.5f, r + 0.75f);
    triple t3 = {r * 2.0, (int)r * 3, (short)(r * 4)};
    out4[(int)r] = tile.shfl(mine, 5);
    out3[(int)r] = tile.shfl_xor(t3, 1);
}

static void test_tile_extras()
{
    int *d;
    cudaMalloc(&d, THREADS * sizeof(int));
    nested_tiles<<<1, THREADS>>>(d);
    std::vector<int> h = download(d, THREADS);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < THREADS; ++t)
        ok = ok && h[t] == (t % 32 / 8) * 1000 + 4 * 100 + (t % 8) * 10 + 1;
    report("tile_of_a_tile_and_this_thread", ok, "thread 13 got %d", h[13]);
    cudaFree(d);

    float4 *f4;
    triple *t3;
    cudaMalloc(&f4, THREADS * sizeof(float4));
    cudaMalloc(&t3, THREADS * sizeof(triple));
    wide_shuffles<<<1, THREADS>>>(f4, t3);
    std::vector<float4> hf = download(f4, THREADS);
    std::vector<triple> ht = download(t3, THREADS);
    ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < THREADS; ++t) {
        float s = (float)(t / 16 * 16 + 5);
        int x = t ^ 1;
        ok = ok && hf[t].x == s && hf[t].y == s + 0.25f && hf[t].z == s + 0.5f && hf[t].w == s + 0.75f &&
             ht[t].a == x * 2.0 && ht[t].b == x * 3 && ht[t].c == x * 4;
    }
    report("tile_shuffles_16_byte_and_struct_values", ok, "thread 17: %g %g / %g %d %d", hf[17].x, hf[17].w,
           ht[17].a, ht[17].b, ht[17].c);
    cudaFree(f4);
    cudaFree(t3);
}

// ---------------------------------------------------------------- reduce
// The CUDA headers' tile reduction: a butterfly, lane masks from N/2 down.
template <class T, class Op> static T butterfly(const T *v, int n, Op op, bool descending = true)
{
    std::vector<T> lanes(v, v + n), next(n);
    for (int m = descending ? n / 2 : 1; m > 0 && m < n; m = descending ? m / 2 : m * 2) {
        for (int l = 0; l < n; ++l)
            next[l] = op(lanes[l], lanes[l ^ m]);
        lanes = next;
    }
    return lanes[0];
}

template <unsigned int N>
__global__ void reduce_tiles(const float *in, const int *ints, float *sums, int *results, double *doubles)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<N>(block);
    int t = (int)block.thread_rank();
    sums[t] = cg::reduce(tile, in[t], cg::plus<float>());
    int v = ints[t];
    results[t * 6 + 0] = cg::reduce(tile, v, cg::plus<int>());
    results[t * 6 + 1] = cg::reduce(tile, v, cg::less<int>());
    results[t * 6 + 2] = cg::reduce(tile, v, cg::greater<int>());
    results[t * 6 + 3] = (int)cg::reduce(tile, (unsigned)v, cg::bit_and<unsigned>());
    results[t * 6 + 4] = (int)cg::reduce(tile, (unsigned)v, cg::bit_or<unsigned>());
    results[t * 6 + 5] = (int)cg::reduce(tile, (unsigned)v, cg::bit_xor<unsigned>());
    doubles[t] = cg::reduce(tile, (double)in[t], [](double a, double b) { return a + b; });
}

template <unsigned int N>
static void check_reduce_width(const std::vector<float> &values, const std::vector<int> &ints, bool *tells_apart)
{
    float *in, *sums;
    int *d_ints, *results;
    double *doubles;
    cudaMalloc(&in, THREADS * sizeof(float));
    cudaMalloc(&sums, THREADS * sizeof(float));
    cudaMalloc(&d_ints, THREADS * sizeof(int));
    cudaMalloc(&results, THREADS * 6 * sizeof(int));
    cudaMalloc(&doubles, THREADS * sizeof(double));
    cudaMemcpy(in, values.data(), THREADS * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_ints, ints.data(), THREADS * sizeof(int), cudaMemcpyHostToDevice);
    reduce_tiles<N><<<1, BLOCK_2D>>>(in, d_ints, sums, results, doubles);
    std::vector<float> s = download(sums, THREADS);
    std::vector<int> r = download(results, THREADS * 6);
    std::vector<double> dd = download(doubles, THREADS);
    bool ok = cudaGetLastError() == cudaSuccess;
    char reason[160] = "";
    auto add = [](auto a, auto b) { return a + b; };
    for (int t = 0; t < THREADS && ok; ++t) {
        int base = t / (int)N * (int)N;
        float want = butterfly(&values[base], (int)N, add);
        std::vector<double> as_double(values.begin() + base, values.begin() + base + N);
        const int *iv = &ints[base];
        int expect[6] = {butterfly(iv, (int)N, add), butterfly(iv, (int)N, [](int a, int b) { return b < a ? b : a; }),
                         butterfly(iv, (int)N, [](int a, int b) { return a < b ? b : a; }),
                         butterfly(iv, (int)N, [](int a, int b) { return a & b; }),
                         butterfly(iv, (int)N, [](int a, int b) { return a | b; }),
                         butterfly(iv, (int)N, [](int a, int b) { return a ^ b; })};
        // Bit for bit: the same tree rounds the same way.
        if (std::memcmp(&s[t], &want, sizeof want) != 0) {
            ok = false;
            std::snprintf(reason, sizeof reason, "thread %d: float sum %.9g, the butterfly gives %.9g", t, s[t],
                          want);
        }
        for (int k = 0; k < 6 && ok; ++k)
            if (r[t * 6 + k] != expect[k]) {
                ok = false;
                std::snprintf(reason, sizeof reason, "thread %d: integer operator %d gave %d, expected %d", t, k,
                              r[t * 6 + k], expect[k]);
            }
        if (ok && dd[t] != butterfly(as_double.data(), (int)N, add)) {
            ok = false;
            std::snprintf(reason, sizeof reason, "thread %d: double sum with a lambda %.17g", t, dd[t]);
        }
        // Does another order round differently here? Then the check above
        // tells the butterfly from it.
        float ascending = butterfly(&values[base], (int)N, add, false), serial = 0.0f;
        for (int i = 0; i < (int)N; ++i)
            serial += values[base + i];
        if (ascending != want && serial != want)
            *tells_apart = true;
    }
    char name[64];
    std::snprintf(name, sizeof name, "reduce_tile_%u_exact_in_every_lane", N);
    report(name, ok, "%s", reason);
    cudaFree(in);
    cudaFree(sums);
    cudaFree(d_ints);
    cudaFree(results);
    cudaFree(doubles);
}

static void test_reduce()
{
    std::vector<float> values(THREADS);
    std::vector<int> ints(THREADS);
    unsigned state = 12345u;
    for (int t = 0; t < THREADS; ++t) { // mixed magnitudes: the order of additions shows in the last bits
        state = state * 1664525u + 1013904223u;
        values[t] = std::ldexp((float)(state >> 8) / 16777216.0f + 1.0f, (int)(state % 41) - 20) *
                    (state & 0x10 ? -1.0f : 1.0f);
        ints[t] = (int)(state >> 7) - (1 << 24); // 32 of them add up without overflow
    }
    bool tells_apart = false;
    check_reduce_width<2>(values, ints, &tells_apart);
    check_reduce_width<4>(values, ints, &tells_apart);
    check_reduce_width<8>(values, ints, &tells_apart);
    check_reduce_width<16>(values, ints, &tells_apart);
    check_reduce_width<32>(values, ints, &tells_apart);
    report("reduce_inputs_tell_the_butterfly_from_other_orders", tells_apart,
           "every tile sums to the same float in any order: the reduce checks would not see a wrong tree");
}

// ---------------------------------------------------------------- syncs
// Each thread writes its slot and reads a neighbour's after the tile's
// sync: threads run in a shuffled order, so a sync that does not wait
// shows as the 0xFF bytes shared memory starts with.
template <unsigned int N> __global__ void tile_sync_exchange(int *out)
{
    __shared__ int slots[THREADS];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    int t = (int)block.thread_rank();
    slots[t] = t * 3;
    tile.sync();
    out[t] = slots[t - (int)tile.thread_rank() + ((int)tile.thread_rank() + 1) % (int)N];
}

// Even tiles sync at one line and odd tiles at another: a tile's sync must
// wait for its own threads only (a block barrier here would be reached at
// two different places).
__global__ void tiles_sync_apart(int *out)
{
    __shared__ int slots[THREADS];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
    int t = (int)block.thread_rank();
    slots[t] = t + 100;
    if (tile.meta_group_rank() % 2 == 0) {
        tile.sync();
        out[t] = slots[t ^ 7];
    } else {
        cg::sync(tile);
        out[t] = slots[t ^ 4];
    }
    block.sync();
}

// The block's sync through every spelling, across warps.
__global__ void block_sync_exchange(int *out)
{
    __shared__ int slots[THREADS];
    cg::thread_block block = cg::this_thread_block();
    int t = (int)block.thread_rank();
    slots[t] = t * 5;
    block.sync();
    int a = slots[THREADS - 1 - t];
    cg::sync(block);
    slots[t] = a + 1;
    cg::thread_group as_group = block;
    as_group.sync();
    out[t] = slots[(t + 32) % THREADS];
}

template <unsigned int N> static bool tile_sync_ok(int *d)
{
    tile_sync_exchange<N><<<1, BLOCK_2D>>>(d);
    std::vector<int> h = download(d, THREADS);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < THREADS; ++t)
        ok = ok && h[t] == (t - t % (int)N + (t % (int)N + 1) % (int)N) * 3;
    return ok;
}

static void test_syncs()
{
    int *d;
    cudaMalloc(&d, THREADS * sizeof(int));
    bool ok = tile_sync_ok<2>(d) && tile_sync_ok<4>(d) && tile_sync_ok<8>(d) && tile_sync_ok<16>(d) &&
              tile_sync_ok<32>(d);
    report("tile_sync_orders_shared_memory", ok, "a thread read its neighbour's slot before it was written");

    tiles_sync_apart<<<1, THREADS>>>(d);
    std::vector<int> h = download(d, THREADS);
    ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < THREADS; ++t)
        ok = ok && h[t] == ((t / 8) % 2 == 0 ? t ^ 7 : t ^ 4) + 100;
    report("tile_sync_waits_for_its_tile_only", ok, "thread 9 got %d", h[9]);

    block_sync_exchange<<<1, THREADS>>>(d);
    h = download(d, THREADS);
    ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < THREADS; ++t) {
        int other = (t + 32) % THREADS;
        ok = ok && h[t] == (THREADS - 1 - other) * 5 + 1;
    }
    report("block_sync_sync_of_block_and_thread_group", ok, "thread 0 got %d", h[0]);
    cudaFree(d);
}

// ---------------------------------------------------------------- groups
// The dynamic partition, in a block of 40: its last 16-thread tile has 8.
__global__ void dynamic_tiles(unsigned long long *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group sixteen = cg::tiled_partition(block, 16);
    cg::thread_group four = cg::tiled_partition(sixteen, 4);
    __shared__ int slots[40];
    int t = (int)block.thread_rank();
    slots[t] = t;
    sixteen.sync();
    int neighbour = slots[t - (int)sixteen.thread_rank() + ((int)sixteen.thread_rank() + 1) % (int)sixteen.size()];
    four.sync();
    out[t * 3 + 0] = sixteen.thread_rank() * 100 + sixteen.size();
    out[t * 3 + 1] = four.thread_rank() * 100 + four.size();
    out[t * 3 + 2] = (unsigned long long)neighbour;
}

__global__ void block_and_grid(unsigned *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    unsigned *o = out + grid.thread_rank() * 8;
    dim3 gi = block.group_index(), ti = block.thread_index(), gd = block.group_dim(), tg = grid.thread_index();
    o[0] = block.thread_rank();
    o[1] = block.size() * 1000 + block.num_threads() + (unsigned)cg::group_size(block) * 1000000;
    o[2] = gi.x + 10 * gi.y + 100 * gi.z;
    o[3] = ti.x + 10 * ti.y + 100 * ti.z;
    o[4] = gd.x + 10 * gd.y + 100 * gd.z + 1000 * (block.dim_threads().x == gd.x);
    o[5] = (unsigned)(grid.size() * 1000 + grid.num_blocks() * 10 + grid.is_valid());
    o[6] = (unsigned)grid.block_rank();
    o[7] = tg.x + 100 * tg.y + 10000 * tg.z;
}

static void test_groups()
{
    unsigned long long *d;
    cudaMalloc(&d, 40 * 3 * sizeof(unsigned long long));
    dynamic_tiles<<<1, 40>>>(d);
    std::vector<unsigned long long> h = download(d, 40 * 3);
    bool ok = cudaGetLastError() == cudaSuccess;
    for (int t = 0; t < 40; ++t) {
        int size = t < 32 ? 16 : 8, base = t / 16 * 16;
        ok = ok && h[t * 3] == (unsigned long long)(t % 16 * 100 + size) &&
             h[t * 3 + 1] == (unsigned long long)(t % 4 * 100 + 4) &&
             h[t * 3 + 2] == (unsigned long long)(base + (t - base + 1) % size);
    }
    report("dynamic_tiled_partition_ranks_sizes_sync", ok, "thread 39: %llu %llu %llu", h[117], h[118], h[119]);
    cudaFree(d);

    const dim3 grid(3, 2), block(4, 3, 2);
    const int threads = 6 * 24;
    unsigned *g;
    cudaMalloc(&g, threads * 8 * sizeof(unsigned));
    cudaMemset(g, 0xff, threads * 8 * sizeof(unsigned));
    block_and_grid<<<grid, block>>>(g);
    std::vector<unsigned> hg = download(g, threads * 8);
    ok = cudaGetLastError() == cudaSuccess;
    for (int r = 0; r < threads && ok; ++r) {
        const unsigned *o = &hg[r * 8];
        unsigned b = r / 24, t = r % 24, bx = b % 3, by = b / 3, tx = t % 4, ty = t / 4 % 3, tz = t / 12;
        ok = o[0] == t && o[1] == 24024024u && o[2] == bx + 10 * by && o[3] == tx + 10 * ty + 100 * tz &&
             o[4] == 1000 + 4 + 30 + 200 && o[5] == 144 * 1000 + 60 && o[6] == b &&
             o[7] == (bx * 4 + tx) + 100 * (by * 3 + ty) + 10000 * tz;
    }
    report("thread_block_and_grid_indices", ok, "a value differs");
    cudaFree(g);
}

// ---------------------------------------------------------------- misuse
__global__ void bad_dynamic_tile(int *out)
{
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 3);
    out[threadIdx.x] = (int)g.size();
}

// Lane 0 waits at the block's barrier while the others wait for it in a
// shuffle: a deadlock, reported at the shuffle's own line.
__global__ void tile_deadlock(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int v = (int)warp.thread_rank();
    if (warp.thread_rank() != 0)
        v = warp.shfl(v, 0); // DEADLOCK-LINE
    block.sync();
    out[threadIdx.x] = v;
}

static int misuse(const char *mode)
{
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    if (!std::strcmp(mode, "bad_dynamic_tile"))
        bad_dynamic_tile<<<1, 32>>>(d);
    else if (!std::strcmp(mode, "tile_deadlock"))
        tile_deadlock<<<1, 32>>>(d);
    else
        return 2;
    std::printf("kernel finished: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2)
        return misuse(argv[1]);
    test_tiles();
    test_tile_extras();
    test_reduce();
    test_syncs();
    test_groups();
    return failures == 0 ? 0 : 1;
}
