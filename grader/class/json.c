/* json.c - see json.h. Recursive descent over a byte range. */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JV_MAX_DEPTH = 200 }; /* deeper than any results file; keeps the stack bounded */

typedef struct {
    const char *p, *end, *start;
    char *err;
    size_t err_size;
    int depth;
} jv_parser;

static int jv_fail(jv_parser *ps, const char *what)
{
    if (ps->err && ps->err_size && !ps->err[0])
        snprintf(ps->err, ps->err_size, "%s at byte %ld", what, (long)(ps->p - ps->start));
    return -1;
}

static void jv_skip_blanks(jv_parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static jv_value *jv_new(jv_type t)
{
    jv_value *v = calloc(1, sizeof *v);
    if (v) v->type = t;
    return v;
}

static int jv_literal(jv_parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return jv_fail(ps, "unexpected character");
    ps->p += n;
    return 0;
}

static int jv_hex4(jv_parser *ps, unsigned *out)
{
    if (ps->end - ps->p < 4) return jv_fail(ps, "short \\u escape");
    unsigned x = 0;
    for (int i = 0; i < 4; i++) {
        char c = *ps->p++;
        x <<= 4;
        if (c >= '0' && c <= '9') x |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') x |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') x |= (unsigned)(c - 'A' + 10);
        else return jv_fail(ps, "bad hex digit in \\u escape");
    }
    *out = x;
    return 0;
}

static size_t jv_utf8(unsigned cp, char *o)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string starting at the opening quote; the decoded text is never longer
 * than the source, so one allocation of the source length is enough. */
static int jv_string(jv_parser *ps, char **out)
{
    ps->p++; /* the quote */
    const char *q = ps->p;
    while (q < ps->end && *q != '"') {
        if (*q == '\\' && ps->end - q < 2) { q = ps->end; break; }
        q += (*q == '\\') ? 2 : 1;
    }
    if (q >= ps->end) return jv_fail(ps, "unterminated string");
    char *s = malloc((size_t)(q - ps->p) + 1), *o = s;
    if (!s) return jv_fail(ps, "out of memory");
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p++;
        if (c < 0x20) { free(s); return jv_fail(ps, "control character in string"); }
        if (c != '\\') { *o++ = (char)c; continue; }
        char e = *ps->p++;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (jv_hex4(ps, &cp) != 0) { free(s); return -1; }
            /* A surrogate pair is one code point; a lone half becomes U+FFFD. */
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                ps->p[1] == 'u') {
                const char *save = ps->p;
                ps->p += 2;
                if (jv_hex4(ps, &lo) != 0) { free(s); return -1; }
                if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else { ps->p = save; cp = 0xFFFD; }
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            o += jv_utf8(cp, o);
            break;
        }
        default: free(s); ps->p--; return jv_fail(ps, "bad escape in string");
        }
    }
    ps->p++;
    *o = 0;
    *out = s;
    return 0;
}

/* JSON's number grammar, strictly: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
static int jv_number(jv_parser *ps, double *out)
{
    const char *s = ps->p, *q = s;
#define JV_DIGITS(q) while (q < ps->end && *q >= '0' && *q <= '9') q++
    if (q < ps->end && *q == '-') q++;
    if (q < ps->end && *q == '0') q++;
    else if (q < ps->end && *q >= '1' && *q <= '9') { JV_DIGITS(q); }
    else return jv_fail(ps, "bad number");
    if (q < ps->end && *q == '.') {
        const char *d = ++q;
        JV_DIGITS(q);
        if (q == d) return jv_fail(ps, "bad number");
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-')) q++;
        const char *d = q;
        JV_DIGITS(q);
        if (q == d) return jv_fail(ps, "bad number");
    }
#undef JV_DIGITS
    char buf[64];
    if ((size_t)(q - s) >= sizeof buf) return jv_fail(ps, "number too long");
    memcpy(buf, s, (size_t)(q - s));
    buf[q - s] = 0;
    *out = strtod(buf, NULL); /* out-of-range gives +-HUGE_VAL or 0, both fine here */
    ps->p = q;
    return 0;
}

static int jv_value_at(jv_parser *ps, jv_value **out);

static int jv_push(jv_value *v, char *key, jv_value *item)
{
    if ((v->n & (v->n - 1)) == 0) { /* grow at powers of two */
        size_t cap = v->n ? 2 * v->n : 1;
        jv_value **items = realloc(v->items, cap * sizeof *items);
        if (!items) return -1;
        v->items = items;
        if (v->type == JV_OBJECT) {
            char **keys = realloc(v->keys, cap * sizeof *keys);
            if (!keys) return -1;
            v->keys = keys;
        }
    }
    if (v->type == JV_OBJECT) v->keys[v->n] = key;
    v->items[v->n++] = item;
    return 0;
}

