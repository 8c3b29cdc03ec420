/* source_rules.c - see source_rules.h. */
#define _DEFAULT_SOURCE /* realpath */
#include "source_rules.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate.h"

/* The whole file, NUL-terminated, or NULL when it cannot be read or is
 * larger than max (then *too_big is set). */
static char *read_all(const char *path, size_t max, size_t *len, int *too_big)
{
    *too_big = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(max + 2);
    size_t n = buf ? fread(buf, 1, max + 1, f) : 0;
    fclose(f);
    if (!buf) return NULL;
    if (n > max) {
        *too_big = 1;
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Skip a backslash-newline splice at s[*i]; returns 1 if one was there. */
static int splice(const char *s, size_t n, size_t *i, int *line)
{
    if (s[*i] != '\\') return 0;
    size_t j = *i + 1;
    if (j < n && s[j] == '\r') j++;
    if (j < n && s[j] == '\n') {
        *i = j + 1;
        (*line)++;
        return 1;
    }
    return 0;
}

/* Skip a block comment that starts at s[*i]; returns 1 if one did. */
static int block_comment(const char *s, size_t n, size_t *i, int *line)
{
    if (!(s[*i] == '/' && *i + 1 < n && s[*i + 1] == '*')) return 0;
    for (*i += 2; *i < n && !(s[*i] == '*' && *i + 1 < n && s[*i + 1] == '/'); (*i)++)
        if (s[*i] == '\n') (*line)++;
    *i += 2;
    return 1;
}

int src_check_text(const char *path, char *why, size_t size)
{
    size_t n = 0;
    int too_big;
    char *s = read_all(path, SRC_MAX_BYTES, &n, &too_big);
    if (!s) {
        snprintf(why, size, too_big ? "the file is larger than %d MiB: a submission is source code"
                                    : "the file cannot be read", SRC_MAX_BYTES >> 20);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (s[i] == 0) {
            snprintf(why, size, "it is not a text file (byte %zu is NUL): submit the .cu source", i);
            free(s);
            return -1;
        }
    int line = 1, at_start = 1;
    size_t i = 0;
    while (i < n) {
        if (splice(s, n, &i, &line)) continue;
        char c = s[i];
        if (c == '\n') { line++; at_start = 1; i++; continue; }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') { /* to the end of the line */
            while (i < n && s[i] != '\n')
                if (!splice(s, n, &i, &line)) i++;
            continue;
        }
        if (block_comment(s, n, &i, &line)) continue;
        if (isspace((unsigned char)c)) { i++; continue; }
        int hash = c == '#' ? 1 : (c == '%' && i + 1 < n && s[i + 1] == ':') ? 2 : 0;
        if (at_start && hash) {
            int at_line = line;
            i += (size_t)hash;
            for (;;) { /* blanks and comments between # and the name */
                if (splice(s, n, &i, &line)) continue;
                if (i < n && (s[i] == ' ' || s[i] == '\t')) { i++; continue; }
                if (i < n && block_comment(s, n, &i, &line)) continue;
                break;
            }
            char name[8] = "";
            size_t k = 0;
            while (i < n && k < sizeof name - 1 && (isalnum((unsigned char)s[i]) || s[i] == '_')) {
                name[k++] = s[i++];
                while (splice(s, n, &i, &line)) {
                }
            }
            name[k] = 0;
            if (!strcmp(name, "line") || isdigit((unsigned char)name[0])) {
                snprintf(why, size, "line %d: a #line directive would make the compiler's and the "
                         "grader's reports name other files' lines; remove it", at_line);
                free(s);
                return -1;
            }
        }
        at_start = 0;
        if (c == '"' || c == '\'') { /* a literal: its text is no directive */
            for (i++; i < n && s[i] != c && s[i] != '\n'; i++)
                if (s[i] == '\\' && i + 1 < n) i++;
        }
        i++;
    }
    free(s);
    return 0;
}

void src_roots_add(src_roots *r, const char *dir)
{
    char real[PATH_MAX];
    if (r->n >= SRC_MAX_ROOTS || !dir || !realpath(dir, real)) return;
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->dir[i], real)) return;
    snprintf(r->dir[r->n++], sizeof r->dir[0], "%s", real);
}

void src_roots_add_compiler(src_roots *r, const char *cxx, const char *log)
{
    remove(log);
    char *argv[] = {(char *)cxx, "-E", "-x", "c++", "-v", "/dev/null", NULL};
    iso_result ir;
    if (iso_run(argv, log, 60, &ir) != 0) return;
    char *text = iso_log_tail(log, 64 * 1024);
    int listing = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        if (strstr(line, "search starts here:")) listing = 1;
        else if (!strncmp(line, "End of search list.", 19)) listing = 0;
        else if (listing && line[0] == ' ') src_roots_add(r, line + 1);
    }
    free(text);
}

static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strncmp(path, dir, n) && (path[n] == '/' || (n == 1 && dir[0] == '/'));
}

