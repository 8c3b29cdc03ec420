/* test_symbols.c - the allowlist of what graded code may call. */
#include <string.h>

#include "check.h"
#include "symbols.h"

static const lab_forbidden NO_CUB[4] = {{"cub::", "CUB", "/cub/", NULL}, {"cublas", "cuBLAS", "/cublas", NULL}};

static int allowed(char type, const char *name)
{
    return sym_judge(type, name, 0, NO_CUB, 4) == NULL;
}

static void the_cuda_runtime_and_compiler_support_are_allowed(void)
{
    CHECK(allowed('U', "cudaGetLastError"));
    CHECK(allowed('U', "cudaMemsetAsync"));
    CHECK(allowed('U', "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags"));
    CHECK(allowed('U', "__cudaRegisterFunction"));
    CHECK(allowed('U', "__cudaPushCallConfiguration"));
    CHECK(allowed('U', "__cxa_guard_acquire"));
    CHECK(allowed('U', "_Unwind_Resume"));
    CHECK(allowed('U', "operator new(unsigned long)"));
    CHECK(allowed('U', "sqrtf"));
    CHECK(allowed('U', "ceil"));
    CHECK(allowed('U', "log2l"));
    CHECK(allowed('U', "printf"));
    CHECK(allowed('U', "malloc"));
    CHECK(allowed('U', "exit"));
    CHECK(allowed('U', "std::ios_base_library_init()"));
    CHECK(allowed('U', "__popcountdi2")); /* __popc in the emulation, on x86-64 */
    CHECK(allowed('U', "__udivti3"));
    CHECK(allowed('T', "reduce_sum"));
    CHECK(allowed('t', "block_partials(float const*, int, int, float*)"));
}

static void files_processes_clocks_and_threads_are_not(void)
{
    CHECK(!allowed('U', "fopen"));
    CHECK(strstr(sym_judge('U', "fopen", 0, NO_CUB, 4), "files") != NULL);
    CHECK(!allowed('U', "system"));
    CHECK(!allowed('U', "clock_gettime"));
    CHECK(strstr(sym_judge('U', "clock_gettime", 0, NO_CUB, 4), "clock") != NULL);
    CHECK(!allowed('U', "std::chrono::_V2::steady_clock::now()"));
    CHECK(!allowed('U', "pthread_create"));
    CHECK(!allowed('U', "getenv"));
    CHECK(!allowed('U', "dlopen"));
    CHECK(!allowed('U', "sqrtx"));       /* not a math function, just close */
    CHECK(!allowed('U', "cudaDeviceReset"));
    CHECK(!allowed('U', "cudaEventElapsedTime"));
    CHECK(!allowed('U', "curand_init")); /* not the runtime: no upper case after cuda */
}

/* Calls that would hand graded code what the list refuses by another
 * road: the driver's own functions by name, host code the driver calls. */
static void the_roads_around_the_refused_calls_are_refused(void)
{
    CHECK(strstr(sym_judge('U', "cudaGetDriverEntryPoint", 0, NO_CUB, 4), "driver's own calls"));
    CHECK(strstr(sym_judge('U', "cudaGetDriverEntryPointByVersion_ptsz", 0, NO_CUB, 4), "driver"));
    CHECK(!allowed('U', "cudaGetExportTable"));
    CHECK(strstr(sym_judge('U', "cudaLogsRegisterCallback", 0, NO_CUB, 4), "host code later"));
    CHECK(!allowed('U', "cudaDeviceRegisterAsyncNotification"));
    CHECK(strstr(sym_judge('U', "cudaMemPoolImportPointer", 0, NO_CUB, 4), "other processes"));
    CHECK(allowed('U', "cudaLogsDumpToMemory"));
    CHECK(allowed('U', "cudaMemPoolCreate"));
}

static void main_and_forbidden_libraries_are_rejected_defined_or_not(void)
{
    CHECK(!allowed('T', "main"));
    CHECK(strstr(sym_judge('T', "main", 0, NO_CUB, 4), "owns main") != NULL);
    CHECK(allowed('T', "mainly_harmless()"));
    CHECK(!allowed('W', "cub::CUB_300000_SM_900::DeviceReduce::Sum(void*)"));
    CHECK(!allowed('U', "cublasSdot_v2"));
    CHECK(strstr(sym_judge('U', "cublasSdot_v2", 0, NO_CUB, 4), "forbids") != NULL);
    /* CUB_WRAPPED_NAMESPACE, or a namespace of one's own around it. */
    CHECK(strstr(sym_judge('U', "sneaky::cub::DeviceReduce::Sum(void*)", 0, NO_CUB, 4), "forbids"));
    CHECK(strstr(sym_judge('U', "mycub::cub::DeviceReduce::Sum(void*)", 0, NO_CUB, 4), "forbids"));
    CHECK(!strstr(sym_judge('U', "mycub::sum(float*)", 0, NO_CUB, 4), "forbids"));
    /* Without the lab's list, cuBLAS is simply not on the allowlist. */
    CHECK(sym_judge('U', "cublasSdot_v2", 0, NULL, 0) != NULL);
}

static void the_emulation_runtime_is_allowed_only_in_emulation(void)
{
    const char *run = "emu::run_kernel(emu::launch_request const&, void (*)(void*), void*)";
    CHECK(sym_judge('U', run, 1, NO_CUB, 4) == NULL);
    CHECK(sym_judge('U', run, 0, NO_CUB, 4) != NULL);
}

const unit_test symbols_tests[] = {
    {"symbols_cuda_runtime_and_compiler_support_are_allowed",
     the_cuda_runtime_and_compiler_support_are_allowed},
    {"symbols_files_processes_clocks_and_threads_are_not",
     files_processes_clocks_and_threads_are_not},
    {"symbols_the_roads_around_the_refused_calls_are_refused",
     the_roads_around_the_refused_calls_are_refused},
    {"symbols_main_and_forbidden_libraries_are_rejected",
     main_and_forbidden_libraries_are_rejected_defined_or_not},
    {"symbols_emulation_runtime_only_in_emulation",
     the_emulation_runtime_is_allowed_only_in_emulation},
};
const int symbols_tests_count = sizeof symbols_tests / sizeof *symbols_tests;
