/* resources.c - registers and spills from the compiler's report.
 *
 * ptxas -v writes, for every kernel (entry function) it compiles:
 *   ptxas info    : Compiling entry function '_Z6kernelPfi' for 'sm_90'
 *   ptxas info    : Function properties for _Z6kernelPfi
 *       16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads
 *   ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem
 * Non-entry (device) functions get "Function properties" too but no
 * "Compiling entry function" line, so they are not listed.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"
#include "resources.h"

/* The number just before `word` in line, or -1. */
static long number_before(const char *line, const char *word)
{
    const char *at = strstr(line, word);
    if (!at) return -1;
    const char *p = at;
    while (p > line && p[-1] == ' ') p--;
    const char *end = p;
    while (p > line && p[-1] >= '0' && p[-1] <= '9') p--;
    return p < end ? strtol(p, NULL, 10) : -1;
}

int res_parse_ptxas(const char *log, res_list *out)
{
    memset(out, 0, sizeof *out);
    res_kernel *cur = NULL;
    const char *line = log;
    while (line && *line) {
        const char *next = strchr(line, '\n');
        size_t len = next ? (size_t)(next - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        const char *entry = strstr(buf, "Compiling entry function '");
        if (entry && out->n < RES_MAX_KERNELS) {
            cur = &out->k[out->n++];
            entry += strlen("Compiling entry function '");
            size_t n = strcspn(entry, "'");
            snprintf(cur->name, sizeof cur->name, "%.*s", (int)n, entry);
        } else if (entry) {
            cur = NULL; /* more kernels than we keep */
        } else if (cur && strstr(buf, "bytes stack frame")) {
            cur->stack_bytes = number_before(buf, "bytes stack frame");
            cur->spill_store_bytes = number_before(buf, "bytes spill stores");
            cur->spill_load_bytes = number_before(buf, "bytes spill loads");
        } else if (cur && strstr(buf, "Used ") && strstr(buf, " registers")) {
            cur->registers = (int)number_before(buf, "registers");
            long smem = number_before(buf, "bytes smem");
            cur->shared_bytes = smem > 0 ? smem : 0;
            cur = NULL; /* this kernel's report is complete */
        }
        line = next ? next + 1 : NULL;
    }
    return out->n;
}

void res_demangle(res_list *list, const char *scratch)
{
    if (list->n == 0) return;
    char log[512];
    snprintf(log, sizeof log, "%s/demangle.log", scratch);
    remove(log);
    char *argv[RES_MAX_KERNELS + 2];
    argv[0] = "c++filt";
    for (int i = 0; i < list->n; i++) argv[i + 1] = list->k[i].name;
    argv[list->n + 1] = NULL;
    iso_result ir;
    if (iso_run(argv, log, 30, &ir) != 0 || !ir.exited || ir.exit_code != 0) return;
    FILE *f = fopen(log, "r");
    if (!f) return;
    /* Only a complete answer, one line per name, replaces the names. */
    char names[RES_MAX_KERNELS][RES_NAME_LEN];
    int n = 0;
    char line[1024];
    while (n < list->n && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(names[n++], RES_NAME_LEN, "%s", line);
    }
    fclose(f);
    if (n == list->n)
        for (int i = 0; i < n; i++) snprintf(list->k[i].name, RES_NAME_LEN, "%s", names[i]);
}

int res_warps_by_registers(int registers, int regs_per_sm, int partitions, int unit,
                           int max_warps)
{
    if (registers <= 0) return max_warps;
    if (partitions <= 0 || unit <= 0) return 0;
    int per_warp = (registers * 32 + unit - 1) / unit * unit;
    int warps = partitions * (regs_per_sm / partitions / per_warp);
    return warps < max_warps ? warps : max_warps;
}

void res_describe(const res_list *list, int regs_per_sm, int max_warps, strbuf *out)
{
    for (int i = 0; i < list->n; i++) {
        const res_kernel *k = &list->k[i];
        int warps = res_warps_by_registers(k->registers, regs_per_sm, SM_SCHEDULERS, 256, max_warps);
        long spilled = k->spill_store_bytes + k->spill_load_bytes;
        sb_printf(out, "kernel %s: %d registers per thread", k->name, k->registers);
        if (spilled > 0)
            sb_printf(out, ", SPILLS (%ld bytes stored, %ld loaded per thread)",
                      k->spill_store_bytes, k->spill_load_bytes);
        else
            sb_printf(out, ", no spills");
        if (k->stack_bytes > 0) sb_printf(out, ", %ld-byte stack frame", k->stack_bytes);
        if (k->shared_bytes > 0) sb_printf(out, ", %ld bytes of static shared memory",
                                           k->shared_bytes);
        if (regs_per_sm > 0 && max_warps > 0)
            sb_printf(out, "; registers allow %d of %d warps per SM (%.0f%% occupancy)", warps,
                      max_warps, 100.0 * warps / max_warps);
        sb_printf(out, "\n");
    }
}

int res_check(const res_list *list, int max_registers, int no_spills, char *why,
              size_t size)
{
    for (int i = 0; i < list->n; i++) {
        const res_kernel *k = &list->k[i];
        if (max_registers > 0 && k->registers > max_registers) {
            snprintf(why, size, "kernel %s uses %d registers per thread; this lab allows %d",
                     k->name, k->registers, max_registers);
            return 0;
        }
        if (no_spills && k->spill_store_bytes + k->spill_load_bytes > 0) {
            snprintf(why, size, "kernel %s spills registers to local memory (%ld bytes "
                     "stored, %ld loaded per thread)", k->name, k->spill_store_bytes,
                     k->spill_load_bytes);
            return 0;
        }
    }
    return 1;
}
