/* check_answers.c - does a student text hand out a stage's answer?
 *
 * A lab's README and its student deck teach the ideas; the kernels that
 * pass its stages are the student's to write. This reads every kernel
 * (__global__ function) of the lab's solutions (the reference and the
 * ladder's rungs) and every code block of the given texts, and fails a text
 * whose one code block holds half or more of a kernel's lines.
 *
 * Lines are compared with comments and blanks removed. A kernel's lines
 * that the student already has (any line of the lab's public .cu files:
 * the skeleton, and the naive baseline in trusted/lab.cu) do not count, nor do short
 * lines (a brace, `__syncthreads();`): a kernel is an answer when at least
 * four of its own lines remain and a block holds half of them.
 *
 * usage: check_answers SOLUTION_DIR PUBLIC_DIR[:PUBLIC_DIR...] TEXT...
 * Prints PASS facts/answers/TEXT or FAIL facts/answers/TEXT: which kernel
 * and where; exit 1 on any FAIL.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MIN_LINE = 11, MIN_KERNEL_LINES = 4 };

typedef struct {
    char **line;
    int n, cap;
} lines;

static void push(lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->line = realloc(l->line, (size_t)l->cap * sizeof *l->line);
        if (!l->line) exit(2);
    }
    l->line[l->n++] = strdup(s);
}

static int has(const lines *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->line[i], s)) return 1;
    return 0;
}

/* The line without comments (one line's worth) and without blanks. */
static void normalise(const char *in, char *out, size_t size)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 1 < size; p++) {
        if (p[0] == '/' && p[1] == '/') break;
        if (p[0] == '/' && p[1] == '*') {
            const char *end = strstr(p + 2, "*/");
            if (!end) break;
            p = end + 1;
            continue;
        }
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') out[o++] = *p;
    }
    out[o] = 0;
}

static lines read_lines(const char *path)
{
    lines l = {0};
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "check_answers: cannot read %s\n", path);
        exit(2);
    }
    char buf[4096];
    while (fgets(buf, sizeof buf, f)) push(&l, buf);
    fclose(f);
    return l;
}

typedef struct {
    char name[128];
    char file[512];
    lines own; /* normalised, long enough, not in the public files */
} kernel;

static kernel kernels[512];
static int n_kernels;

/* Every __global__ function of one file, from its line to the brace that
 * closes its body. */
static void read_kernels(const char *path, const lines *public_lines)
{
    lines src = read_lines(path);
    for (int i = 0; i < src.n && n_kernels < 512; i++) {
        if (!strstr(src.line[i], "__global__")) continue;
        kernel *k = &kernels[n_kernels++];
        memset(k, 0, sizeof *k);
        snprintf(k->file, sizeof k->file, "%s", path);
        const char *paren = NULL;
        int depth = 0, opened = 0, j;
        for (j = i; j < src.n; j++) {
            const char *s = src.line[j];
            if (!paren && (paren = strchr(s, '('))) {
                const char *e = paren;
                while (e > s && (e[-1] == ' ')) e--;
                const char *b = e;
                while (b > s && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
                                 (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9')))
                    b--;
                snprintf(k->name, sizeof k->name, "%.*s", (int)(e - b), b);
            }
            char norm[4096];
            normalise(s, norm, sizeof norm);
            if (strlen(norm) >= MIN_LINE && !has(public_lines, norm) && !has(&k->own, norm))
                push(&k->own, norm);
            for (const char *p = s; *p; p++) {
                if (*p == '{') depth++, opened = 1;
                if (*p == '}') depth--;
            }
            if (opened && depth <= 0) break;
        }
        i = j;
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static void read_dir(const char *dir, lines *public_lines, int as_kernels)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "check_answers: cannot open %s\n", dir);
        exit(2);
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!ends_with(e->d_name, ".cu")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (as_kernels) {
            read_kernels(path, public_lines);
        } else {
            lines l = read_lines(path);
            for (int i = 0; i < l.n; i++) {
                char norm[4096];
                normalise(l.line[i], norm, sizeof norm);
                if (strlen(norm) >= MIN_LINE) push(public_lines, norm);
            }
        }
    }
    closedir(d);
}

/* One code block (``` to ```) of a text against every kernel. */
static int check_block(const char *text, int first_line, const lines *block)
{
    int bad = 0;
    for (int k = 0; k < n_kernels; k++) {
        const kernel *kn = &kernels[k];
        if (kn->own.n < MIN_KERNEL_LINES) continue;
        int held = 0;
        for (int i = 0; i < kn->own.n; i++) held += has(block, kn->own.line[i]);
        if (2 * held >= kn->own.n) {
            printf("FAIL facts/answers/%s: the code block at line %d holds %d of the %d lines "
                   "of %s (%s): describe the idea and let the student write it\n",
                   text, first_line, held, kn->own.n, kn->name, kn->file);
            bad = 1;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: check_answers SOLUTION_DIR PUBLIC_DIR[:PUBLIC_DIR...] TEXT...\n");
        return 2;
    }
    lines public_lines = {0};
    for (char *dirs = strdup(argv[2]), *dir = strtok(dirs, ":"); dir; dir = strtok(NULL, ":"))
        read_dir(dir, &public_lines, 0);
    read_dir(argv[1], &public_lines, 1);
    int status = 0;
    for (int t = 3; t < argc; t++) {
        lines text = read_lines(argv[t]), block = {0};
        int in_code = 0, start = 0, bad = 0;
        for (int i = 0; i < text.n; i++) {
            const char *s = text.line[i];
            while (*s == ' ') s++;
            if (!strncmp(s, "```", 3)) {
                if (in_code) bad |= check_block(argv[t], start, &block);
                in_code = !in_code;
                start = i + 1;
                block.n = 0;
                continue;
            }
            if (in_code) {
                char norm[4096];
                normalise(text.line[i], norm, sizeof norm);
                push(&block, norm);
            }
        }
        if (!bad) printf("PASS facts/answers/%s\n", argv[t]);
        status |= bad;
    }
    return status;
}
