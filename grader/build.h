/* build.h - building the runner from the submission (build.c). */
#ifndef BUILD_H
#define BUILD_H

#include "grade.h"
#include "isolate.h"

typedef struct {
    const char *nvcc, *arch, *include_dir, *objects_dir;
    /* The CPU emulation: the runtime and rewriter, and the trusted objects
     * compiled for it. */
    const char *emu_dir, *emu_objects_dir;
    /* Ladders only: the solution's own folder, so ladder.cu can include the
     * reference solution instead of repeating it, and the grader's headers
     * for lab_ladder. Never set for grading. */
    const char *source_dir, *grader_dir;
    /* What each compiler step may use (time, memory, file size, output). */
    iso_limits limits;
    /* Where runners of earlier builds are kept (build_cache.h), or NULL. */
    const char *cache_dir;
} build_config;
/* Compile the submission (with nvcc, or for the CPU when g->emulated),
 * check what it reads, calls and defines, and link the runner into
 * scratch. Returns 0 on success; BUILD_FAILED with the compiler's output
 * in *log, BUILD_REJECTED with the broken rule in *log, BUILD_LIMITED when
 * a step passed a limit (all three the submission's doing), or
 * BUILD_BROKEN when the grader's own side failed (caller frees *log). */
enum { BUILD_FAILED = -1, BUILD_REJECTED = -2, BUILD_LIMITED = -3, BUILD_BROKEN = -4 };
int build_runner(const build_config *b, grade_ctx *g, char *runner,
                 size_t runner_size, char **log);

/* The CUDA feature the CPU emulation cannot build yet that a failed
 * emulated build's messages show ("cooperative groups"), or NULL. */
const char *build_emulation_lacks(const char *log);

#endif
