/* test_resources.c - reading registers and spills from ptxas's report, and
 * the occupancy registers allow. */
#include <string.h>

#include "check.h"
#include "resources.h"

/* Shaped like nvcc 13's -Xptxas=-v output, with a device function and a
 * warning between the kernels. */
static const char *const PTXAS_LOG =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Function properties for _Z6helperf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function '_Z1kILi2EEvPfi' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z1kILi2EEvPfi\n"
    "    256 bytes stack frame, 24 bytes spill stores, 16 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 0 barriers, 256 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 28.282 ms\n"
    "file.cu(3): warning #177-D: variable \"x\" was declared but never referenced\n"
    "ptxas info    : Compiling entry function '_Z1jPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z1jPf\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem\n";

static void parses_every_kernel_and_only_kernels(void)
{
    res_list r;
    CHECK(res_parse_ptxas(PTXAS_LOG, &r) == 2);
    CHECK(strcmp(r.k[0].name, "_Z1kILi2EEvPfi") == 0);
    CHECK(r.k[0].registers == 255);
    CHECK(r.k[0].stack_bytes == 256);
    CHECK(r.k[0].spill_store_bytes == 24 && r.k[0].spill_load_bytes == 16);
    CHECK(r.k[0].shared_bytes == 0);
    CHECK(strcmp(r.k[1].name, "_Z1jPf") == 0);
    CHECK(r.k[1].registers == 40 && r.k[1].shared_bytes == 1024);
    CHECK(r.k[1].spill_store_bytes == 0 && r.k[1].stack_bytes == 0);
}

static void a_log_without_kernels_lists_none(void)
{
    res_list r;
    CHECK(res_parse_ptxas("ptxas info    : 0 bytes gmem\n", &r) == 0);
    CHECK(res_parse_ptxas("", &r) == 0);
}

/* Figures of the CUDA occupancy calculator for compute capability 9.0:
 * 65536 registers, 4 partitions, 256-register units, 64 warps. */
static void registers_limit_warps_like_the_calculator(void)
{
    CHECK(res_warps_by_registers(32, 65536, 4, 256, 64) == 64);
    CHECK(res_warps_by_registers(40, 65536, 4, 256, 64) == 48);
    CHECK(res_warps_by_registers(64, 65536, 4, 256, 64) == 32);
    CHECK(res_warps_by_registers(72, 65536, 4, 256, 64) == 28);
    CHECK(res_warps_by_registers(128, 65536, 4, 256, 64) == 16);
    CHECK(res_warps_by_registers(255, 65536, 4, 256, 64) == 8);
    CHECK(res_warps_by_registers(16, 65536, 4, 256, 48) == 48);
}

static void limits_name_the_kernel_that_breaks_them(void)
{
    res_list r;
    res_parse_ptxas(PTXAS_LOG, &r);
    char why[300] = "";
    CHECK(res_check(&r, 0, 0, why, sizeof why) == 1);
    CHECK(res_check(&r, 0, 1, why, sizeof why) == 0);
    CHECK(strstr(why, "_Z1kILi2EEvPfi") && strstr(why, "spills"));
    CHECK(res_check(&r, 64, 0, why, sizeof why) == 0);
    CHECK(strstr(why, "255 registers") && strstr(why, "allows 64"));
    r.k[0].registers = 32;
    r.k[0].spill_store_bytes = r.k[0].spill_load_bytes = 0;
    CHECK(res_check(&r, 40, 1, why, sizeof why) == 1);
    CHECK(res_check(&r, 39, 1, why, sizeof why) == 0);
    CHECK(strstr(why, "_Z1jPf") != NULL);
}

static void the_description_shows_spills_and_occupancy(void)
{
    res_list r;
    res_parse_ptxas(PTXAS_LOG, &r);
    strbuf b = {0};
    res_describe(&r, 65536, 64, &b);
    const char *s = sb_str(&b);
    CHECK(strstr(s, "255 registers per thread, SPILLS (24 bytes stored, 16 loaded") != NULL);
    CHECK(strstr(s, "8 of 64 warps per SM (12% occupancy)") != NULL);
    CHECK(strstr(s, "40 registers per thread, no spills") != NULL);
    CHECK(strstr(s, "48 of 64 warps per SM (75% occupancy)") != NULL);
    sb_free(&b);
}

const unit_test resources_tests[] = {
    {"resources_parses_every_kernel_and_only_kernels", parses_every_kernel_and_only_kernels},
    {"resources_log_without_kernels_lists_none", a_log_without_kernels_lists_none},
    {"resources_registers_limit_warps_like_the_calculator",
     registers_limit_warps_like_the_calculator},
    {"resources_limits_name_the_kernel_that_breaks_them",
     limits_name_the_kernel_that_breaks_them},
    {"resources_description_shows_spills_and_occupancy",
     the_description_shows_spills_and_occupancy},
};
const int resources_tests_count = sizeof resources_tests / sizeof *resources_tests;
