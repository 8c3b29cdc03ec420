/* build.c - compile the submission against pristine trusted objects.
 *
 * The student's file is checked, copied alone into the scratch directory,
 * compiled there and linked with the trusted objects the Makefile built
 * from this repository (the runner, the lab's spec and CUDA side). Nothing
 * else from the student's folder takes part, so an edited spec or harness
 * there changes nothing.
 *
 * In order, each step able to reject the file with one sentence:
 *   1. the source: text, not too large, no #line (source_rules.h);
 *   2. what it reads: a preprocessor pass whose output is never shown
 *      lists every file the compile would read; each must be a header a
 *      student may include (so a compiler error cannot quote a file of
 *      the grading machine), and none a forbidden library's;
 *   3. the compile, capped in time, memory, file size and output;
 *   4. host code without inline assembly or names the compiler keeps for
 *      itself (the compiler's host-side translation, kept with --keep);
 *   5. what it calls (symbols.h) and defines (object_rules.h); then every
 *      symbol but the entry point is made local;
 *   6. the link, trusted objects first.
 * A file built before, unchanged, with nothing it read or was linked with
 * changed, is not built again (build_cache.h): its runner is reused.
 *
 * Two toolchains: nvcc for the GPU, or, for the CPU emulation, the launch
 * rewriter and g++ against common/emu. The flags match the Makefile's
 * NVFLAGS and EMU_CXXFLAGS for the trusted objects, less EMU_CXXFLAGS' -g:
 * nothing reads a graded file's debug information, and writing it took a
 * third of the compile (the precompiled headers serve both). A solution ladder is
 * the repository's own code and skips steps 1, 2, 4 and 5.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "build_cache.h"
#include "grade.h"
#include "isolate.h"
#include "object_rules.h"
#include "source_rules.h"
#include "symbols.h"

enum { MAX_ARGS = 64 };

/* An argv under construction; strings are copied so callers may pass
 * temporaries. */
typedef struct {
    int n;
    char *v[MAX_ARGS + 1];
} arg_list;

__attribute__((format(printf, 2, 3)))
static void arg(arg_list *a, const char *fmt, ...)
{
    if (a->n >= MAX_ARGS) return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)need + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)need + 1, fmt, ap);
    va_end(ap);
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void args_free(arg_list *a)
{
    for (int i = 0; i < a->n; i++) free(a->v[i]);
    a->n = 0;
}

/* Copy the submission, starting with a #line directive so the compiler's
 * messages name the student's own file, not the scratch copy. */
static int copy_source(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return -1;
    FILE *out = fopen(to, "wb");
    if (!out) { fclose(in); return -1; }
    fputs("#line 1 \"", out);
    for (const char *p = from; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', out);
        fputc(*p, out);
    }
    fputs("\"\n", out);
    char buf[1 << 16];
    size_t n;
    int ok = 1;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) ok &= fwrite(buf, 1, n, out) == n;
    ok &= !ferror(in);
    fclose(in);
    return (fclose(out) == 0 && ok) ? 0 : -1;
}

/* The trusted objects the Makefile builds for a lab, by name: whatever
 * else may lie in the folder is never linked. */
static int trusted_object(const char *name)
{
    static const char *const fixed[] = {"lab.o", "spec.o", "stats.o", "lab_spec.o", NULL};
    for (int i = 0; fixed[i]; i++)
        if (!strcmp(name, fixed[i])) return 1;
    size_t len = strlen(name);
    return !strncmp(name, "runner_", 7) && len > 9 && !strcmp(name + len - 2, ".o") &&
           strspn(name + 7, "abcdefghijklmnopqrstuvwxyz_") == len - 9;
}

/* Append the trusted objects, sorted so every build links in the same
 * order. Returns how many there were. */
static int add_objects(arg_list *a, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    char *names[MAX_ARGS];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_ARGS / 2)
        if (trusted_object(e->d_name)) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 0; i < n; i++) {
        arg(a, "%s/%s", dir, names[i]);
        free(names[i]);
    }
    return n;
}

