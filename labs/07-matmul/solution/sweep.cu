/* Lab 07's tile sweep: how the reference's sizes were chosen.
 *
 * The reference kernel (matmul.cu) is a template over its tile sizes
 * (mm_tiling: block tile BM x BN, depth BK, warp tile WM x WN, the warp's
 * lanes as LANE_ROWS rows, STAGES buffers). This program times a handful
 * of choices at m = n = k = 4096 against cuBLAS SGEMM in the same run and
 * prints one line each; the reference takes the winner. On another GPU,
 * run it again: the best sizes depend on registers, shared memory and
 * clocks.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Igrader -Icommon -lcublas \
 *       labs/07-matmul/solution/sweep.cu -o sweep && ./sweep
 *
 * Each choice is checked against cuBLAS's answer first (largest |difference|
 * over largest |C| below 1e-4), then timed: 3 calls to warm up, then the
 * median of 20, each between a pair of events. cuBLAS is timed first and
 * last: the two lines show how far the clocks drifted meanwhile. */
#include "matmul.cu"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>

#define SWEEP_CHECK(call)                                                                     \
    do {                                                                                      \
        cudaError_t e_ = (call);                                                              \
        if (e_ != cudaSuccess) {                                                              \
            std::fprintf(stderr, "sweep: %s: %s\n", #call, cudaGetErrorString(e_));           \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)
#define SWEEP_CHECK_BLAS(call)                                                                \
    do {                                                                                      \
        if ((call) != CUBLAS_STATUS_SUCCESS) {                                                \
            std::fprintf(stderr, "sweep: %s failed\n", #call);                                \
            std::exit(1);                                                                     \
        }                                                                                     \
    } while (0)

namespace {

const int N = 4096, WARM = 3, REPS = 20;

typedef cudaError_t (*launch_fn)(const float *, const float *, float *, int, int, int, cudaStream_t);

struct choice {
    launch_fn launch;
    int bm, bn, bk, wm, wn, lane_rows, stages;
    bool reference;
};

template <class T>
cudaError_t run(const float *a, const float *b, float *c, int m, int n, int k, cudaStream_t s)
{
    return mm_launch_warp_tiled_as<T, true>(a, b, c, m, n, k, s); /* 4096: B's rows are aligned */
}
template <class T> choice make_choice()
{
    return {run<T>, T::BM, T::BN, T::BK, T::WM, T::WN, T::LANE_ROWS, T::STAGES,
            std::is_same<T, mm_reference_tiling>::value};
}

/* The reference's sizes and, around them, one step away in each. */
const choice CHOICES[] = {
    make_choice<mm_tiling<128, 128, 8, 32, 64, 4, 2, 2>>(),
    make_choice<mm_tiling<128, 128, 16, 32, 64, 4, 3, 2>>(),
    make_choice<mm_tiling<128, 128, 16, 32, 64, 4, 4, 2>>(),
    make_choice<mm_tiling<128, 64, 16, 32, 64, 4, 3, 4>>(),
    make_choice<mm_reference_tiling>(),
    make_choice<mm_tiling<128, 128, 16, 64, 64, 4, 3, 2>>(),
    make_choice<mm_tiling<128, 128, 32, 64, 64, 8, 3, 2>>(),
    make_choice<mm_tiling<128, 256, 16, 64, 64, 8, 3, 1>>(),
    make_choice<mm_tiling<256, 128, 16, 64, 64, 8, 3, 1>>(),
};

template <class F> double median_ms(F call)
{
    cudaEvent_t start, stop;
    SWEEP_CHECK(cudaEventCreate(&start));
    SWEEP_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < WARM; i++) call();
    std::vector<float> ms(REPS);
    for (int i = 0; i < REPS; i++) {
        SWEEP_CHECK(cudaEventRecord(start));
        call();
        SWEEP_CHECK(cudaEventRecord(stop));
        SWEEP_CHECK(cudaEventSynchronize(stop));
        SWEEP_CHECK(cudaEventElapsedTime(&ms[i], start, stop));
    }
    SWEEP_CHECK(cudaEventDestroy(start));
    SWEEP_CHECK(cudaEventDestroy(stop));
    std::sort(ms.begin(), ms.end());
    return ms[REPS / 2];
}

} // namespace

int main()
{
    size_t count = (size_t)N * N, bytes = count * sizeof(float);
    std::vector<float> host(count), want(count), got(count);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    float *a, *b, *c;
    SWEEP_CHECK(cudaMalloc(&a, bytes));
    SWEEP_CHECK(cudaMalloc(&b, bytes));
    SWEEP_CHECK(cudaMalloc(&c, bytes));
    for (float *d : {a, b}) {
        for (float &v : host) v = uniform(rng);
        SWEEP_CHECK(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice));
    }

    cublasHandle_t handle;
    SWEEP_CHECK_BLAS(cublasCreate(&handle));
    SWEEP_CHECK_BLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)); /* FP32, no TF32 */
    const float one = 1.0f, zero = 0.0f;
    /* Row-major C = A B is column-major C^T = B^T A^T: B first. */
    auto vendor = [&] {
        SWEEP_CHECK_BLAS(
            cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N));
    };
    vendor();
    SWEEP_CHECK(cudaMemcpy(want.data(), c, bytes, cudaMemcpyDeviceToHost));
    float scale = 0.0f;
    for (float v : want) scale = std::max(scale, std::fabs(v));

    cudaDeviceProp p;
    SWEEP_CHECK(cudaGetDeviceProperties(&p, 0));
    double flop = 2.0 * N * (double)N * N;
    std::printf("%s, %d SMs; m = n = k = %d; median of %d calls after %d\n", p.name,
                p.multiProcessorCount, N, REPS, WARM);
    std::printf("%-46s %8s %9s %7s\n", "tile sizes", "ms", "GFLOP/s", "cuBLAS");
    double vendor_ms = median_ms(vendor);
    std::printf("%-46s %8.3f %9.0f %6.1f%%\n", "cuBLAS SGEMM (first)", vendor_ms, flop / vendor_ms / 1e6,
                100.0);
    for (const choice &ch : CHOICES) {
        char name[96];
        std::snprintf(name, sizeof name, "%dx%dx%d, warp %dx%d, lanes %dx%d, %d stages", ch.bm, ch.bn,
                      ch.bk, ch.wm, ch.wn, ch.lane_rows, 32 / ch.lane_rows, ch.stages);
        SWEEP_CHECK(cudaMemset(c, 0xff, bytes)); /* NaN: an output never written shows */
        SWEEP_CHECK(ch.launch(a, b, c, N, N, N, 0));
        SWEEP_CHECK(cudaMemcpy(got.data(), c, bytes, cudaMemcpyDeviceToHost));
        float worst = 0.0f;
        for (size_t i = 0; i < count; i++) {
            float d = std::fabs(got[i] - want[i]);
            worst = std::isnan(d) ? INFINITY : std::max(worst, d);
        }
        if (!(worst / scale < 1e-4f)) {
            std::printf("%-46s WRONG (largest difference %g of %g)\n", name, worst, scale);
            continue;
        }
        double ms = median_ms([&] { SWEEP_CHECK(ch.launch(a, b, c, N, N, N, 0)); });
        std::printf("%-46s %8.3f %9.0f %6.1f%%%s\n", name, ms, flop / ms / 1e6,
                    100.0 * vendor_ms / ms, ch.reference ? "  <- the reference" : "");
    }
    double again = median_ms(vendor);
    std::printf("%-46s %8.3f %9.0f %6.1f%%\n", "cuBLAS SGEMM (last)", again, flop / again / 1e6,
                100.0 * vendor_ms / again);
    SWEEP_CHECK_BLAS(cublasDestroy(handle));
    SWEEP_CHECK(cudaFree(a));
    SWEEP_CHECK(cudaFree(b));
    SWEEP_CHECK(cudaFree(c));
    return 0;
}
