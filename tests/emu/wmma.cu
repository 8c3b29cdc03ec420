/* wmma.cu - the emulation's <cuda_fp16.h> and <mma.h> (nvcuda::wmma,
 * 16 x 16 x 16): half conversions, loads and stores in both layouts, mma_sync
 * against a double reference within the tensor-core bound, the truncating
 * arithmetic it models, elementwise x[] access, and (with an argument) the
 * misuses that trap. One "PASS name" or "FAIL name: reason" line per case. */
#include <cmath>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "self_test.h"

using namespace nvcuda;

#ifdef USES_WMMA_32X8
__global__ void other_shape() { wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> a; (void)a; }
#endif

/* One warp: C (16 x 16) = A B + C0, A and B read through shared memory,
 * B given row-major (b_col = 0) or column-major (b_col = 1), C stored in
 * the layout asked for. The tile is scaled by `scale` through x[]. */
__global__ void tile_product(const half *a, const half *b, const float *c0, float *c, int b_col,
                             int store_col, float scale)
{
    __shared__ half sa[16 * 24], sb[16 * 24];
    __shared__ float sc[16 * 20];
    for (int i = threadIdx.x; i < 256; i += 32) {
        sa[i / 16 * 24 + i % 16] = a[i];
        sb[i / 16 * 24 + i % 16] = b[i];
        sc[i / 16 * 20 + i % 16] = c0[i];
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, sa, 24);
    wmma::load_matrix_sync(acc, sc, 20, wmma::mem_row_major);
    if (b_col) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
        wmma::load_matrix_sync(fb, sb, 24);
        wmma::mma_sync(acc, fa, fb, acc);
    } else {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fb, sb, 24);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= scale;
    wmma::store_matrix_sync(c, acc, 16, store_col ? wmma::mem_col_major : wmma::mem_row_major);
}

__global__ void half_accumulator(const half *a, const half *b, half *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16); /* A read column-major: A^T of the row-major data */
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

__global__ void bad_load(const half *a, int ldm)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, ldm);
}

