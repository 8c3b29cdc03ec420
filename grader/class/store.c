/* store.c - see store.h. */
#define _POSIX_C_SOURCE 200809L
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void sto_free(sto_set *set)
{
    for (size_t i = 0; i < set->n; i++) sr_free(&set->r[i]);
    free(set->r);
    memset(set, 0, sizeof *set);
}

static sr_result *sto_find_mut(sto_set *set, const char *student, const char *lab)
{
    for (size_t i = 0; i < set->n; i++)
        if (!strcmp(set->r[i].student, student) && !strcmp(set->r[i].lab, lab)) return &set->r[i];
    return NULL;
}

const sr_result *sto_find(const sto_set *set, const char *student, const char *lab)
{
    return sto_find_mut((sto_set *)set, student, lab);
}

int sto_add(sto_set *set, sr_result *r)
{
    sr_result *old = sto_find_mut(set, r->student, r->lab);
    if (old) {
        if (r->finished_unix >= old->finished_unix) {
            sr_free(old);
            *old = *r;
        } else {
            sr_free(r);
        }
        return 0;
    }
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 16;
        sr_result *grown = realloc(set->r, cap * sizeof *grown);
        if (!grown) return -1;
        set->r = grown;
        set->cap = cap;
    }
    set->r[set->n++] = *r;
    return 0;
}

static int sto_cmp(const void *a, const void *b)
{
    const sr_result *x = a, *y = b;
    int c = strcmp(x->lab, y->lab);
    return c ? c : strcmp(x->student, y->student);
}

void sto_sort(sto_set *set)
{
    if (set->n) qsort(set->r, set->n, sizeof *set->r, sto_cmp);
}

int sto_load_jsonl(const char *path, sto_set *set, int *bad, char *err, size_t err_size)
{
    *bad = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!len) continue;
        jv_value *v;
        char why[128];
        sr_result r;
        if (jv_parse(line, (size_t)len, &v, why, sizeof why) != 0) { (*bad)++; continue; }
        if (sr_from_line(v, &r, why, sizeof why) != 0) {
            (*bad)++;
            sr_free(&r);
        } else if (sto_add(set, &r) != 0) {
            jv_free(v);
            free(line);
            fclose(f);
            snprintf(err, err_size, "out of memory");
            return -1;
        }
        jv_free(v);
    }
    free(line);
    fclose(f);
    return 0;
}

/* "path/to/alice.json" -> "alice" */
static void sto_name_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".json")) n -= 5;
    snprintf(out, size, "%.*s", (int)n, base);
}

/* One JSON file: our own record, or the grader's result. */
static int sto_load_json(const char *path, const char *student, sto_set *set, char *err,
                         size_t err_size)
{
    jv_value *v;
    char why[256];
    if (jv_parse_file(path, &v, why, sizeof why) != 0) {
        snprintf(err, err_size, "%s: %s", path, why);
        return -1;
    }
    sr_result r;
    int rc;
    if (jv_get(v, "student") && jv_get(v, "verdict")) {
        rc = sr_from_line(v, &r, why, sizeof why);
    } else {
        char name[256];
        sto_name_of(path, name, sizeof name);
        sr_init(&r, student && *student ? student : name, "");
        rc = sr_from_grader(v, &r, why, sizeof why);
        struct stat st;
        if (stat(path, &st) == 0) r.finished_unix = (double)st.st_mtime;
    }
    jv_free(v);
    if (rc != 0) {
        sr_free(&r);
        snprintf(err, err_size, "%s: %s", path, why);
        return -1;
    }
    if (student && *student) snprintf(r.student, sizeof r.student, "%s", student);
    if (sto_add(set, &r) != 0) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    return 0;
}

static int sto_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n > m && !strcmp(s + n - m, tail);
}

int sto_load_any(const char *from, const char *student, sto_set *set, char *err, size_t err_size)
{
    struct stat st;
    if (stat(from, &st) != 0) {
        snprintf(err, err_size, "cannot read %s: %s", from, strerror(errno));
        return -1;
    }
    int bad = 0;
    if (!S_ISDIR(st.st_mode)) {
        if (sto_ends_with(from, ".jsonl")) return sto_load_jsonl(from, set, &bad, err, err_size);
        return sto_load_json(from, student, set, err, err_size);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/results.jsonl", from);
    if (access(path, R_OK) == 0) return sto_load_jsonl(path, set, &bad, err, err_size);
    DIR *d = opendir(from);
    if (!d) {
        snprintf(err, err_size, "cannot list %s: %s", from, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !sto_ends_with(e->d_name, ".json")) continue;
        snprintf(path, sizeof path, "%s/%s", from, e->d_name);
        rc = sto_load_json(path, NULL, set, err, err_size);
    }
    closedir(d);
    if (rc == 0 && set->n == 0) {
        snprintf(err, err_size, "%s holds neither results.jsonl nor *.json results", from);
        rc = -1;
    }
    return rc;
}

int sto_open_append(const char *path, char *err, size_t err_size)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    off_t size = lseek(fd, 0, SEEK_END);
    char last = '\n';
    if (size > 0 && pread(fd, &last, 1, size - 1) == 1 && last != '\n' && write(fd, "\n", 1) != 1) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int sto_append(int fd, const sr_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return -1;
    int rc = sr_write_line(r, m);
    if (fclose(m) != 0) rc = -1;
    /* One write: O_APPEND puts the whole line at the end, or none of it. */
    if (rc == 0 && (write(fd, buf, len) != (ssize_t)len || fsync(fd) != 0)) rc = -1;
    free(buf);
    return rc;
}

int sto_make_dir(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(buf, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}
