/* counts.c - what the CPU emulation counted of a student's kernels, told
 * the way a GPU's counters would (common/emu/include/emu/emu_counters.h):
 * a warp's global load or store is one request for some 32-byte sectors;
 * a shared one takes as many passes as the busiest bank has words to
 * deliver. The right stage shows them once the work is right, so that a
 * correct but slow kernel already says where its time goes, before any
 * GPU times it. */
#include <stdio.h>

#include "counts.h"

static const char *const KIND_NAMES[PROTO_ACCESS_KINDS] = {"global loads", "global stores", "shared loads",
                                                          "shared stores"};

void counts_describe(const proto_counts *c, const lab_spec *spec, const lab_case *at, strbuf *out)
{
    if (c->n_kernels == 0) return;
    char where[160] = "";
    size_t used = 0;
    for (int d = 0; d < spec->n_dims && used < sizeof where; d++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%s = %lld", d ? ", " : "",
                                 spec->dim_names[d], (long long)at->dims[d]);
    sb_printf(out, "memory, as a GPU's counters would see your kernels (CPU emulation at %s, at most the "
                   "first %d blocks of each launch; information, not graded):\n",
              where, COUNTS_MAX_BLOCKS);
    for (int k = 0; k < c->n_kernels; k++) {
        const proto_kernel_count *kc = &c->kernel[k];
        sb_printf(out, "  %s:", kc->name);
        const char *sep = "";
        for (int i = 0; i < PROTO_ACCESS_KINDS; i++) {
            if (kc->requests[i] == 0) continue;
            double per = (double)kc->units[i] / (double)kc->requests[i];
            if (i < 2)
                sb_printf(out, "%s %s %.1f sectors per request (%.0f%% of their bytes used)", sep,
                          KIND_NAMES[i], per, 100.0 * (double)kc->bytes[i] / (32.0 * (double)kc->units[i]));
            else
                sb_printf(out, "%s %s %.1f passes per request%s", sep, KIND_NAMES[i], per,
                          per > 1.0 ? " (bank conflicts)" : "");
            sep = ";";
        }
        sb_printf(out, "%s\n", *sep ? "" : " no global or shared memory access");
    }
    if (c->more_kernels > 0) sb_printf(out, "  and %d more kernels\n", c->more_kernels);
    sb_printf(out, "  (a warp reading 32 neighbouring floats needs 4 sectors, float4s 16; 32 floats a row "
                   "apart need 32; one pass per shared request means no bank conflict; `make counts` "
                   "shows them any time)\n");
}