/* CUDA the CPU emulation cannot compile yet: such a file may be right, so
 * it is sent to a GPU, not failed. Recognised by a mark in g++'s messages
 * or, where the host compiler cannot even find the header, by the header's
 * name: the preprocessor's own messages are never shown (they could quote
 * any file), so only a header named here is ever repeated. The
 * CUDA_EMU_LACKS_ marks are static_asserts in common/emu/include that fire
 * when a file uses what the emulation only declares; cooperative groups'
 * blocks, tiles and cg::reduce are emulated. */
static const struct { const char *mark, *header, *feature; } EMULATION_LACKS[] = {
    {"CUDA_EMU_LACKS_GRID_SYNC", NULL,
     "grid-wide synchronisation (cooperative groups' grid.sync(), cudaLaunchCooperativeKernel)"},
    {"CUDA_EMU_LACKS_COALESCED_GROUPS", NULL,
     "coalesced groups (cg::coalesced_threads, binary_partition, labeled_partition)"},
    {"CUDA_EMU_LACKS_LARGE_TILES", NULL, "thread_block_tile of more than 32 threads"},
    {"CUDA_EMU_LACKS_SPLIT_BARRIERS", NULL, "split barriers (barrier_arrive, barrier_wait)"},
    {"CUDA_EMU_LACKS_CLUSTERS", NULL, "thread-block clusters (cg::this_cluster)"},
    {"__cluster_dims__", NULL, "thread-block clusters (__cluster_dims__)"},
    {"CUDA_EMU_LACKS_LAUNCH_API", NULL, "launches through cudaLaunchKernel or cudaLaunchKernelEx"},
    {"CUDA_EMU_LACKS_CG_SCAN", NULL, "cooperative-groups scans (cg::inclusive_scan, cg::exclusive_scan)"},
    {"CUDA_EMU_LACKS_CG_MEMCPY_ASYNC", NULL, "cooperative-groups memcpy_async"},
    {NULL, "cooperative_groups/", "this part of cooperative groups"},
    {"Carveout", NULL, "shared-memory carve-out settings"},
    {"CUDA_EMU_LACKS_WMMA_SHAPE", NULL,
     "WMMA fragments other than 16 x 16 x 16 with half inputs (tf32, bf16, int8, 32 x 8, 8 x 32)"},
    {"cuda::pipeline", "cuda/pipeline", "cuda::pipeline"},
    {NULL, "cuda/barrier", "cuda::barrier"},
    {NULL, "cuda/atomic", "libcu++ atomics (cuda::atomic, cuda::atomic_ref)"},
    {NULL, "cuda/std/", "the CUDA C++ standard library (cuda/std)"},
    {"__nv_bfloat16", "cuda_bf16.h", "bfloat16"},
    {NULL, NULL, NULL}};

const char *build_emulation_lacks(const char *log)
{
    for (int i = 0; log && EMULATION_LACKS[i].feature; i++) {
        char header[64];
        snprintf(header, sizeof header, "<%s", EMULATION_LACKS[i].header ? EMULATION_LACKS[i].header : "");
        if ((EMULATION_LACKS[i].mark && strstr(log, EMULATION_LACKS[i].mark)) ||
            (EMULATION_LACKS[i].header && strstr(log, header)))
            return EMULATION_LACKS[i].feature;
    }
    return NULL;
}

/* The first line of a compiler's log that names a feature the emulation
 * lacks, into buf ("" when none). */
static void emulation_lacks_line(const char *log, char *buf, size_t size)
{
    buf[0] = 0;
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char one[512];
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), line);
        if (build_emulation_lacks(one)) {
            snprintf(buf, size, "%s", one);
            return;
        }
        line = end ? end + 1 : NULL;
    }
}

/* A header of EMULATION_LACKS the preprocessor could not find, or NULL. */
static const char *emulation_header_missing(const char *log_path)
{
    char *text = iso_log_tail(log_path, 16384);
    const char *found = NULL;
    for (int i = 0; text && !found && EMULATION_LACKS[i].feature; i++) {
        char pattern[96];
        if (!EMULATION_LACKS[i].header) continue;
        snprintf(pattern, sizeof pattern, "fatal error: %s", EMULATION_LACKS[i].header);
        if (strstr(text, pattern)) found = EMULATION_LACKS[i].header;
    }
    free(text);
    return found;
}

/* Run one step under the build's limits; on failure, *log gets the
 * tool's last words (unless `quiet`: output that may quote files the
 * student may not read) and `advice`. */