int src_check_dependencies(const char *deps_path, const char *source, const char *original,
                           const src_roots *roots,
                           const char *const *header_hints, const char *const *libraries,
                           int n_libraries, char *why, size_t size)
{
    size_t n = 0;
    int too_big;
    char *s = read_all(deps_path, 16 << 20, &n, &too_big);
    if (!s) {
        snprintf(why, size, "the compiler listed no files it read");
        return -1;
    }
    char source_real[PATH_MAX] = "", original_real[PATH_MAX] = "";
    if (!realpath(source, source_real)) snprintf(source_real, sizeof source_real, "%s", source);
    if (!realpath(original, original_real)) snprintf(original_real, sizeof original_real, "%s", original);
    int seen_target = 0, verdict = 0;
    size_t i = 0;
    while (i < n && verdict == 0) {
        while (i < n && (isspace((unsigned char)s[i]) || (s[i] == '\\' && i + 1 < n &&
                                                          (s[i + 1] == '\n' || s[i + 1] == '\r'))))
            i++;
        char word[PATH_MAX];
        size_t k = 0;
        while (i < n && !isspace((unsigned char)s[i]) && k < sizeof word - 1) {
            if (s[i] == '\\' && i + 1 < n && s[i + 1] == ' ') i++; /* an escaped blank */
            else if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) break;
            word[k++] = s[i++];
        }
        word[k] = 0;
        if (!k) continue;
        if (!seen_target) {
            seen_target = word[k - 1] == ':';
            continue;
        }
        char real[PATH_MAX];
        if (!realpath(word, real)) {
            snprintf(why, size, "your file includes %.300s, which cannot be resolved", word);
            verdict = -1;
            break;
        }
        if (!strcmp(real, source_real) || !strcmp(real, original_real)) continue;
        for (int l = 0; l < n_libraries && verdict == 0; l++)
            if (header_hints[l] && strstr(real, header_hints[l])) {
                snprintf(why, size, "your file includes %.300s from %s: this lab forbids it, "
                         "because writing that part yourself is the lesson", real, libraries[l]);
                verdict = -1;
            }
        if (verdict) break;
        int ok = 0;
        for (int r = 0; r < roots->n && !ok; r++) ok = under(real, roots->dir[r]);
        if (!ok) {
            snprintf(why, size, "your file includes %.300s, which is outside what a submission may "
                     "include (the CUDA Toolkit's, the compiler's and the system's headers, and "
                     "common/)", real);
            verdict = -1;
        }
    }
    free(s);
    return verdict;
}

/* What is wrong with one word of the student's host code, or NULL. */
static const char *word_rule(const char *w, size_t n)
{
    if ((n == 3 && !strncmp(w, "asm", 3)) || (n == 5 && !strncmp(w, "__asm", 5)) ||
        (n == 7 && !strncmp(w, "__asm__", 7)))
        return "host code may not use inline assembly (asm); device code may, as PTX";
    /* The host compiler's static initialiser: the one constructor the
     * emulation lets through, so its name may not be borrowed. */
    if (n >= 9 && !strncmp(w, "_GLOBAL__", 9))
        return "_GLOBAL__ names are the compiler's own";
    /* The emulation's other one: the module constructor GCC adds with
     * -fsanitize=thread (grader/object_rules.c). */
    if (n >= 7 && !strncmp(w, "_sub_I_", 7))
        return "_sub_I_ names are the compiler's own";
    return NULL;
}

/* The first rule one line of code breaks, outside literals, or NULL. */
static const char *line_rule(const char *line)
{
    for (const char *p = line; *p;) {
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            while (*p && *p != q) p += (*p == '\\' && p[1]) ? 2 : 1;
            if (*p) p++;
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            const char *w = p;
            while (isalnum((unsigned char)*p) || *p == '_') p++;
            const char *rule = word_rule(w, (size_t)(p - w));
            if (rule) return rule;
        } else {
            p++;
        }
    }
    return NULL;
}

int src_check_host_code(const char *preprocessed, const char *source_name, char *why, size_t size)
{
    FILE *f = fopen(preprocessed, "r");
    if (!f) {
        snprintf(why, size, "the compiler's host code could not be read");
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int mine = 0, line_no = 0, skip_depth = 0, verdict = 0;
    while (getline(&line, &cap, f) >= 0) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t') p++;
            if (skip_depth) {
                if (!strncmp(p, "if", 2)) skip_depth++;
                else if (!strncmp(p, "endif", 5)) skip_depth--;
            } else if (!strncmp(p, "if 0", 4)) {
                skip_depth = 1;
            } else if (isdigit((unsigned char)*p)) { /* # N "file" flags, or # N */
                line_no = atoi(p) - 1;
                const char *q = strchr(p, '"');
                if (q) {
                    const char *end = strrchr(q + 1, '"');
                    size_t len = end ? (size_t)(end - q - 1) : 0;
                    mine = len == strlen(source_name) && !strncmp(q + 1, source_name, len);
                }
            }
            continue;
        }
        line_no++;
        const char *rule = skip_depth || !mine ? NULL : line_rule(p);
        if (!rule) continue;
        snprintf(why, size, "line %d: %s", line_no, rule);
        verdict = -1;
        break;
    }
    free(line);
    fclose(f);
    return verdict;
}
