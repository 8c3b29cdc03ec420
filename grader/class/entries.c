/* entries.c - see entries.h. */
#define _DEFAULT_SOURCE
#include "entries.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "labs.h"

enum { ENT_MAX_DEPTH = 4 }; /* labs/NN-name/file.cu inside a clone is depth 3 */

static int ent_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n > m && !strcmp(s + n - m, tail);
}

/* The lab's folder must be in this workbook too. */
static int lab_folder_exists(const char *root, const char *id, char *err, size_t err_size)
{
    char dir[4096];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/labs/%s", root, id);
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 1;
    snprintf(err, err_size, "no folder %s (is --root the workbook?)", dir);
    return 0;
}

int ent_lab_id(const char *root, const char *lab, char *out, size_t size, char *err, size_t err_size)
{
    const lab_spec *spec = lab_find(lab);
    out[0] = 0;
    if (!spec) {
        snprintf(err, err_size, "no lab called '%s'", lab);
        return -1;
    }
    if (!lab_folder_exists(root, spec->id, err, err_size)) return -1;
    snprintf(out, size, "%s", spec->id);
    return 0;
}

int ent_student_file(const char *root, const char *lab_id, char *out, size_t size, char *err,
                     size_t err_size)
{
    const lab_spec *spec = lab_find(lab_id);
    out[0] = 0;
    if (!spec) {
        snprintf(err, err_size, "no lab called '%s'", lab_id);
        return -1;
    }
    if (!lab_folder_exists(root, spec->id, err, err_size)) return -1;
    snprintf(out, size, "%s", spec->student_file);
    return 0;
}

/* The shallowest `file` under dir (depth 0 = dir itself); on a tie, the
 * first in name order, so the choice does not depend on the filesystem.
 * Symlinked folders are not followed: a student folder cannot loop us. */
static void ent_find(const char *dir, const char *file, int depth, int *best_depth, char *best,
                     size_t size)
{
    if (depth > ENT_MAX_DEPTH || (*best_depth >= 0 && depth >= *best_depth)) return;
    struct dirent **list;
    int n = scandir(dir, &list, NULL, alphasort);
    if (n < 0) return;
    char path[4096];
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        struct stat st;
        if (name[0] != '.' && !strcmp(name, file) && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            (*best_depth < 0 || depth < *best_depth)) {
            *best_depth = depth;
            snprintf(best, size, "%s", path);
        }
    }
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        struct stat st;
        if (name[0] != '.' && lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            ent_find(path, file, depth + 1, best_depth, best, size);
    }
    for (int i = 0; i < n; i++) free(list[i]);
    free(list);
}

static int ent_cmp(const void *a, const void *b)
{
    return strcmp(((const ent_entry *)a)->name, ((const ent_entry *)b)->name);
}

int ent_scan(const char *dir, const char *student_file, ent_entry **out, size_t *n_out, char *err,
             size_t err_size)
{
    *out = NULL;
    *n_out = 0;
    char abs[PATH_MAX];
    if (!realpath(dir, abs)) {
        snprintf(err, err_size, "cannot open the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    DIR *d = opendir(abs);
    if (!d) {
        snprintf(err, err_size, "cannot list %s: %s", abs, strerror(errno));
        return -1;
    }
    ent_entry *list = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", abs, name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        int is_file = S_ISREG(st.st_mode) && ent_ends_with(name, ".cu");
        if (!is_file && !S_ISDIR(st.st_mode)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            ent_entry *grown = realloc(list, cap * sizeof *grown);
            if (!grown) { rc = -1; snprintf(err, err_size, "out of memory"); break; }
            list = grown;
        }
        ent_entry *x = &list[n++];
        memset(x, 0, sizeof *x);
        if (is_file) {
            snprintf(x->name, sizeof x->name, "%.*s", (int)(strlen(name) - 3), name);
            snprintf(x->path, sizeof x->path, "%s", path);
            x->kind = ENT_OK;
            continue;
        }
        snprintf(x->name, sizeof x->name, "%s", name);
        int depth = -1;
        ent_find(path, student_file, 0, &depth, x->path, sizeof x->path);
        x->kind = depth >= 0 ? ENT_OK : ENT_MISSING;
        if (depth < 0)
            snprintf(x->why, sizeof x->why, "missing file: no %s in %s/", student_file, name);
    }
    closedir(d);
    if (rc != 0) { free(list); return -1; }
    if (n) qsort(list, n, sizeof *list, ent_cmp);
    /* alice.cu and alice/ are one student twice: one entry that says so,
     * graded neither way (which one counts is the instructor's call). */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && !strcmp(list[i].name, list[kept - 1].name)) {
            ent_entry *x = &list[kept - 1];
            x->kind = ENT_DUPLICATE;
            x->path[0] = 0;
            snprintf(x->why, sizeof x->why, "two entries for one student: %s.cu and %s/; keep one",
                     x->name, x->name);
            continue;
        }
        list[kept++] = list[i];
    }
    n = kept;
    *out = list;
    *n_out = n;
    return 0;
}
