/* merge.c - `class merge`: the results of many batch folders (a Slurm
 * array's tasks) as one class. A student graded twice keeps the latest
 * result; their per-student files come from the folder that result came
 * from. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "batch.h"
#include "formats.h"
#include "opts.h"
#include "store.h"

static int merge_copy(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (!in) return errno == ENOENT ? 0 : -1;
    FILE *out = fopen(to, "wb");
    int rc = out ? 0 : -1;
    char buf[65536];
    size_t n;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) rc = -1;
    fclose(in);
    if (out && fclose(out) != 0) rc = -1;
    return rc;
}

/* The per-student files of every result that won, from its own folder. */
static int merge_files(const sto_set *merged, char **dirs, int n_dirs, const char *out)
{
    int rc = 0;
    for (int d = 0; d < n_dirs; d++) {
        char path[4200], err[256];
        sto_set one = {0};
        int bad;
        snprintf(path, sizeof path, "%s/results.jsonl", dirs[d]);
        if (sto_load_jsonl(path, &one, &bad, err, sizeof err) != 0) rc = -1;
        for (size_t i = 0; i < one.n; i++) {
            const sr_result *r = &one.r[i], *w = sto_find(merged, r->student, r->lab);
            if (!w || w->finished_unix != r->finished_unix) continue;
            static const char *const exts[] = {".json", ".txt"};
            for (int e = 0; e < 2; e++) {
                char src[4200], dst[4200];
                snprintf(src, sizeof src, "%s/students/%s%s", dirs[d], r->student, exts[e]);
                snprintf(dst, sizeof dst, "%s/students/%s%s", out, r->student, exts[e]);
                if (strcmp(src, dst) != 0 && merge_copy(src, dst) != 0) rc = -1;
            }
        }
        sto_free(&one);
    }
    return rc;
}

static int merge_write_jsonl(const char *out, const sto_set *set)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/results.jsonl", out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = f ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < set->n; i++) rc = sr_write_line(&set->r[i], f);
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    return rc;
}

int merge_main(int argc, char **argv)
{
    const char *out = NULL, *course = NULL;
    char *dirs[4096];
    int n_dirs = 0;
    for (int i = 0; i < argc; i++) {
        int rc;
        if ((rc = opt_str(argc, argv, &i, "--out", &out)) || (rc = opt_str(argc, argv, &i, "--course", &course))) {
            if (rc < 0) return CLS_EXIT_USAGE;
            continue;
        }
        if (argv[i][0] == '-' || n_dirs == 4096) {
            fprintf(stderr, "class merge: unknown option %s\n", argv[i]);
            return CLS_EXIT_USAGE;
        }
        dirs[n_dirs++] = argv[i];
    }
    if (!out || !n_dirs) {
        fprintf(stderr, "usage: class merge --out DIR [--course FILE] BATCH_DIR...\n");
        return CLS_EXIT_USAGE;
    }
    char err[1024], path[4200];
    crs_course c;
    if (crs_load(course, &c, err, sizeof err) != 0) {
        fprintf(stderr, "class merge: %s\n", err);
        return CLS_EXIT_USAGE;
    }
    sto_set merged = {0};
    int bad_total = 0;
    for (int d = 0; d < n_dirs; d++) {
        int bad = 0;
        snprintf(path, sizeof path, "%s/results.jsonl", dirs[d]);
        struct stat st;
        if (stat(path, &st) != 0) {
            fprintf(stderr, "class merge: %s has no results.jsonl (a task that never ran?)\n", dirs[d]);
            continue;
        }
        if (sto_load_jsonl(path, &merged, &bad, err, sizeof err) != 0) {
            fprintf(stderr, "class merge: %s\n", err);
            sto_free(&merged);
            return CLS_EXIT_USAGE;
        }
        bad_total += bad;
    }
    if (bad_total) fprintf(stderr, "class merge: %d unreadable line(s) skipped\n", bad_total);
    sto_sort(&merged);
    if (sto_make_dir(out) != 0) {
        fprintf(stderr, "class merge: cannot make %s: %s\n", out, strerror(errno));
        sto_free(&merged);
        return CLS_EXIT_USAGE;
    }
    snprintf(path, sizeof path, "%s/students", out);
    mkdir(path, 0755);
    int rc = merge_write_jsonl(out, &merged);
    if (rc == 0) rc = merge_files(&merged, dirs, n_dirs, out);
    if (rc == 0) rc = fmt_write_summaries(out, &merged, &c, err, sizeof err);
    else snprintf(err, sizeof err, "cannot write into %s: %s", out, strerror(errno));
    if (rc != 0) fprintf(stderr, "class merge: %s\n", err);
    else fprintf(stderr, "class merge: %zu students from %d folders: %s/summary.csv\n", merged.n, n_dirs, out);
    sto_free(&merged);
    return rc == 0 ? CLS_EXIT_OK : CLS_EXIT_USAGE;
}
