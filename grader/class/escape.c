/* escape.c - see escape.h. */
#include "escape.h"

#include <string.h>

void esc_xml(FILE *f, const char *s, int attribute)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        case '\n': fputs(attribute ? "&#10;" : "\n", f); break;
        case '\t': fputs(attribute ? "&#9;" : "\t", f); break;
        case '\r': fputs("&#13;", f); break;
        default: fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
        }
    }
}

void esc_csv(FILE *f, const char *s)
{
    s = s ? s : "";
    int formula = strchr("=+-@\t\r", s[0]) != NULL && s[0];
    if (!formula && !s[strcspn(s, ",\"\n\r")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula) fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

void esc_md(FILE *f, const char *s)
{
    for (const char *p = s ? s : ""; *p; p++) {
        if (strchr("\\`*_[]<>|#&~", *p)) fputc('\\', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
}

void esc_md_block(FILE *f, const char *s)
{
    s = s ? s : "";
    int longest = 0, run = 0;
    for (const char *p = s; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    int fence = longest < 3 ? 3 : longest + 1;
    for (int i = 0; i < fence; i++) fputc('`', f);
    fputs("text\n", f);
    fputs(s, f);
    if (*s && s[strlen(s) - 1] != '\n') fputc('\n', f);
    for (int i = 0; i < fence; i++) fputc('`', f);
    fputc('\n', f);
}

void esc_shell(strbuf *b, const char *s)
{
    sb_printf(b, "'");
    for (const char *p = s ? s : ""; *p; p++) {
        if (*p == '\'') sb_printf(b, "'\\''");
        else sb_printf(b, "%c", *p);
    }
    sb_printf(b, "'");
}
