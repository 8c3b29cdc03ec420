/* Lab 11's ladder: the same 2-D convolution, from one thread per output
 * reading everything from global memory to the reference. Slowest first.
 * `make ladder LAB=11` checks every rung, then times them all and a
 * device-to-device copy on the fast stage's image (8192 x 8192) and prints
 * GB/s, % of copy and the speedups; `make ladder LAB=11
 * RESULTS=labs/11-conv2d/slides/ladder.json` keeps the figures for the
 * slides' chart (`make charts`).
 *
 * Two radii, one run. The ladder times the fast stage's case, radius 1,
 * where every rung is bound by memory and the question is how close it
 * comes to copy. The lesson's other end is radius 7 (225 FMAs per output,
 * bound by the FMA units), so every rung is timed a second time, as
 * r7_<rung>, at radius 7 on the same image: the wrapper at_radius_7 pads
 * the call's filter with zeros to 15 x 15 (one tiny kernel, about 2 us,
 * part of the time) and calls the rung with radius 7. The result is the
 * same sum plus exact zeros, so the rung is still checked against the
 * reference; its work is radius 7's. The table's GB/s and % copy columns
 * mean nothing for these rows: read their time, and convert it with
 *
 *     GFLOP/s at radius 7 = 2 * 225 * 8192^2 / (ms * 1e6) = 30199 / ms.
 *
 * The r7_ rows come first (they are the slowest), so the table's total
 * speedups are all against r7_v1: for the speedups at radius 1 divide
 * v1's time by each later row's (the README's measurement section does),
 * and read the step column of v2..v7 as it stands. The reference at
 * radius 7 is r7_v6: its register cap is for radius 0 to 2 only, so
 * there it is v6's kernel.
 *
 * The rungs v2-v4 take the radius at run time, as a student's first
 * versions do; from v5 on it is a template parameter (v5-v7 are all
 * conv2d.cu's kernel). Like lab 03's, the rungs assume the grid fits: v2
 * and v3 put the blocks of 8 rows on the grid's y side (at most 65535, so
 * at most 524280 rows; the ladder runs at 8192 and re-checks at 1000);
 * from v5 on they handle images of any height.
 */
#include "conv2d.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

extern "C" const lab_device LAB_DEVICE; /* the lab's binding and baseline (trusted/lab.cu) */

/* v1: the fast stage's baseline itself (trusted/lab.cu), one thread per
 * output, 32 x 8 blocks, the filter and the image read from global memory
 * for every term: 2 loads per FMA. At radius 1 the 9 image loads of a
 * thread mostly hit L1 (its neighbours loaded the same lines), so it is
 * less bad than it looks; at radius 7 the loads, the index arithmetic and
 * the bounds checks of 225 terms swamp the FMAs. Calling it from lab.cu,
 * rather than keeping a copy here, means the first rung and the kernel
 * every speedup is measured against cannot drift apart. */
static int v1_baseline_global_filter(void *const *d, const int64_t *dims, void *s)
{
    return LAB_DEVICE.baseline(d, dims, s);
}

/* v2: the same thread mapping, the filter in __constant__ memory (the
 * reference's c_filter). All 32 threads of a warp read the same filter
 * word at once: the constant cache broadcasts it, and the load leaves the
 * L1/texture path to the image. One global load per FMA instead of two. */
__global__ void conv2d_v2_constant(const float *in, float *out, int rows, int cols, int radius)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    int width = 2 * radius + 1;
    float sum = 0.0f;
    for (int i = -radius; i <= radius; i++) {
        int r = row + i;
        if (r < 0 || r >= rows) continue;
        for (int j = -radius; j <= radius; j++) {
            int c = col + j;
            if (c < 0 || c >= cols) continue;
            sum += c_filter[(i + radius) * width + (j + radius)] * in[(size_t)r * cols + c];
        }
    }
    out[(size_t)row * cols + col] = sum;
}

static cudaError_t copy_filter(const void *d_filter, int radius, cudaStream_t st)
{
    size_t width = 2 * (size_t)radius + 1;
    return cudaMemcpyToSymbolAsync(c_filter, d_filter, width * width * sizeof(float), 0,
                                   cudaMemcpyDeviceToDevice, st);
}

static int v2_constant_filter(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1], radius = (int)dims[2];
    cudaStream_t st = (cudaStream_t)s;
    if (rows == 0 || cols == 0) return cudaSuccess;
    cudaError_t err = copy_filter(d[2], radius, st);
    if (err != cudaSuccess) return err;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_v2_constant<<<grid, block, 0, st>>>((const float *)d[0], (float *)d[1], rows, cols,
                                               radius);
    return cudaGetLastError();
}

