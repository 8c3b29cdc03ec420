/* build.c - compile the submission against pristine trusted objects.
 *
 * The student's file is copied alone into the scratch directory, compiled
 * there, and linked with the trusted objects the Makefile built from this
 * repository (the runner, the lab's spec and CUDA side). Nothing else from
 * the student's folder takes part, so an edited spec or harness there
 * changes nothing. A file that defines main or a trusted symbol fails to
 * link, which the report shows as a build error.
 *
 * Two toolchains: nvcc for the GPU, or, for the CPU emulation, the launch
 * rewriter and g++ against common/emu. The flags match the Makefile's
 * NVFLAGS and EMU_CXXFLAGS for the trusted objects.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "isolate.h"
#include "symbols.h"

static const double BUILD_LIMIT_S = 300;
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

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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
    while ((e = readdir(d)) && n < MAX_ARGS / 2) {
        size_t len = strlen(e->d_name);
        if (len > 2 && strcmp(e->d_name + len - 2, ".o") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int i = 0; i < n; i++) {
        arg(a, "%s/%s", dir, names[i]);
        free(names[i]);
    }
    return n;
}

/* Run one step; on failure, *log gets the tool's last words and `advice`. */
static int run_step(arg_list *a, const char *log_path, const char *advice, char **log)
{
    iso_result ir;
    int ok = iso_run(a->v, log_path, BUILD_LIMIT_S, &ir) == 0 && ir.exited &&
             ir.exit_code == 0;
    args_free(a);
    if (ok) return 0;
    char how[96];
    iso_describe(&ir, how, sizeof how);
    char *tail = iso_log_tail(log_path, 6000);
    size_t size = (tail ? strlen(tail) : 0) + strlen(advice) + 128;
    *log = malloc(size);
    snprintf(*log, size, "%s(%s: %s)", tail ? tail : "", advice, how);
    free(tail);
    return -1;
}

/* The compiler's report of every kernel of the submission. */
static void read_resources(grade_ctx *g, const char *log_path)
{
    char *text = iso_log_tail(log_path, 1 << 20);
    if (!text) return;
    res_parse_ptxas(text, &g->resources);
    free(text);
    res_demangle(&g->resources, g->scratch);
    g->has_resources = 1;
}

int build_runner(const build_config *b, grade_ctx *g, char *runner,
                 size_t runner_size, char **log)
{
    char src[512], obj[512], log_path[512];
    const char *base = strrchr(g->submission, '/');
    snprintf(src, sizeof src, "%s/%s", g->scratch, base ? base + 1 : g->submission);
    snprintf(obj, sizeof obj, "%s/submission.o", g->scratch);
    snprintf(log_path, sizeof log_path, "%s/build.log", g->scratch);
    snprintf(runner, runner_size, "%s/runner", g->scratch);
    *log = NULL;
    if (copy_source(g->submission, src) != 0) {
        *log = strdup("cannot read the submission");
        return -1;
    }
    const char *objects = g->emulated ? b->emu_objects_dir : b->objects_dir;
    const lab_spec *spec = g->spec;
    int wants_resources = !g->emulated && (spec->resources.report ||
                                            spec->resources.max_registers > 0 ||
                                            spec->resources.no_spills);
    arg_list a = {0};

    /* Compile. */
    if (g->emulated) {
        char rewritten[600];
        snprintf(rewritten, sizeof rewritten, "%s.cpp", src);
        arg(&a, "%s/emu_rewrite", b->emu_dir);
        arg(&a, "%s", src);
        arg(&a, "%s", rewritten);
        if (run_step(&a, log_path, "the launch rewriter", log) != 0) return -1;
        arg(&a, "g++");
        const char *flags[] = {"-std=c++17", "-O2", "-g", "-ffp-contract=off",
                               "-fno-strict-aliasing", "-Wno-unknown-pragmas"};
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) arg(&a, "%s", flags[i]);
        arg(&a, "-I%s/emu/include", b->include_dir);
        arg(&a, "-include");
        arg(&a, "%s/emu/cuda_emu.h", b->include_dir);
        arg(&a, "-iquote");
        arg(&a, "%s", g->scratch);
        arg(&a, "-c");
        arg(&a, "%s", rewritten);
        snprintf(g->compile_flags, sizeof g->compile_flags,
                 "g++ -std=c++17 -O2 -ffp-contract=off (CPU emulation, common/emu)");
    } else {
        arg(&a, "%s", b->nvcc);
        arg(&a, "-c");
        arg(&a, "-O3");
        arg(&a, "-lineinfo");
        arg(&a, "-std=c++17");
        arg(&a, "-arch=%s", b->arch);
        /* -v only makes ptxas report each kernel's resources; the code is
         * the same. */
        if (wants_resources) arg(&a, "-Xptxas=-v");
        snprintf(g->compile_flags, sizeof g->compile_flags, "%s -O3 -lineinfo -std=c++17 -arch=%s%s",
                 b->nvcc, b->arch, wants_resources ? " -Xptxas=-v" : "");
        arg(&a, "%s", src);
    }
    arg(&a, "-I%s", b->include_dir);
    if (b->source_dir) arg(&a, "-I%s", b->source_dir);
    if (b->grader_dir) arg(&a, "-I%s", b->grader_dir);
    arg(&a, "-o");
    arg(&a, "%s", obj);
    if (run_step(&a, log_path, "compiler", log) != 0) return -1;
    if (wants_resources) read_resources(g, log_path);
    /* Only graded code is held to the allowlist; a solution ladder is the
     * repository's own and may compare with the vendor libraries. */
    if (!b->source_dir) {
        char why[400];
        char emu_library[512];
        snprintf(emu_library, sizeof emu_library, "%s/libcudaemu.a", b->emu_dir);
        sym_verdict v = sym_check_object(obj, g->scratch, g->emulated ? emu_library : NULL, spec,
                                         why, sizeof why);
        if (v == SYM_REJECTED) {
            *log = strdup(why);
            return BUILD_REJECTED;
        }
        snprintf(g->symbols_checked, sizeof g->symbols_checked, "%s",
                 v == SYM_OK ? "every call on the allowlist" : why);
    }

    /* Link with the trusted objects. */
    if (g->emulated) arg(&a, "g++");
    else arg(&a, "%s", b->nvcc);
    if (!g->emulated) arg(&a, "-arch=%s", b->arch);
    arg(&a, "-o");
    arg(&a, "%s", runner);
    arg(&a, "%s", obj);
    if (add_objects(&a, objects) == 0) {
        args_free(&a);
        *log = malloc(700);
        snprintf(*log, 700, "no trusted objects in %s: run make first", objects);
        return -1;
    }
    if (g->emulated) {
        arg(&a, "%s/libcudaemu.a", b->emu_dir);
        arg(&a, "-lpthread");
        arg(&a, "-lm");
    } else {
        for (int i = 0; i < 4 && g->spec->link_flags[i]; i++) arg(&a, "%s", g->spec->link_flags[i]);
    }
    return run_step(&a, log_path,
                    "linking failed: does your file define main or a name the grader uses?",
                    log);
}
