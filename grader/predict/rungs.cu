/* rungs.cu - every rung of a lab's solution ladder, called once each on the
 * grader's public inputs (seed 1) at one size. One file, built two ways:
 *
 *   for the CPU emulation with its counting hooks (`make counts LAB=NN
 *   LADDER=1`, grader/predict/predict.sh): prints what each rung's kernels
 *   would show on a GPU's counters: global sectors per request and shared
 *   passes per request;
 *
 *   natively (tests/ncu_rungs.sh, under Nsight Compute): launches an empty
 *   kernel, rung_boundary, before each rung, so that the profiler's list of
 *   kernels can be cut into rungs and its counts set beside the
 *   emulation's.
 *
 * usage: rungs [--raw] [DIM ...]   (the sizes in the spec's order; default:
 *                                   work's largest size)
 * --raw prints one line per rung and kind of access, "RUNG KIND REQUESTS
 * UNITS" (sectors for global, passes for shared), for the comparison.
 * Exit 0 when every rung ran, 1 when one failed, 2 on bad arguments. */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "lab_inputs.h"
#include "lab_spec.h"
#ifdef CUDA_EMU
#include <emu/emu_counters.h>
#endif

extern "C" const lab_device LAB_DEVICE;
extern "C" const lab_ladder LAB_LADDER;

__global__ void rung_boundary(int rung)
{
    (void)rung; /* only its place in the list of launches matters */
}

namespace {

#ifdef CUDA_EMU
void print_counts(const char *rung, bool raw)
{
    emu::kernel_count k;
    if (!emu::counters_of(nullptr, &k)) {
        std::printf(raw ? "%s none 0 0\n" : "%s: no kernel launched\n", rung);
        return;
    }
    const struct {
        const char *kind, *what;
        const emu::memory_count *m;
        bool shared;
    } rows[] = {{"global_load", "global loads ", &k.global_load, false},
                {"global_store", "global stores", &k.global_store, false},
                {"shared_load", "shared loads ", &k.shared_load, true},
                {"shared_store", "shared stores", &k.shared_store, true}};
    if (!raw) std::printf("%s: %llu launch%s\n", rung, k.launches, k.launches == 1 ? "" : "es");
    for (const auto &r : rows) {
        unsigned long long units = emu::memory_units(*r.m, r.shared);
        if (raw) {
            std::printf("%s %s %llu %llu\n", rung, r.kind, r.m->requests, units);
        } else if (r.m->requests) {
            std::printf("  %s %6.2f %s per request (%llu requests)\n", r.what,
                        (double)units / (double)r.m->requests, r.shared ? "passes " : "sectors",
                        r.m->requests);
        }
    }
}
#endif

} // namespace

int main(int argc, char **argv)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    bool raw = argc > 1 && !std::strcmp(argv[1], "--raw");
    int first_dim = raw ? 2 : 1;
    lab_case c{};
    if (argc > first_dim) {
        if (!lab_sizes_from(spec, argc, argv, first_dim, &c, "rungs")) return 2;
    } else {
        const lab_case *largest = lab_largest_work_case(spec);
        if (!largest) {
            std::fprintf(stderr, "rungs: lab %s has no work sizes\n", spec->id);
            return 2;
        }
        c = *largest;
    }
    if (!raw) {
        lab_print_sizes(spec, c, "the ladder's rungs at");
        std::printf(", every block counted:\n");
    }

    lab_inputs in{spec, c, "rungs"};
    if (!in.make()) return 1;

    int status = 0;
    for (int r = 0; r < LAB_LADDER.n; r++) {
        const lab_rung &rung = LAB_LADDER.rungs[r];
        if (!in.zero_outputs()) return 1;
#ifdef CUDA_EMU
        emu::counters_start(0);
#else
        rung_boundary<<<1, 1>>>(r);
        if (!in.checked(cudaGetLastError(), "the boundary launch")) return 1;
#endif
        cudaError_t e = (cudaError_t)rung.call(in.ptr.data(), c.dims, nullptr);
        cudaError_t sync = cudaDeviceSynchronize();
        if (e != cudaSuccess || sync != cudaSuccess) {
            std::fprintf(stderr, "rungs: %s failed: %s\n", rung.name,
                         cudaGetErrorString(e != cudaSuccess ? e : sync));
            status = 1;
            continue;
        }
#ifdef CUDA_EMU
        print_counts(rung.name, raw);
#else
        std::printf("%s\n", rung.name);
#endif
    }
    return status;
}