/* v3: a shared-memory tile with its halo. A 32 x 8 block computes a
 * 32 x 8 tile of outputs from the (32 + 2r) x (8 + 2r) inputs around it,
 * loaded once (in several passes of 256, since the block is the size of
 * the output tile, not of the input tile), zeros outside the image. The
 * image is read from DRAM about (32 + 2r)(8 + 2r) / 256 times per output
 * (1.3x at r = 1, 4.4x at r = 7: the halo of a flat tile is a large part
 * of it), and the inner loop reads shared memory instead of L1, with no
 * bounds checks. Still one shared load per FMA, and the run-time radius
 * keeps the loops rolled. */
__global__ void conv2d_v3_tile(const float *in, float *out, int rows, int cols, int radius)
{
    extern __shared__ float tile3[];
    int sw = 32 + 2 * radius, sh = 8 + 2 * radius, width = 2 * radius + 1;
    int row0 = blockIdx.y * 8, col0 = blockIdx.x * 32;
    for (int k = threadIdx.y * 32 + threadIdx.x; k < sw * sh; k += 256) {
        int y = k / sw, x = k % sw;
        int r = row0 - radius + y, c = col0 - radius + x;
        tile3[k] = (r >= 0 && r < rows && c >= 0 && c < cols) ? in[(size_t)r * cols + c] : 0.0f;
    }
    __syncthreads();
    int row = row0 + threadIdx.y, col = col0 + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (int i = 0; i < width; i++)
        for (int j = 0; j < width; j++)
            sum += c_filter[i * width + j] * tile3[(threadIdx.y + i) * sw + threadIdx.x + j];
    out[(size_t)row * cols + col] = sum;
}

static int v3_shared_tile_with_halo(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1], radius = (int)dims[2];
    cudaStream_t st = (cudaStream_t)s;
    if (rows == 0 || cols == 0) return cudaSuccess;
    cudaError_t err = copy_filter(d[2], radius, st);
    if (err != cudaSuccess) return err;
    size_t shmem = (32 + 2 * (size_t)radius) * (8 + 2 * (size_t)radius) * sizeof(float);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    conv2d_v3_tile<<<grid, block, shmem, st>>>((const float *)d[0], (float *)d[1], rows, cols,
                                               radius);
    return cudaGetLastError();
}

/* v4: four outputs per thread, down a column, so the tile is 32 x 32
 * (less halo per output: (32 + 2r)^2 / 1024 loads per output, 1.1x at
 * r = 1, 2.1x at r = 7) and each value read from shared memory feeds up
 * to four FMAs from registers. The four accumulators only stay in
 * registers because k runs over a constant range and is unrolled; the
 * radius is still read at run time, so the loops over the window are not
 * unrolled and each FMA still needs its filter index computed. */
__global__ void conv2d_v4_four_per_thread(const float *in, float *out, int rows, int cols,
                                          int radius)
{
    extern __shared__ float tile4[];
    int sw = 32 + 2 * radius, sh = 32 + 2 * radius, width = 2 * radius + 1;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    for (int k = threadIdx.y * 32 + threadIdx.x; k < sw * sh; k += 256) {
        int y = k / sw, x = k % sw;
        int r = row0 - radius + y, c = col0 - radius + x;
        tile4[k] = (r >= 0 && r < rows && c >= 0 && c < cols) ? in[(size_t)r * cols + c] : 0.0f;
    }
    __syncthreads();
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int y = 0; y < 4 + 2 * radius; y++) {
        const float *trow = tile4 + (threadIdx.y * 4 + y) * sw + threadIdx.x;
        for (int j = 0; j < width; j++) {
            float v = trow[j];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                int i = y - k;
                if (i >= 0 && i < width) acc[k] += c_filter[i * width + j] * v;
            }
        }
    }
    int col = col0 + threadIdx.x;
    if (col >= cols) return;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        int row = row0 + threadIdx.y * 4 + k;
        if (row < rows) out[(size_t)row * cols + col] = acc[k];
    }
}

static int v4_four_outputs_per_thread(void *const *d, const int64_t *dims, void *s)
{
    int rows = (int)dims[0], cols = (int)dims[1], radius = (int)dims[2];
    cudaStream_t st = (cudaStream_t)s;
    if (rows == 0 || cols == 0) return cudaSuccess;
    cudaError_t err = copy_filter(d[2], radius, st);
    if (err != cudaSuccess) return err;
    size_t side = 32 + 2 * (size_t)radius;
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 31) / 32);
    conv2d_v4_four_per_thread<<<grid, block, side * side * sizeof(float), st>>>(
        (const float *)d[0], (float *)d[1], rows, cols, radius);
    return cudaGetLastError();
}

