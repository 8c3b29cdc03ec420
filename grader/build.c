/* build.c - compile the submission against pristine trusted objects.
 *
 * The student's file is copied alone into the scratch directory, compiled
 * there, and linked with the trusted objects the Makefile built from this
 * repository (the runner, the lab's spec and CUDA side). Nothing else from
 * the student's folder takes part, so an edited spec or harness there
 * changes nothing. A file that defines main or a trusted symbol fails to
 * link, which the report shows as a build error.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "isolate.h"

static const double BUILD_LIMIT_S = 300;

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

/* The trusted objects, sorted so every build links in the same order. */
static int list_objects(const char *dir, char **paths, int max)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".o") != 0) continue;
        size_t size = strlen(dir) + len + 2;
        paths[n] = malloc(size);
        snprintf(paths[n++], size, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(paths, (size_t)n, sizeof *paths, by_name);
    return n;
}

static int run_step(char **argv, const char *log, iso_result *ir)
{
    return iso_run(argv, log, BUILD_LIMIT_S, ir) == 0 && ir->exited && ir->exit_code == 0
               ? 0 : -1;
}

int build_runner(const build_config *b, grade_ctx *g, char *runner,
                 size_t runner_size, char **log)
{
    char src[512], obj[512], log_path[512], include[512];
    const char *base = strrchr(g->submission, '/');
    snprintf(src, sizeof src, "%s/%s", g->scratch, base ? base + 1 : g->submission);
    snprintf(obj, sizeof obj, "%s/submission.o", g->scratch);
    snprintf(log_path, sizeof log_path, "%s/build.log", g->scratch);
    snprintf(runner, runner_size, "%s/runner", g->scratch);
    snprintf(include, sizeof include, "-I%s", b->include_dir);
    *log = NULL;
    if (copy_source(g->submission, src) != 0) {
        *log = strdup("cannot read the submission");
        return -1;
    }

    char arch[64];
    snprintf(arch, sizeof arch, "-arch=%s", b->arch);
    char source_include[520], grader_include[520];
    snprintf(source_include, sizeof source_include, "-I%s", b->source_dir ? b->source_dir : ".");
    snprintf(grader_include, sizeof grader_include, "-I%s", b->grader_dir ? b->grader_dir : ".");
    char *compile[] = {(char *)b->nvcc, "-c", "-O3", "-lineinfo", "-std=c++17", arch,
                       include, "-o", obj, src,
                       b->source_dir ? source_include : NULL, grader_include, NULL};
    iso_result ir;
    if (run_step(compile, log_path, &ir) != 0) {
        char how[96];
        iso_describe(&ir, how, sizeof how);
        char *tail = iso_log_tail(log_path, 6000);
        size_t size = (tail ? strlen(tail) : 0) + 128;
        *log = malloc(size);
        snprintf(*log, size, "%s(compiler: %s)", tail ? tail : "", how);
        free(tail);
        return -1;
    }

    enum { MAX_OBJECTS = 32 };
    char *objects[MAX_OBJECTS];
    int n = list_objects(b->objects_dir, objects, MAX_OBJECTS);
    if (n <= 0) {
        *log = malloc(600);
        snprintf(*log, 600, "no trusted objects in %s: run make first", b->objects_dir);
        return -1;
    }
    char *link[MAX_OBJECTS + 12];
    int k = 0;
    link[k++] = (char *)b->nvcc;
    link[k++] = arch;
    link[k++] = "-o";
    link[k++] = runner;
    link[k++] = obj;
    for (int i = 0; i < n; i++) link[k++] = objects[i];
    for (int i = 0; i < 4 && g->spec->link_flags[i]; i++) link[k++] = (char *)g->spec->link_flags[i];
    link[k] = NULL;
    int rc = run_step(link, log_path, &ir);
    for (int i = 0; i < n; i++) free(objects[i]);
    if (rc != 0) {
        char *tail = iso_log_tail(log_path, 4000);
        size_t size = (tail ? strlen(tail) : 0) + 160;
        *log = malloc(size);
        snprintf(*log, size, "%slinking failed: does your file define main or a name "
                             "the grader uses?", tail ? tail : "");
        free(tail);
        return -1;
    }
    snprintf(g->compile_flags, sizeof g->compile_flags, "%s -O3 -lineinfo -std=c++17 %s",
             b->nvcc, arch);
    return 0;
}