static int run_step(const build_config *b, arg_list *a, const char *log_path,
                    const char *advice, int quiet, char **log)
{
    iso_result ir;
    remove(log_path);
    int ok = iso_run_with(a->v, log_path, &b->limits, &ir) == 0 && ir.exited &&
             ir.exit_code == 0;
    args_free(a);
    if (ok) return 0;
    char how[96];
    /* A tool the compiler ran (the assembler) may be the one that passed
     * the file limit; the compiler then only says so in words. */
    char *said = iso_log_tail(log_path, 1024 * 1024);
    if (said && strstr(said, "File size limit exceeded") && b->limits.file_mb) {
        ir.file_too_big = 1;
        ir.file_limit_mb = b->limits.file_mb;
    }
    /* A feature the emulation lacks is named by the first error, which a
     * cascade of later ones can push out of the tail the report shows: its
     * line goes first. */
    char lacks[512] = "";
    if (!quiet) emulation_lacks_line(said, lacks, sizeof lacks);
    free(said);
    iso_describe(&ir, how, sizeof how);
    int limit_hit = ir.timed_out || ir.out_of_memory || ir.log_too_big || ir.file_too_big;
    char *tail = quiet || limit_hit ? NULL : iso_log_tail(log_path, 6000);
    size_t size = (tail ? strlen(tail) : 0) + strlen(advice) + strlen(lacks) + 256;
    *log = malloc(size);
    if (limit_hit)
        snprintf(*log, size, "the %s was stopped: it %s%s", advice,
                 ir.timed_out ? "ran past the build's time limit, " : "", how);
    else
        snprintf(*log, size, "%s%s%s(%s: %s)", lacks, lacks[0] ? "\n" : "", tail ? tail : "",
                 advice, how);
    free(tail);
    return limit_hit ? BUILD_LIMITED : -1;
}

/* A tool that lives beside nvcc (ptxas), or on the PATH. */
static void beside_nvcc(const char *nvcc, const char *tool, char *buf, size_t size)
{
    const char *slash = strrchr(nvcc, '/');
    if (slash) snprintf(buf, size, "%.*s/%s", (int)(slash - nvcc), nvcc, tool);
    else snprintf(buf, size, "%s", tool);
}

/* Registers and spills of every kernel, from ptxas run alone on the PTX
 * the compile kept: its report is all the log holds, so nothing the
 * student's file prints (#warning) can pass for it. */
static void read_resources(const build_config *b, grade_ctx *g, const char *ptx)
{
    char ptxas[512], log[600], cubin[600];
    beside_nvcc(b->nvcc, "ptxas", ptxas, sizeof ptxas);
    snprintf(log, sizeof log, "%s/resources.log", g->scratch);
    snprintf(cubin, sizeof cubin, "%s/resources.cubin", g->scratch);
    remove(log);
    const char *arch = strncmp(b->arch, "sm_", 3) == 0 ? b->arch : "sm_90";
    char arch_flag[64];
    snprintf(arch_flag, sizeof arch_flag, "-arch=%s", arch);
    char *argv[] = {ptxas, "-v", "-O3", "--generate-line-info", arch_flag, (char *)ptx, "-o",
                    cubin, NULL};
    iso_result ir;
    if (iso_run_with(argv, log, &b->limits, &ir) != 0 || !ir.exited || ir.exit_code != 0) return;
    char *text = iso_log_tail(log, 1 << 20);
    if (!text) return;
    res_parse_ptxas(text, &g->resources);
    free(text);
    res_demangle(&g->resources, g->scratch);
    g->has_resources = 1;
}

/* The first file in dir whose name ends with suffix, or "" . */
static void find_kept(const char *dir, const char *suffix, char *out, size_t size)
{
    out[0] = 0;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    size_t n = strlen(suffix);
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > n && !strcmp(e->d_name + len - n, suffix)) {
            snprintf(out, size, "%s/%s", dir, e->d_name);
            break;
        }
    }
    closedir(d);
}

/* The roots a submission may include from: common/, nvcc's and the host
 * compiler's headers. */
