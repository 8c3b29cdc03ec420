/* build_cache.c - keep and find runners built before (build_cache.h).
 *
 * An entry is a folder named by a 64-bit FNV-1a hash of its stamp and
 * source, holding:
 *   stamp   what the build was made with, one line per fact or file;
 *   source  the exact bytes the compiler read (the #line copy);
 *   reads   one line per file the compile read, with its identity;
 *   meta    what the build told the grading (resources, allowlist);
 *   runner  the linked runner.
 * The hash only names the folder: a hit compares the stamp and the source
 * byte for byte and every file of `reads` again, so two files that share a
 * hash can never share a runner. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_cache.h"
#include "text.h"

/* What the build gave the grading besides the runner. The grader's own
 * executable is in the stamp, so this layout is always the reader's. */
typedef struct {
    int has_resources;
    res_list resources;
    char symbols_checked[sizeof ((grade_ctx *)0)->symbols_checked];
} build_meta;

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, 2 * cap + 1);
            if (!grown) { free(buf); buf = NULL; break; }
            buf = grown;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) { free(buf); return NULL; }
    buf[n] = 0;
    *len = n;
    return buf;
}

static int write_all(const char *path, const void *data, size_t len, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) return -1;
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w <= 0) { close(fd); return -1; }
        p += w;
        len -= (size_t)w;
    }
    return close(fd);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
    size_t len;
    char *data = read_all(from, &len);
    if (!data) return -1;
    int rc = write_all(to, data, len, mode);
    free(data);
    return rc;
}

/* One file's identity, as make would judge it changed. */
static void identity(strbuf *s, const char *tag, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        sb_printf(s, "%s - %s\n", tag, path);
        return;
    }
    sb_printf(s, "%s %llu:%llu %lld %lld.%09ld %s\n", tag, (unsigned long long)st.st_dev,
              (unsigned long long)st.st_ino, (long long)st.st_size,
              (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, path);
}

/* A tool as exec would find it: a path, or the first on $PATH. */
static void tool_path(const char *tool, char *out, size_t size)
{
    snprintf(out, size, "%s", tool);
    if (strchr(tool, '/')) return;
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(out, size, "%.*s/%s", (int)n, path, tool);
        if (n && access(out, X_OK) == 0) return;
        path += n + (path[n] == ':');
    }
    snprintf(out, size, "%s", tool);
}

/* Every regular file of a folder, sorted: a superset of the objects the
 * link takes, so no change to one of them goes unseen. */
static void folder_identity(strbuf *s, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) { sb_printf(s, "folder - %s\n", dir); return; }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256)
        if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        identity(s, "object", path);
        free(names[i]);
    }
}

/* What the build is made with, besides the source and what it reads. */
static void stamp(const build_config *b, const grade_ctx *g, strbuf *s)
{
    char path[1024], exe[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    sb_printf(s, "cudalab build cache 1\nlab %s\nemulated %d\narch %s\n", g->spec->id, g->emulated,
              b->arch);
    sb_printf(s, "limits %g %ld %ld %ld\n", b->limits.time_s, b->limits.memory_mb,
              b->limits.file_mb, b->limits.log_kb);
    identity(s, "grader", exe);
    identity(s, "include", b->include_dir);
    tool_path(b->nvcc, path, sizeof path);
    identity(s, "nvcc", path);
    char *slash = strrchr(path, '/');
    if (slash) {
        snprintf(slash + 1, sizeof path - (size_t)(slash + 1 - path), "ptxas");
        identity(s, "ptxas", path);
    }
    tool_path("g++", path, sizeof path);
    identity(s, "g++", path);
    folder_identity(s, g->emulated ? b->emu_objects_dir : b->objects_dir);
    if (g->emulated) {
        static const char *const emu_files[] = {"libcudaemu.a", "emu_rewrite",
                                                "pch/cuda_emu.h.gch", NULL};
        for (int i = 0; emu_files[i]; i++) {
            snprintf(path, sizeof path, "%s/%s", b->emu_dir, emu_files[i]);
            identity(s, "emu", path);
        }
    }
}

/* The identity of every file a make-style list names (target: dep dep \),
 * but those in the grading's scratch folder: the source copy is compared
 * byte for byte instead, and the rest there is the build's own. */
static int reads_identity(const char *list, const char *scratch, strbuf *s)
{
    size_t len;
    char *text = read_all(list, &len);
    if (!text) return -1;
    char *p = strchr(text, ':');
    p = p ? p + 1 : text + len;
    size_t scratch_len = strlen(scratch);
    char word[4096];
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n')) p += *p == '\\' ? 2 : 1;
        size_t w = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && w + 1 < sizeof word) {
            if (*p == '\\' && p[1] == '\n') break;
            if (*p == '\\' && p[1] == ' ') p++; /* an escaped space is part of the name */
            word[w++] = *p++;
        }
        word[w] = 0;
        if (w && strncmp(word, scratch, scratch_len) != 0) identity(s, "read", word);
    }
    free(text);
    return 0;
}