template <class T> static T *upload(const std::vector<T> &h)
{
    T *d;
    cudaMalloc(&d, h.size() * sizeof(T));
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

int main(int argc, char **argv)
{
    if (argc > 1) { /* misuses: each traps */
        half *a;
        cudaMalloc(&a, 4096 * sizeof(half));
        if (!strcmp(argv[1], "odd_ldm")) bad_load<<<1, 32>>>(a, 17);
        if (!strcmp(argv[1], "misaligned")) bad_load<<<1, 32>>>(a + 1, 16);
        printf("kernel finished: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 0;
    }

    /* Conversions: every finite half round-trips; ties go to even. */
    int bad = 0;
    for (unsigned h = 0; h < 0x10000; h++) {
        __half x = __ushort_as_half((unsigned short)h);
        float f = __half2float(x);
        if (std::isnan(f)) { bad += (h & 0x7c00) != 0x7c00; continue; }
        bad += __half_as_ushort(__float2half(f)) != h;
    }
    report("half_round_trip", bad == 0, "%d of 65536 bit patterns", bad);
    report("half_ties_to_even",
           __half_as_ushort(__float2half(1.0f + ldexpf(1, -11))) == 0x3c00 &&
               __half_as_ushort(__float2half_rn(1.0f + 3 * ldexpf(1, -11))) == 0x3c02 &&
               __half_as_ushort(__float2half(65520.0f)) == 0x7c00 &&
               __half_as_ushort(__float2half(65519.0f)) == 0x7bff &&
               __half_as_ushort(__float2half(ldexpf(3, -26))) == 0x0001,
           "wrong rounding");
    report("half_arithmetic",
           (float)__hadd(__float2half(2048.0f), __float2half(1.0f)) == 2048.0f &&
               (float)__hmul(__float2half(3.0f), __float2half(0.5f)) == 1.5f &&
               (float)(__float2half(1.5f) - __float2half(0.25f)) == 1.25f,
           "2048 + 1 must round to 2048 in half");

    /* A random tile product against double, within the tensor-core bound
     * 4 gamma_16 sum |terms| (the lab's), and not exact. */
    unsigned state = 99;
    auto next = [&] { state = state * 1664525u + 1013904223u; return (state >> 8) / 16777216.0f; };
    std::vector<half> ha(256), hb(256), hbt(256);
    std::vector<float> hc0(256);
    for (int i = 0; i < 256; i++) {
        ha[i] = __float2half(ldexpf(next() * 2 - 1, (int)(next() * 12) - 6));
        hb[i] = __float2half(ldexpf(next() * 2 - 1, (int)(next() * 12) - 6));
        hc0[i] = next() * 100;
    }
    for (int r = 0; r < 16; r++)
        for (int col = 0; col < 16; col++) hbt[col * 16 + r] = hb[r * 16 + col];
    half *da = upload(ha), *db = upload(hb), *dbt = upload(hbt);
    float *dc0 = upload(hc0), *dc;
    cudaMalloc(&dc, 256 * sizeof(float));
    double u = ldexp(1.0, -24), gamma = 17 * u / (1 - 17 * u);
    const char *names[4] = {"mma_row_b_row_store", "mma_row_b_col_store", "mma_col_b_row_store",
                            "mma_col_b_col_store"};
    for (int variant = 0; variant < 4; variant++) {
        int b_col = variant / 2, store_col = variant % 2;
        tile_product<<<1, 32>>>(da, b_col ? dbt : db, dc0, dc, b_col, store_col, 1.0f);
        std::vector<float> got = download(dc, 256);
        double worst = 0;
        for (int r = 0; r < 16; r++)
            for (int col = 0; col < 16; col++) {
                double exact = hc0[r * 16 + col], abs_sum = fabs(exact);
                for (int k = 0; k < 16; k++) {
                    double t = (double)(float)ha[r * 16 + k] * (float)hb[k * 16 + col];
                    exact += t;
                    abs_sum += fabs(t);
                }
                float g = store_col ? got[col * 16 + r] : got[r * 16 + col];
                worst = fmax(worst, fabs(g - exact) / (4 * gamma * abs_sum));
            }
        report(names[variant], worst <= 1 && worst > 0, "worst |error| / bound %.3g", worst);
    }
    tile_product<<<1, 32>>>(da, db, dc0, dc, 0, 0, 1.0f);
    std::vector<float> plain = download(dc, 256);
    tile_product<<<1, 32>>>(da, db, dc0, dc, 0, 0, 2.0f);
    std::vector<float> doubled = download(dc, 256);
    bad = 0;
    for (int i = 0; i < 256; i++) bad += doubled[i] != 2 * plain[i];
    report("elementwise_x_covers_the_tile", bad == 0, "%d of 256 elements not scaled", bad);

    /* Truncation: C = 1, four products of 0.75 * 2^-23 in the first block
     * of k: each is cut to 0 below the accumulator's last bit, so C stays
     * 1 where round-to-nearest float adds would give 1 + 2^-22. */
    std::vector<half> ta(256, __float2half(0.0f)), tb(256, __float2half(0.0f));
    std::vector<float> tc(256, 1.0f);
    for (int k = 0; k < 4; k++) {
        ta[k] = __float2half(0.75f * ldexpf(1, -12));
        tb[k * 16] = __float2half(ldexpf(1, -11));
    }
    half *dta = upload(ta), *dtb = upload(tb);
    float *dtc = upload(tc);
    tile_product<<<1, 32>>>(dta, dtb, dtc, dc, 0, 0, 1.0f);
    float c00 = download(dc, 1)[0];
    report("truncates_below_the_largest_term", c00 == 1.0f, "C[0][0] = %a", c00);

    /* A half accumulator and a column-major A: A^T B, rounded to half. */
    std::vector<half> ia(256), ib(256);
    for (int i = 0; i < 256; i++) {
        ia[i] = __float2half((float)(i % 7) - 3);
        ib[i] = __float2half((float)(i % 5) - 2);
    }
    half *dia = upload(ia), *dib = upload(ib), *dh;
    cudaMalloc(&dh, 256 * sizeof(half));
    half_accumulator<<<1, 32>>>(dia, dib, dh);
    std::vector<half> hh = download(dh, 256);
    bad = 0;
    for (int r = 0; r < 16; r++)
        for (int col = 0; col < 16; col++) {
            float want = 0;
            for (int k = 0; k < 16; k++) want += (float)ia[k * 16 + r] * (float)ib[k * 16 + col];
            bad += (float)hh[r * 16 + col] != want;
        }
    report("half_accumulator_col_major_a", bad == 0, "%d of 256 wrong", bad);
    report("no_errors", cudaDeviceSynchronize() == cudaSuccess, "a kernel failed");
    return failures ? 1 : 0;
}
