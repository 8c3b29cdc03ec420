/* check_facts.c - do the READMEs and slides state the thresholds the specs
 * hold?
 *
 * The fast stage's thresholds live in each lab's spec.c and nowhere else;
 * the lab's README and slide deck quote them in prose, tables and sample
 * reports. This reads those texts and finds every statement of a
 * threshold, in the forms the texts use:
 *   - a report's "(needs >= 50%)" and "(needs >= 3x)";
 *   - ">= 6x" and ">= 50%" ("verdict at >= 6x", "Threshold: >= 60x");
 *   - "min_speedup = 6" and "min_roofline = 0.5";
 *   - every "Nx" and "N%" in a table row of the fast stage ("| `fast` |");
 *   - every "Nx" and "N%" after "at least" inside a bold span ("**at least
 *     50% of copy**"), or right after "at least **".
 * Each must equal the spec's min_speedup (x), or the second size's where the
 * lab times one (fast.second), or min_roofline (%). Measured
 * figures in prose ("every version at least 78%") are not statements of a
 * threshold and are left alone.
 *
 * A second check reads the student READMEs only (files named README.md
 * under labs/): the calibration of the thresholds, with its tables, pasted
 * ladders and GPU details, lives in the lab's INSTRUCTOR.md, and a README
 * must not carry it. It fails on any of these, case ignored, a space
 * standing for any run of blanks and line breaks (so a phrase wrapped
 * across two lines is found too):
 *   - "calibrate.sh", the calibration script;
 *   - "lead engineer", "seed lecture", "Spanish deck", "French deck", and
 *     "seeds" as a whole word: the course's internal names for its sources;
 *   - "driver 5": a driver version ("driver 580.159");
 *   - a pasted ladder table: a line that starts with "rung " and has
 *     "time ms" later on the same line (the header `make ladder` prints).
 * Each find is one FAIL line with its line number. INSTRUCTOR.md files and
 * the slides are not read by this check.
 *
 * usage: check_facts FILE...   (labs/NN-name/README.md, labs/NN-name/INSTRUCTOR.md,
 *                               slides/NN-name.md)
 * Prints PASS facts/FILE when the file passes both checks, or one
 * FAIL facts/FILE: what differs (or what was found) per problem; exit 1 on
 * any FAIL.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labs.h"

typedef struct {
    const char *file;
    const lab_spec *spec;
    int line; /* where the unit being read starts */
    char why[400];
} checker;

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* One stated threshold: value and unit ('x' or '%'). */
static void stated(checker *c, double value, char unit, const char *context)
{
    if (c->why[0]) return; /* the first difference is enough */
    const lab_spec *s = c->spec;
    /* A lab timed at a second size (fast.second) has a second speedup bar. */
    int second = s->fast.second.min_speedup > 0 && fabs(value - s->fast.second.min_speedup) <= 1e-9;
    if (unit == 'x' && fabs(value - s->fast.min_speedup) > 1e-9 && !second)
        snprintf(c->why, sizeof c->why, "line %d says %gx (\"%.60s\") where the spec's min_speedup is %g",
                 c->line, value, context, s->fast.min_speedup);
    if (unit == '%' && lab_roof_bar(s) == 0)
        snprintf(c->why, sizeof c->why, "line %d states %g%% (\"%.60s\") but the spec has no roofline threshold",
                 c->line, value, context);
    else if (unit == '%' && fabs(value - 100 * s->fast.min_roofline) > 1e-9)
        snprintf(c->why, sizeof c->why, "line %d says %g%% (\"%.60s\") where the spec's min_roofline is %g%%",
                 c->line, value, context, 100 * s->fast.min_roofline);
}

/* A number at p followed by x or % (not part of a longer word). */
static int number_with_unit(const char *p, double *value, char *unit, const char **end)
{
    if (!isdigit((unsigned char)*p)) return 0;
    char *e;
    *value = strtod(p, &e);
    if (*e != 'x' && *e != '%') return 0;
    if (*e == 'x' && isalnum((unsigned char)e[1])) return 0;
    *unit = *e;
    *end = e + 1;
    return 1;
}