static uint64_t fnv1a(uint64_t h, const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)data[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void build_cache_key_init(build_cache_key *k, const build_config *b, const grade_ctx *g,
                          const char *source)
{
    memset(k, 0, sizeof *k);
    if (!b->cache_dir || !*b->cache_dir || b->source_dir) return; /* none, or a ladder */
    k->cache_dir = b->cache_dir;
    stamp(b, g, &k->stamp);
    k->source = read_all(source, &k->source_len);
    if (!k->source) return;
    uint64_t h = fnv1a(0xcbf29ce484222325ULL, sb_str(&k->stamp), k->stamp.len);
    h = fnv1a(h, k->source, k->source_len);
    snprintf(k->entry, sizeof k->entry, "%s/%016llx", b->cache_dir, (unsigned long long)h);
    k->usable = 1;
}

void build_cache_key_free(build_cache_key *k)
{
    free(k->source);
    sb_free(&k->stamp);
    memset(k, 0, sizeof *k);
}

/* Whether a kept file holds exactly these bytes. */
static int same_bytes(const char *path, const char *data, size_t len)
{
    size_t kept_len;
    char *kept = read_all(path, &kept_len);
    int same = kept && kept_len == len && memcmp(kept, data, len) == 0;
    free(kept);
    return same;
}

/* Whether every file the kept build read is as it was then. */
static int reads_unchanged(const char *path)
{
    size_t len;
    char *text = read_all(path, &len);
    if (!text) return 0;
    int same = 1;
    for (char *line = text; same && *line;) {
        char *end = strchr(line, '\n');
        if (!end) { same = 0; break; }
        *end = 0;
        /* "read DEV:INO SIZE MTIME PATH": the path follows the fourth space. */
        const char *name = line;
        for (int i = 0; i < 4 && name; i++) {
            name = strchr(name, ' ');
            if (name) name++;
        }
        strbuf now = {0};
        if (name) identity(&now, "read", name);
        same = name && now.len == (size_t)(end - line) + 1 && !strncmp(sb_str(&now), line, now.len - 1);
        sb_free(&now);
        line = end + 1;
    }
    free(text);
    return same;
}

int build_cache_fetch(const build_cache_key *k, grade_ctx *g, const char *runner)
{
    if (!k->usable) return 0;
    char path[1300];
    build_meta meta;
    size_t meta_len = 0;
    char *kept_meta = NULL;
    snprintf(path, sizeof path, "%s/stamp", k->entry);
    int hit = same_bytes(path, sb_str(&k->stamp), k->stamp.len);
    snprintf(path, sizeof path, "%s/source", k->entry);
    hit = hit && same_bytes(path, k->source, k->source_len);
    snprintf(path, sizeof path, "%s/reads", k->entry);
    hit = hit && reads_unchanged(path);
    snprintf(path, sizeof path, "%s/meta", k->entry);
    hit = hit && (kept_meta = read_all(path, &meta_len)) && meta_len == sizeof meta;
    snprintf(path, sizeof path, "%s/runner", k->entry);
    remove(runner);
    hit = hit && copy_file(path, runner, 0700) == 0;
    if (hit) {
        memcpy(&meta, kept_meta, sizeof meta);
        g->has_resources = meta.has_resources;
        g->resources = meta.resources;
        memcpy(g->symbols_checked, meta.symbols_checked, sizeof g->symbols_checked);
        g->symbols_checked[sizeof g->symbols_checked - 1] = 0;
        utimensat(AT_FDCWD, k->entry, NULL, 0); /* recently used: pruned last */
    } else {
        remove(runner);
    }
    free(kept_meta);
    return hit;
}

static void remove_entry(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[1300];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                remove(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

/* Remove the least recently used entries beyond BUILD_CACHE_ENTRIES or
 * BUILD_CACHE_MB of runners. */
static void prune(const char *cache_dir)
{
    DIR *d = opendir(cache_dir);
    if (!d) return;
    struct { char name[32]; struct timespec used; long long bytes; } all[4 * BUILD_CACHE_ENTRIES];
    int n = 0;
    long long bytes = 0;
    struct dirent *e;
    char path[1300];
    while ((e = readdir(d)) && n < 4 * BUILD_CACHE_ENTRIES) {
        struct stat s, r;
        if (strlen(e->d_name) != 16) continue; /* entries only; not ".new-" folders */
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        if (stat(path, &s) != 0 || !S_ISDIR(s.st_mode)) continue;
        snprintf(path, sizeof path, "%s/%s/runner", cache_dir, e->d_name);
        snprintf(all[n].name, sizeof all[n].name, "%s", e->d_name);
        all[n].bytes = stat(path, &r) == 0 ? (long long)r.st_size : 0;
        bytes += all[n].bytes;
        all[n++].used = s.st_mtim;
    }
    closedir(d);
    while (n > BUILD_CACHE_ENTRIES || (n > 1 && bytes > BUILD_CACHE_MB * 1024LL * 1024)) {
        int oldest = 0;
        for (int i = 1; i < n; i++)
            if (all[i].used.tv_sec < all[oldest].used.tv_sec ||
                (all[i].used.tv_sec == all[oldest].used.tv_sec &&
                 all[i].used.tv_nsec < all[oldest].used.tv_nsec))
                oldest = i;
        snprintf(path, sizeof path, "%s/%s", cache_dir, all[oldest].name);
        remove_entry(path);
        bytes -= all[oldest].bytes;
        all[oldest] = all[--n];
    }
}

void build_cache_keep(const build_cache_key *k, const grade_ctx *g, const char *reads,
                      const char *runner)
{
    strbuf read_ids = {0};
    char fresh[1300], path[1400];
    if (!k->usable || reads_identity(reads, g->scratch, &read_ids) != 0) goto done;
    if (mkdir(k->cache_dir, 0700) != 0 && errno != EEXIST) goto done;
    snprintf(fresh, sizeof fresh, "%s/.new-XXXXXX", k->cache_dir);
    if (!mkdtemp(fresh)) goto done;
    build_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.has_resources = g->has_resources;
    meta.resources = g->resources;
    memcpy(meta.symbols_checked, g->symbols_checked, sizeof meta.symbols_checked);
    int ok = 1;
    snprintf(path, sizeof path, "%s/stamp", fresh);
    ok = ok && write_all(path, sb_str(&k->stamp), k->stamp.len, 0600) == 0;
    snprintf(path, sizeof path, "%s/source", fresh);
    ok = ok && write_all(path, k->source, k->source_len, 0600) == 0;
    snprintf(path, sizeof path, "%s/reads", fresh);
    ok = ok && write_all(path, sb_str(&read_ids), read_ids.len, 0600) == 0;
    snprintf(path, sizeof path, "%s/meta", fresh);
    ok = ok && write_all(path, &meta, sizeof meta, 0600) == 0;
    snprintf(path, sizeof path, "%s/runner", fresh);
    ok = ok && copy_file(runner, path, 0700) == 0;
    /* Whole or not at all. An entry already there was either kept by a
     * grading beside this one, the same, or is out of date (this build
     * missed it): either way this one replaces it. */
    if (ok && rename(fresh, k->entry) != 0 && (errno == EEXIST || errno == ENOTEMPTY)) {
        remove_entry(k->entry);
        ok = rename(fresh, k->entry) == 0;
    }
    if (!ok) remove_entry(fresh);
    else prune(k->cache_dir);
done:
    sb_free(&read_ids);
}
