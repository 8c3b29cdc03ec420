/* counters.h - the hardware counters the labs' specs name for `make
 * profile` (lab_spec.counters), each with its Nsight Compute metric in one
 * place. A lab writes COUNTER_DRAM("sentence tied to its lesson"). */
#ifndef COUNTERS_H
#define COUNTERS_H

#include "lab_spec.h"

/* Memory. */
#define COUNTER_DRAM(lesson)                                                                   \
    {"DRAM throughput, % of peak", COUNTER_AVERAGE,                                            \
     "dram__throughput.avg.pct_of_peak_sustained_elapsed", NULL, lesson}
/* Weighted by each kernel's requests: a call whose kernels make no plain
 * global loads (cp.async, say) shows "-", not 0. */
#define COUNTER_LOAD_SECTORS(lesson)                                                           \
    {"global loads: % of each sector's bytes used", COUNTER_AVERAGE,                           \
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",                          \
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", lesson}
#define COUNTER_STORE_SECTORS(lesson)                                                          \
    {"global stores: % of each sector's bytes used", COUNTER_AVERAGE,                          \
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",                          \
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", lesson}
#define COUNTER_SHARED_LOAD_PASSES(lesson)                                                     \
    {"shared loads: passes per instruction (ideal: 1, float4: 4)", COUNTER_RATIO,             \
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",                                   \
     "smsp__sass_inst_executed_op_shared_ld.sum", lesson}
#define COUNTER_SHARED_STORE_PASSES(lesson)                                                    \
    {"shared stores: passes per instruction (ideal: 1, float4: 4)", COUNTER_RATIO,            \
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",                                   \
     "smsp__sass_inst_executed_op_shared_st.sum", lesson}
#define COUNTER_L1_HITS(lesson)                                                                \
    {"L1 hit rate, % of sectors", COUNTER_AVERAGE, "l1tex__t_sector_hit_rate.pct", NULL, lesson}

/* Instructions. */
#define COUNTER_WARP_INSTRUCTIONS(lesson)                                                      \
    {"warp instructions, millions", COUNTER_MILLIONS, "smsp__inst_executed.sum", NULL, lesson}
#define COUNTER_ACTIVE_THREADS(lesson)                                                         \
    {"threads active per warp instruction (32 = no divergence)", COUNTER_RATIO,                \
     "smsp__thread_inst_executed.sum", "smsp__inst_executed.sum", lesson}
#define COUNTER_FMA_PIPE(lesson)                                                               \
    {"FMA pipe busy, % of peak", COUNTER_AVERAGE,                                              \
     "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", NULL, lesson}
#define COUNTER_TENSOR_PIPE(lesson)                                                            \
    {"tensor pipe busy, % of peak", COUNTER_AVERAGE,                                           \
     "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", NULL, lesson}

/* Occupancy. */
#define COUNTER_OCCUPANCY(lesson)                                                              \
    {"achieved occupancy, % of the SM's warp slots", COUNTER_AVERAGE,                          \
     "sm__warps_active.avg.pct_of_peak_sustained_active", NULL, lesson}
#define COUNTER_REGISTERS(lesson)                                                              \
    {"registers per thread", COUNTER_AVERAGE, "launch__registers_per_thread", NULL, lesson}

#endif