static void include_roots(const build_config *b, const grade_ctx *g, src_roots *roots)
{
    memset(roots, 0, sizeof *roots);
    src_roots_add(roots, b->include_dir);
    char dir[600], log[600];
    if (strchr(b->nvcc, '/')) {
        beside_nvcc(b->nvcc, "../include", dir, sizeof dir);
        src_roots_add(roots, dir);
        beside_nvcc(b->nvcc, "../targets", dir, sizeof dir);
        src_roots_add(roots, dir);
    } else { /* nvcc found on the PATH, where the toolkit installs it */
        src_roots_add(roots, "/usr/local/cuda/include");
    }
    snprintf(log, sizeof log, "%s/search-list.log", g->scratch);
    src_roots_add_compiler(roots, "g++", log);
}

/* Step 2: the files the compile will read. Returns 0, or BUILD_REJECTED
 * with the reason in *log. */
static int check_reads(const build_config *b, grade_ctx *g, const char *src,
                       const char *deps, char **log)
{
    const lab_spec *spec = g->spec;
    char why[700];
    src_roots roots;
    include_roots(b, g, &roots);
    const char *hints[4] = {0}, *names[4] = {0};
    int n = 0;
    for (int i = 0; i < 4 && spec->forbidden[i].prefix; i++, n++) {
        names[i] = spec->forbidden[i].library;
        hints[i] = spec->forbidden[i].header;
    }
    /* The list names the copy by the #line copy_source wrote: the
     * student's own path. */
    if (src_check_dependencies(deps, src, g->submission, &roots, hints, names, n, why,
                               sizeof why) != 0) {
        *log = strdup(why);
        return BUILD_REJECTED;
    }
    return 0;
}

/* The #line copy_source wrote names the submission so; the compiler's
 * line markers repeat it byte for byte. */
static void quoted_name(const char *path, char *buf, size_t size)
{
    size_t at = 0;
    for (const char *p = path; *p && at + 2 < size; p++) {
        if (*p == '"' || *p == '\\') buf[at++] = '\\';
        buf[at++] = *p;
    }
    buf[at] = 0;
}

/* The compiler and the flags every pass over the file shares: g++ against
 * common/emu for the CPU (the Makefile's EMU_CXXFLAGS), or nvcc. */
static void compiler_args(const build_config *b, grade_ctx *g, arg_list *a, const char *src_dir,
                          const char *input, int precompiled)
{
    if (g->emulated) {
        /* -fsanitize=thread: GCC then calls a hook at every load and
         * store, which the emulation defines itself to count them
         * (emu_counters.h; the right stage's memory counts); it costs a
         * call while nothing is counted. */
        static const char *const flags[] = {"-std=c++17", "-O2", "-ffp-contract=off",
                                            "-fno-strict-aliasing", "-Wno-unknown-pragmas",
                                            "-Wno-attributes", "-fsanitize=thread"};
        arg(a, "g++");
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) arg(a, "%s", flags[i]);
        arg(a, "-I%s/emu/include", b->include_dir);
        arg(a, "-include");
        /* The compile proper takes the emulation's headers precompiled
         * (the Makefile's EMU_PCH), when make has built them; the pass
         * that lists the files read always reads them as text. */
        char pch[600];
        snprintf(pch, sizeof pch, "%s/pch/cuda_emu.h.gch", b->emu_dir);
        if (precompiled && access(pch, R_OK) == 0)
            arg(a, "%s/pch/cuda_emu.h", b->emu_dir);
        else
            arg(a, "%s/emu/cuda_emu.h", b->include_dir);
        arg(a, "-iquote");
        arg(a, "%s", src_dir);
    } else {
        arg(a, "%s", b->nvcc);
        arg(a, "-std=c++17");
        arg(a, "-arch=%s", b->arch);
    }
    arg(a, "%s", input);
    arg(a, "-I%s", b->include_dir);
    if (b->source_dir) arg(a, "-I%s", b->source_dir);
    if (b->grader_dir) arg(a, "-I%s", b->grader_dir);
}

/* The compile's flags as the report names them. */
static void describe_compiler(const build_config *b, grade_ctx *g)
{
    if (g->emulated)
        snprintf(g->compile_flags, sizeof g->compile_flags,
                 "g++ -std=c++17 -O2 -ffp-contract=off -fsanitize=thread (CPU emulation, common/emu)");
    else
        snprintf(g->compile_flags, sizeof g->compile_flags, "%s -O3 -lineinfo -std=c++17 -arch=%s",
                 b->nvcc, b->arch);
}