static int jv_container(jv_parser *ps, jv_value *v, char close)
{
    ps->p++;
    jv_skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == close) { ps->p++; return 0; }
    for (;;) {
        char *key = NULL;
        jv_skip_blanks(ps);
        if (v->type == JV_OBJECT) {
            if (ps->p >= ps->end || *ps->p != '"') return jv_fail(ps, "expected a key");
            if (jv_string(ps, &key) != 0) return -1;
            jv_skip_blanks(ps);
            if (ps->p >= ps->end || *ps->p != ':') { free(key); return jv_fail(ps, "expected ':'"); }
            ps->p++;
        }
        jv_value *item = NULL;
        if (jv_value_at(ps, &item) != 0) { free(key); return -1; }
        if (jv_push(v, key, item) != 0) { free(key); jv_free(item); return jv_fail(ps, "out of memory"); }
        jv_skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
        if (ps->p < ps->end && *ps->p == close) { ps->p++; return 0; }
        return jv_fail(ps, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int jv_value_at(jv_parser *ps, jv_value **out)
{
    jv_skip_blanks(ps);
    if (ps->p >= ps->end) return jv_fail(ps, "unexpected end of input");
    if (++ps->depth > JV_MAX_DEPTH) return jv_fail(ps, "nested too deeply");
    jv_value *v = NULL;
    int rc = -1;
    char c = *ps->p;
    if (c == '{' || c == '[') {
        v = jv_new(c == '{' ? JV_OBJECT : JV_ARRAY);
        rc = v ? jv_container(ps, v, c == '{' ? '}' : ']') : jv_fail(ps, "out of memory");
    } else if (c == '"') {
        v = jv_new(JV_STRING);
        rc = v ? jv_string(ps, &v->string) : jv_fail(ps, "out of memory");
    } else if (c == 't' || c == 'f' || c == 'n') {
        v = jv_new(c == 't' ? JV_TRUE : c == 'f' ? JV_FALSE : JV_NULL);
        rc = v ? jv_literal(ps, c == 't' ? "true" : c == 'f' ? "false" : "null")
               : jv_fail(ps, "out of memory");
    } else {
        v = jv_new(JV_NUMBER);
        rc = v ? jv_number(ps, &v->number) : jv_fail(ps, "out of memory");
    }
    ps->depth--;
    if (rc != 0) { jv_free(v); return -1; }
    *out = v;
    return 0;
}

int jv_parse(const char *text, size_t len, jv_value **out, char *err, size_t err_size)
{
    jv_parser ps = {text, text + len, text, err, err_size, 0};
    if (err && err_size) err[0] = 0;
    *out = NULL;
    jv_value *v = NULL;
    if (jv_value_at(&ps, &v) != 0) return -1;
    jv_skip_blanks(&ps);
    if (ps.p != ps.end) {
        jv_free(v);
        return jv_fail(&ps, "text after the value");
    }
    *out = v;
    return 0;
}

int jv_parse_file(const char *path, jv_value **out, char *err, size_t err_size)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) { free(buf); buf = NULL; }
            buf = b;
        }
    }
    fclose(f);
    if (!buf) { snprintf(err, err_size, "out of memory reading %s", path); return -1; }
    int rc = jv_parse(buf, len, out, err, err_size);
    free(buf);
    return rc;
}

void jv_free(jv_value *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n; i++) {
        if (v->keys) free(v->keys[i]);
        jv_free(v->items[i]);
    }
    free(v->keys);
    free(v->items);
    free(v->string);
    free(v);
}

const jv_value *jv_get(const jv_value *o, const char *key)
{
    if (!o || o->type != JV_OBJECT) return NULL;
    for (size_t i = o->n; i-- > 0;)
        if (!strcmp(o->keys[i], key)) return o->items[i];
    return NULL;
}

const char *jv_str(const jv_value *o, const char *key, const char *dflt)
{
    const jv_value *v = jv_get(o, key);
    return v && v->type == JV_STRING ? v->string : dflt;
}

double jv_num(const jv_value *o, const char *key, double dflt)
{
    const jv_value *v = jv_get(o, key);
    return v && v->type == JV_NUMBER && isfinite(v->number) ? v->number : dflt;
}

int jv_bool(const jv_value *o, const char *key, int dflt)
{
    const jv_value *v = jv_get(o, key);
    return v && v->type == JV_TRUE ? 1 : v && v->type == JV_FALSE ? 0 : dflt;
}
