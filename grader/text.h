/* text.h - a growing string, sorting names, and JSON string escaping. */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    char *s;   /* always NUL-terminated once anything was added */
    size_t len, cap;
} strbuf;

void sb_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Append text with every line indented by `indent`. */
void sb_indent(strbuf *b, const char *text, const char *indent);
const char *sb_str(const strbuf *b); /* "" when empty */
void sb_free(strbuf *b);

/* qsort's comparator for an array of C strings, in strcmp's order. */
int compare_names(const void *a, const void *b);

/* Write s as a JSON string literal (with quotes). */
void json_string(FILE *f, const char *s);
/* Write a number, or null for NaN/Inf (JSON has neither). */
void json_number(FILE *f, double x);

#endif