/* The files of one build, all in the grading's scratch folder. */
typedef struct {
    char src_dir[512], src[600], obj[512], log[512], deps[512], keep[512];
    const char *runner;
} build_paths;

/* Steps 1 to 6 of a build the cache did not have: rewrite (emulation),
 * list the files read, compile, check host code, check symbols, link. */
static int build_afresh(const build_config *b, grade_ctx *g, const build_paths *p, char **log)
{
    int graded = !b->source_dir;
    char why[700];
    const char *objects = g->emulated ? b->emu_objects_dir : b->objects_dir;
    const lab_spec *spec = g->spec;
    int wants_resources = !g->emulated && (spec->resources.report ||
                                            spec->resources.max_registers > 0 ||
                                            spec->resources.no_spills);
    arg_list a = {0};
    int rc;
    char rewritten[700], pre[700];
    snprintf(rewritten, sizeof rewritten, "%s.cpp", p->src);
    snprintf(pre, sizeof pre, "%s/host.ii", g->scratch);
    const char *input = g->emulated ? rewritten : p->src;
    if (g->emulated) {
        arg(&a, "%s/emu_rewrite", b->emu_dir);
        arg(&a, "%s", p->src);
        arg(&a, "%s", rewritten);
        if ((rc = run_step(b, &a, p->log, "launch rewriter", 0, log)) != 0) return rc;
    }

    /* Step 2: the hidden pass that lists the files read (for the CPU,
     * also the host code step 4 reads). Its messages may quote a file the
     * student may not read, so they are never shown; it fails closed: no
     * list, no build. */
    if (graded) {
        compiler_args(b, g, &a, p->src_dir, input, 0);
        if (g->emulated) {
            arg(&a, "-E");
            arg(&a, "-MD");
            arg(&a, "-MF");
            arg(&a, "%s", p->deps);
        } else {
            arg(&a, "-M"); /* the list goes to -o */
        }
        arg(&a, "-o");
        arg(&a, "%s", g->emulated ? pre : p->deps);
        char list_log[600];
        snprintf(list_log, sizeof list_log, "%s/reads.log", g->scratch);
        rc = run_step(b, &a, list_log, "preprocessor", 1, log);
        if (rc == BUILD_LIMITED) return rc;
        free(*log);
        *log = NULL;
        int listed = access(p->deps, R_OK) == 0;
        int reads = listed ? check_reads(b, g, input, p->deps, log) : 0;
        if (reads != 0) return reads;
        if (rc != 0 || !listed) {
            const char *missing = g->emulated ? emulation_header_missing(list_log) : NULL;
            char why[200];
            if (missing)
                snprintf(why, sizeof why, "the preprocessor could not read your file: <%s> "
                                          "is not part of the CPU emulation", missing);
            else
                snprintf(why, sizeof why, "the preprocessor could not read your file: check "
                                          "its #include and #error lines");
            *log = strdup(why);
            return -1;
        }
    }

    /* Step 3: the compile, whose messages the student sees. */
    compiler_args(b, g, &a, p->src_dir, input, 1);
    arg(&a, "-c");
    if (!g->emulated) {
        arg(&a, "-O3");
        arg(&a, "-lineinfo");
        arg(&a, "--keep");
        arg(&a, "--keep-dir");
        arg(&a, "%s", p->keep);
    }
    arg(&a, "-o");
    arg(&a, "%s", p->obj);
    if ((rc = run_step(b, &a, p->log, "compiler", 0, log)) != 0) return rc;

    /* Step 4: no inline assembly (or compiler-reserved name) in host code. */
    if (graded) {
        char host[700], name[600];
        if (g->emulated) snprintf(host, sizeof host, "%s", pre);
        else find_kept(p->keep, ".cudafe1.cpp", host, sizeof host);
        quoted_name(g->submission, name, sizeof name);
        if (src_check_host_code(host, name, why, sizeof why) != 0) {
            *log = strdup(why);
            return BUILD_REJECTED;
        }
    }
    if (wants_resources) {
        char ptx[700];
        find_kept(p->keep, ".ptx", ptx, sizeof ptx);
        if (ptx[0]) read_resources(b, g, ptx);
    }
    /* Step 5: what it calls and defines. Only graded code is held to the
     * rules; a solution ladder is the repository's own and may compare
     * with the vendor libraries. */
    if (graded) {
        char emu_library[512];
        snprintf(emu_library, sizeof emu_library, "%s/libcudaemu.a", b->emu_dir);
        sym_verdict v = sym_check_object(p->obj, g->scratch, g->emulated ? emu_library : NULL, spec,
                                         why, sizeof why);
        if (v == SYM_REJECTED ||
            (v == SYM_OK && obj_check_definitions(p->obj, spec->entry, g->emulated, g->scratch, why,
                                                  sizeof why) != 0)) {
            *log = strdup(why);
            return BUILD_REJECTED;
        }
        snprintf(g->symbols_checked, sizeof g->symbols_checked, "%s",
                 v == SYM_OK ? "every call on the allowlist; only the entry point and kernels "
                               "defined" : why);
        if (obj_hide_all_but_entry(p->obj, g->scratch) != 0) {
            *log = strdup("objcopy could not hide the compiled file's names from the grader's");
            return BUILD_BROKEN;
        }
    }

    /* Step 6: link, the trusted objects first. */
    if (g->emulated) arg(&a, "g++");
    else arg(&a, "%s", b->nvcc);
    if (!g->emulated) arg(&a, "-arch=%s", b->arch);
    /* Every symbol bound at start and the GOT made read-only before main:
     * graded code shares the process, and a writable GOT entry of a C
     * library call the runner's thread makes (write, say) would be a
     * one-store way to run its code there (grader/SECURITY.md). */
    arg(&a, g->emulated ? "-Wl,-z,relro,-z,now" : "-Xlinker=-z,relro,-z,now");
    arg(&a, "-o");
    arg(&a, "%s", p->runner);
    if (add_objects(&a, objects) == 0) {
        args_free(&a);
        *log = malloc(700);
        snprintf(*log, 700, "no trusted objects in %s: run make first", objects);
        return BUILD_BROKEN;
    }
    arg(&a, "%s", p->obj);
    if (g->emulated) {
        arg(&a, "%s/libcudaemu.a", b->emu_dir);
        arg(&a, "-lpthread");
        arg(&a, "-lm");
    } else {
        for (int i = 0; i < 4 && g->spec->link_flags[i]; i++) arg(&a, "%s", g->spec->link_flags[i]);
    }
    rc = run_step(b, &a, p->log,
                  "linking failed: does your file define main or a name the grader uses?", 0, log);
    return rc;
}

