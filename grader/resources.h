/* resources.h - what the compiled kernels use: registers, spills, shared
 * memory, read from the device compiler's own report (nvcc -Xptxas -v),
 * and the occupancy those registers allow.
 */
#ifndef RESOURCES_H
#define RESOURCES_H

#include <stddef.h>

#include "text.h"

enum { RES_MAX_KERNELS = 32, RES_NAME_LEN = 200 };

typedef struct {
    char name[RES_NAME_LEN]; /* demangled when c++filt is at hand */
    int registers;           /* per thread */
    long stack_bytes;        /* per-thread stack frame (local arrays, calls) */
    long spill_store_bytes, spill_load_bytes;
    long shared_bytes;       /* static shared memory per block */
} res_kernel;

typedef struct {
    int n;
    res_kernel k[RES_MAX_KERNELS];
} res_list;

/* Read ptxas's "-v" report (the compiler's log). Kernels are listed in the
 * order ptxas compiled them; anything else in the log is ignored. Returns
 * the number of kernels found. */
int res_parse_ptxas(const char *log, res_list *out);

/* Replace mangled names by readable ones with c++filt, when it runs. */
void res_demangle(res_list *list, const char *scratch);

/* Warp schedulers per SM on every GPU since Volta: each issues at most one
 * warp instruction per clock, and the register file is split among them. */
enum { SM_SCHEDULERS = 4 };

/* How many warps per SM the registers alone let be resident: the register
 * file is split among `partitions` schedulers (SM_SCHEDULERS), each warp
 * takes its registers in units of `unit` (256), and no SM holds more than
 * max_warps. 0 when the kernel cannot run at all. */
int res_warps_by_registers(int registers, int regs_per_sm, int partitions,
                           int unit, int max_warps);

/* One line per kernel: registers, spills, stack, shared memory and, when
 * regs_per_sm and max_warps are known, the occupancy the registers allow. */
void res_describe(const res_list *list, int regs_per_sm, int max_warps, strbuf *out);

/* 1 when every kernel keeps within the limits (max_registers 0: none);
 * otherwise 0 and the first broken limit in why. */
int res_check(const res_list *list, int max_registers, int no_spills, char *why,
              size_t size);

#endif
