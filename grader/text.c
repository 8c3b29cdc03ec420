/* text.c - see text.h. */
#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) return;
    if (b->len + (size_t)need + 1 > b->cap) {
        size_t cap = (b->cap ? 2 * b->cap : 256);
        while (cap < b->len + (size_t)need + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) return;
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

void sb_indent(strbuf *b, const char *text, const char *indent)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        sb_printf(b, "%s%.*s\n", indent, n, p);
        p += n + (nl ? 1 : 0);
    }
}

const char *sb_str(const strbuf *b) { return b->s ? b->s : ""; }

void sb_free(strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) fprintf(f, "\\u%04x", *p);
            else fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.10g", x);
    else fputs("null", f);
}

int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}