int build_runner(const build_config *b, grade_ctx *g, char *runner,
                 size_t runner_size, char **log)
{
    build_paths p;
    const char *base = strrchr(g->submission, '/');
    snprintf(p.src_dir, sizeof p.src_dir, "%s/src", g->scratch);
    snprintf(p.keep, sizeof p.keep, "%s/keep", g->scratch);
    snprintf(p.src, sizeof p.src, "%s/%s", p.src_dir, base ? base + 1 : g->submission);
    snprintf(p.obj, sizeof p.obj, "%s/submission.o", g->scratch);
    snprintf(p.log, sizeof p.log, "%s/build.log", g->scratch);
    snprintf(p.deps, sizeof p.deps, "%s/reads.d", g->scratch);
    snprintf(runner, runner_size, "%s/runner", g->scratch);
    p.runner = runner;
    *log = NULL;
    int graded = !b->source_dir;
    char why[700];
    if (graded && src_check_text(g->submission, why, sizeof why) != 0) {
        *log = strdup(why);
        return BUILD_REJECTED;
    }
    /* Again when the probe found no GPU after a build for one (device.h). */
    if ((mkdir(p.src_dir, 0700) != 0 && errno != EEXIST) ||
        (mkdir(p.keep, 0700) != 0 && errno != EEXIST) ||
        copy_source(g->submission, p.src) != 0) {
        *log = strdup("cannot copy the submission into the scratch folder");
        return BUILD_BROKEN;
    }
    describe_compiler(b, g);
    build_cache_key key;
    build_cache_key_init(&key, b, g, p.src);
    g->build_reused = build_cache_fetch(&key, g, runner);
    int rc = 0;
    if (!g->build_reused) {
        rc = build_afresh(b, g, &p, log);
        if (rc == 0) build_cache_keep(&key, g, p.deps, runner);
    }
    build_cache_key_free(&key);
    return rc;
}