/* Every "Nx" and "N%" in [from, to) that starts a number. */
static void all_numbers(checker *c, const char *from, const char *to)
{
    for (const char *p = from; p < to; p++) {
        if (p > from && (isalnum((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == '^')) continue;
        double v;
        char u;
        const char *e;
        if (number_with_unit(p, &v, &u, &e) && e <= to) {
            stated(c, v, u, p);
            p = e - 1;
        }
    }
}

/* The forms that can appear anywhere in a unit. */
static void phrases(checker *c, const char *text)
{
    for (const char *p = strstr(text, ">= "); p; p = strstr(p + 3, ">= ")) {
        double v;
        char u;
        const char *e;
        if (number_with_unit(p + 3, &v, &u, &e)) stated(c, v, u, p);
    }
    const char *key[2] = {"min_speedup = ", "min_roofline = "};
    for (int k = 0; k < 2; k++)
        for (const char *p = strstr(text, key[k]); p; p = strstr(p + 1, key[k])) {
            char *e;
            double v = strtod(p + strlen(key[k]), &e);
            if (e == p + strlen(key[k])) continue;
            if (k == 0) stated(c, v, 'x', p);
            else stated(c, 100 * v, '%', p);
        }
    for (const char *p = strstr(text, "at least **"); p; p = strstr(p + 1, "at least **")) {
        double v;
        char u;
        const char *e;
        if (number_with_unit(p + 11, &v, &u, &e)) stated(c, v, u, p);
    }
    /* Bold spans that say "at least": the figures after it. */
    for (const char *open = strstr(text, "**"); open; ) {
        const char *close = strstr(open + 2, "**");
        if (!close) break;
        const char *least = strstr(open, "at least ");
        if (least && least < close) all_numbers(c, least, close);
        open = strstr(close + 2, "**");
    }
}

static int is_fast_row(const char *row)
{
    return !strncmp(row, "| `fast` |", 10) || !strncmp(row, "| fast |", 8) ||
           !strncmp(row, "| **fast** |", 12);
}

static void check_file(checker *c, char *text)
{
    /* Units: each table row alone; other lines joined into paragraphs. */
    int line = 1;
    char *p = text;
    while (*p) {
        char *eol = strchr(p, '\n');
        if (!eol) eol = p + strlen(p);
        if (*p == '|') {
            char saved = *eol;
            *eol = 0;
            c->line = line;
            phrases(c, p);
            if (is_fast_row(p)) {
                /* the cells after the stage's name and its sizes */
                const char *cell = p;
                for (int bar = 0; bar < 2 && cell; bar++) cell = strchr(cell + 1, '|');
                if (cell) all_numbers(c, cell, eol);
            }
            *eol = saved;
            p = *eol ? eol + 1 : eol;
            line++;
            continue;
        }
        /* A paragraph: up to a blank line or a table. */
        char *start = p;
        int first = line;
        while (*p && *p != '\n' && *p != '|') {
            char *e = strchr(p, '\n');
            if (!e) { p += strlen(p); break; }
            *e = ' '; /* join the lines */
            p = e + 1;
            line++;
        }
        char saved = *p;
        *p = 0;
        c->line = first;
        phrases(c, start);
        *p = saved;
        if (*p == '\n') { p++; line++; }
    }
}

/* Instructor-only material: what a student README must not carry. */
static const struct {
    const char *phrase; /* a space matches any run of blanks and line breaks */
    int whole_word;     /* 1: not followed by a letter or digit either */
    const char *what;
} INSTRUCTOR_ONLY[] = {
    {"calibrate.sh", 0, "the calibration script"},
    {"lead engineer", 0, "an internal role"},
    {"seed lecture", 0, "an internal name for the lecture slides"},
    {"seeds", 1, "an internal name for the course's sources"},
    {"Spanish deck", 0, "an internal name for a lecture deck"},
    {"French deck", 0, "an internal name for a lecture deck"},
    {"driver 5", 0, "a driver version"},
};

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The length of the match of phrase at p, or 0. */
static size_t phrase_at(const char *p, const char *phrase)
{
    const char *q = p;
    for (const char *f = phrase; *f; f++) {
        if (*f == ' ') {
            if (!is_blank(*q)) return 0;
            while (is_blank(*q)) q++;
        } else if (tolower((unsigned char)*q) == tolower((unsigned char)*f)) {
            q++;
        } else {
            return 0;
        }
    }
    return (size_t)(q - p);
}

/* Is this a student README, labs/.../README.md? */
static int is_student_readme(const char *path)
{
    size_t n = strlen(path);
    const char *name = "README.md";
    size_t k = strlen(name);
    if (n < k || strcmp(path + n - k, name) || (n > k && path[n - k - 1] != '/')) return 0;
    return strncmp(path, "labs/", 5) == 0 || strstr(path, "/labs/") != NULL;
}

/* Prints one FAIL line per piece of instructor-only material in text;
 * returns how many it found. */
static int instructor_material(const char *file, const char *text)
{
    int found = 0, line = 1;
    for (const char *p = text; *p; p++) {
        int start_of_word = p == text || !isalnum((unsigned char)p[-1]);
        int start_of_line = p == text || p[-1] == '\n';
        if (start_of_line) {
            /* a pasted ladder: "rung ... time ms" on one line */
            const char *r = p;
            while (*r == ' ' || *r == '\t') r++;
            const char *eol = strchr(r, '\n');
            if (!eol) eol = r + strlen(r);
            if (phrase_at(r, "rung") && (r[4] == ' ' || r[4] == '\t')) {
                for (const char *t = r + 5; t < eol; t++) {
                    size_t len = phrase_at(t, "time ms");
                    if (len && t + len <= eol) {
                        printf("FAIL facts/%s: line %d has instructor-only material: a pasted "
                               "ladder table (\"rung ... time ms\"); it belongs in INSTRUCTOR.md\n",
                               file, line);
                        found++;
                        break;
                    }
                }
            }
        }
        if (start_of_word)
            for (size_t k = 0; k < sizeof INSTRUCTOR_ONLY / sizeof INSTRUCTOR_ONLY[0]; k++) {
                size_t len = phrase_at(p, INSTRUCTOR_ONLY[k].phrase);
                if (!len || (INSTRUCTOR_ONLY[k].whole_word && isalnum((unsigned char)p[len])))
                    continue;
                char seen[64];
                size_t m = 0;
                for (size_t i = 0; i < len && m + 1 < sizeof seen; i++)
                    if (!is_blank(p[i])) seen[m++] = p[i];
                    else if (m && seen[m - 1] != ' ') seen[m++] = ' ';
                seen[m] = 0;
                printf("FAIL facts/%s: line %d has instructor-only material: \"%s\" (%s); "
                       "it belongs in INSTRUCTOR.md\n",
                       file, line, seen, INSTRUCTOR_ONLY[k].what);
                found++;
            }
        if (*p == '\n') line++;
    }
    return found;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        checker c = {argv[i], NULL, 0, ""};
        /* labs/NN-name/README.md or slides/NN-name.md: the lab is NN. */
        const char *base = strstr(argv[i], "labs/") ? strstr(argv[i], "labs/") + 5
                                                    : strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1
                                                                             : argv[i];
        char number[3] = {base[0], base[1], 0};
        c.spec = lab_find(number);
        char *text = read_all(argv[i]);
        if (!c.spec || !text) {
            printf("FAIL facts/%s: %s\n", argv[i], !c.spec ? "no lab for this file" : "cannot read it");
            failed++;
            free(text);
            continue;
        }
        /* before check_file, which joins the lines of a paragraph */
        int material = is_student_readme(argv[i]) ? instructor_material(argv[i], text) : 0;
        check_file(&c, text);
        free(text);
        if (c.why[0]) printf("FAIL facts/%s: %s\n", argv[i], c.why);
        if (c.why[0] || material) failed++;
        else printf("PASS facts/%s\n", argv[i]);
    }
    return failed ? 1 : 0;
}