/* v5: v4 with the radius a template parameter (conv2d.cu's kernel with one
 * column per thread), so every loop is unrolled, every tile and filter
 * index is a constant, the bounds tests on i vanish at compile time and
 * the filter words become constant-bank operands of the FMAs. */
static int v5_radius_template(void *const *d, const int64_t *dims, void *s)
{
    return conv2d_patches<1, false>((const float *)d[0], (float *)d[1], (int)dims[0],
                                    (int)dims[1], (const float *)d[2], (int)dims[2],
                                    (cudaStream_t)s);
}

/* v6: a patch of 4 x 2 outputs per thread, 4 rows of 2 adjacent columns:
 * the block's tile is 64 x 32, a row of the window (2 + 2r values, read in
 * pairs) feeds up to 8 FMAs, and the tile's rows load in 256-byte runs
 * with less halo per output. */
static int v6_four_by_two_patches(void *const *d, const int64_t *dims, void *s)
{
    return conv2d_patches<2, false>((const float *)d[0], (float *)d[1], (int)dims[0],
                                    (int)dims[1], (const float *)d[2], (int)dims[2],
                                    (cudaStream_t)s);
}

/* v7: the reference (conv2d.cu): v6 asking for 8 blocks per SM at radius
 * 0 and 1 (__launch_bounds__(256, 8): at most 32 registers), where more
 * warps keep more loads in flight; the same kernel as v6 above. */
static int v7_reference_eight_blocks_per_sm(void *const *d, const int64_t *dims, void *s)
{
    return conv2d((const float *)d[0], (float *)d[1], (int)dims[0], (int)dims[1],
                  (const float *)d[2], (int)dims[2], (cudaStream_t)s);
}

/* ---- the same rungs at radius 7 -------------------------------------- */

/* filter7 = the call's (2r + 1)^2 filter in the middle of 15 x 15 zeros. */
__global__ void pad_to_radius_7(const float *filter, int radius, float *filter7)
{
    int a = threadIdx.y, b = threadIdx.x, width = 2 * radius + 1;
    int i = a - 7 + radius, j = b - 7 + radius;
    filter7[a * 15 + b] =
        (i >= 0 && i < width && j >= 0 && j < width) ? filter[i * width + j] : 0.0f;
}

static int at_radius_7(lab_call_fn rung, void *const *d, const int64_t *dims, void *s)
{
    static float *filter7; /* allocated on the first call: the warm-up, never timed */
    if (!filter7 && cudaMalloc(&filter7, 225 * sizeof(float)) != cudaSuccess)
        return cudaErrorMemoryAllocation;
    if (dims[0] == 0 || dims[1] == 0) return cudaSuccess;
    cudaStream_t st = (cudaStream_t)s;
    pad_to_radius_7<<<1, dim3(15, 15), 0, st>>>((const float *)d[2], (int)dims[2], filter7);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) return err;
    void *d7[3] = {d[0], d[1], filter7};
    int64_t dims7[LAB_MAX_DIMS] = {dims[0], dims[1], 7};
    return rung(d7, dims7, s);
}

static int r7_v1_baseline(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v1_baseline_global_filter, d, dims, s);
}
static int r7_v2_constant_filter(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v2_constant_filter, d, dims, s);
}
static int r7_v3_shared_tile(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v3_shared_tile_with_halo, d, dims, s);
}
static int r7_v4_four_per_thread(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v4_four_outputs_per_thread, d, dims, s);
}
static int r7_v5_radius_template(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v5_radius_template, d, dims, s);
}
static int r7_v6_four_by_two_patches(void *const *d, const int64_t *dims, void *s)
{
    return at_radius_7(v6_four_by_two_patches, d, dims, s);
}

/* The radius-7 rows first: they are the slowest, and the last row (the
 * reference at radius 1, the fast stage's case) is the one `make test`
 * expects to beat the first. */
static const lab_rung RUNGS[] = {
    {"r7_v1_baseline", r7_v1_baseline},
    {"r7_v2_constant_filter", r7_v2_constant_filter},
    {"r7_v3_shared_tile", r7_v3_shared_tile},
    {"r7_v4_four_per_thread", r7_v4_four_per_thread},
    {"r7_v5_radius_template", r7_v5_radius_template},
    {"r7_v6_four_by_two_patches", r7_v6_four_by_two_patches},
    {"v1_baseline_global_filter", v1_baseline_global_filter},
    {"v2_constant_filter", v2_constant_filter},
    {"v3_shared_tile_with_halo", v3_shared_tile_with_halo},
    {"v4_four_outputs_per_thread", v4_four_outputs_per_thread},
    {"v5_radius_template", v5_radius_template},
    {"v6_four_by_two_patches", v6_four_by_two_patches},
    {"v7_reference_eight_blocks_per_sm", v7_reference_eight_blocks_per_sm},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
