/* emu_rewrite: turns a CUDA .cu file into C++ that the CPU emulation compiles.
 *
 *   emu_rewrite in.cu out.cpp      (out.cpp may be "-" for standard output)
 *
 * Only two constructs change; everything else, comments and literals
 * included, is copied byte for byte:
 *
 *   kernel<<<grid, block, shmem, stream>>>(args)
 *     -> emu::launch("kernel", [&](auto &&...emu_launch_args) { kernel(emu_launch_args...); },
 *                    grid, block, shmem, stream)(args)
 *   __shared__ float tile[32][33];
 *     -> static float (&tile)[32][33] = emu::shared_variable<float[32][33]>("tile", [] {});
 *   extern __shared__ float buffer[];
 *     -> static float *const &buffer = emu::dynamic_shared<float>::get();
 *
 * Rewrites never add or remove a line (newlines inside a rewritten construct
 * are re-emitted after it), and the output starts with a #line directive
 * naming the input, so compiler messages point at the original file and line.
 * Preprocessor directives are copied untouched: launches written inside
 * macros are not supported. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t length;
    size_t capacity;
} text;

static void text_append(text *t, const char *bytes, size_t count)
{
    if (t->length + count + 1 > t->capacity) {
        size_t capacity = t->capacity ? t->capacity : 4096;
        while (capacity < t->length + count + 1)
            capacity *= 2;
        char *grown = realloc(t->data, capacity);
        if (!grown) {
            fprintf(stderr, "emu_rewrite: out of memory\n");
            exit(1);
        }
        t->data = grown;
        t->capacity = capacity;
    }
    memcpy(t->data + t->length, bytes, count);
    t->length += count;
    t->data[t->length] = '\0';
}

static void text_append_string(text *t, const char *s) { text_append(t, s, strlen(s)); }

static bool is_identifier_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_identifier_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* ---- lexical skipping: comments, literals, numbers, identifiers ---- */

static size_t skip_quoted(const char *s, size_t n, size_t p)
{
    char quote = s[p++];
    while (p < n) {
        if (s[p] == '\\')
            p += 2;
        else if (s[p] == quote)
            return p + 1;
        else if (s[p] == '\n')
            return p; /* unterminated: stop at the end of the line */
        else
            p++;
    }
    return n;
}

/* s[p] is the '"' of R"delimiter( ... )delimiter" */
static size_t skip_raw_string(const char *s, size_t n, size_t p)
{
    size_t open = p + 1;
    while (open < n && s[open] != '(' && open - p <= 17)
        open++;
    if (open >= n || s[open] != '(')
        return skip_quoted(s, n, p);
    size_t delimiter_length = open - (p + 1);
    for (size_t q = open + 1; q + delimiter_length + 1 < n + 1; q++)
        if (s[q] == ')' && q + delimiter_length + 1 < n && memcmp(s + q + 1, s + p + 1, delimiter_length) == 0 &&
            s[q + 1 + delimiter_length] == '"')
            return q + delimiter_length + 2;
    return n;
}

static bool word_is(const char *s, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(s, word, length) == 0;
}

static bool is_raw_prefix(const char *s, size_t length)
{
    return word_is(s, length, "R") || word_is(s, length, "LR") || word_is(s, length, "uR") ||
           word_is(s, length, "UR") || word_is(s, length, "u8R");
}

static bool is_encoding_prefix(const char *s, size_t length)
{
    return word_is(s, length, "L") || word_is(s, length, "u") || word_is(s, length, "U") ||
           word_is(s, length, "u8");
}

/* End of the comment, literal, number or identifier starting at p, or p. */
static size_t skip_token(const char *s, size_t n, size_t p)
{
    char c = s[p], d = p + 1 < n ? s[p + 1] : '\0';
    if (c == '/' && d == '/') {
        p += 2;
        while (p < n && s[p] != '\n')
            p += (s[p] == '\\' && p + 1 < n) ? 2 : 1;
        return p;
    }
    if (c == '/' && d == '*') {
        p += 2;
        while (p + 1 < n && !(s[p] == '*' && s[p + 1] == '/'))
            p++;
        return p + 2 <= n ? p + 2 : n;
    }
    if (c == '"' || c == '\'')
        return skip_quoted(s, n, p);
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)d))) {
        p++; /* a pp-number, which may hold digit separators: 1'000'000 */
        while (p < n) {
            char e = s[p];
            if (is_identifier_char(e) || e == '.')
                p++;
            else if (e == '\'' && p + 1 < n && isalnum((unsigned char)s[p + 1]))
                p++;
            else if ((e == '+' || e == '-') && strchr("eEpP", s[p - 1]))
                p++;
            else
                break;
        }
        return p;
    }
    if (is_identifier_start(c)) {
        size_t q = p;
        while (q < n && is_identifier_char(s[q]))
            q++;
        if (q < n && s[q] == '"' && is_raw_prefix(s + p, q - p))
            return skip_raw_string(s, n, q);
        if (q < n && (s[q] == '"' || s[q] == '\'') && is_encoding_prefix(s + p, q - p))
            return skip_quoted(s, n, q);
        return q;
    }
    return p;
}

/* ---- the rewriter ---- */

typedef struct {
    const char *src;
    size_t n;
    size_t pos;
    text out;
} rewriter;

static size_t count_newlines(const char *s, size_t length)
{
    size_t count = 0;
    for (size_t i = 0; i < length; i++)
        count += s[i] == '\n';
    return count;
}

static void append_newlines(text *t, size_t count)
{
    while (count-- > 0)
        text_append(t, "\n", 1);
}

/* Appends s with comments removed and every whitespace run made one space. */
static void append_flattened(text *t, const char *s, size_t length)
{
    bool pending_space = false;
    for (size_t p = 0; p < length;) {
        size_t end = skip_token(s, length, p);
        bool comment = end > p + 1 && s[p] == '/' && (s[p + 1] == '/' || s[p + 1] == '*');
        if (comment || is_space(s[p])) {
            pending_space = t->length > 0;
            p = comment ? end : p + 1;
            continue;
        }
        if (pending_space)
            text_append(t, " ", 1);
        pending_space = false;
        if (end == p)
            end = p + 1;
        text_append(t, s + p, end - p);
        p = end;
    }
}

static size_t skip_space_backward(const char *s, size_t p)
{
    while (p > 0 && is_space(s[p - 1]))
        p--;
    return p;
}

/* Moves back over whitespace and comments: kernel // note \n <<<...>>> */
static size_t skip_space_and_comments_backward(const char *s, size_t p)
{
    for (;;) {
        p = skip_space_backward(s, p);
        if (p >= 2 && s[p - 1] == '/' && s[p - 2] == '*') {
            size_t q = p - 2;
            while (q >= 2 && !(s[q - 2] == '/' && s[q - 1] == '*'))
                q--;
            if (q < 2)
                return p;
            p = q - 2;
            continue;
        }
        /* a // comment ending here: find it by scanning its line forward */
        size_t line = p;
        while (line > 0 && s[line - 1] != '\n')
            line--;
        size_t comment = p;
        for (size_t q = line; q < p;) {
            size_t end = skip_token(s, p, q);
            if (end > q + 1 && s[q] == '/' && s[q + 1] == '/') {
                comment = q;
                break;
            }
            q = end > q ? end : q + 1;
        }
        if (comment == p)
            return p;
        p = comment;
    }
}

/* Start, in the output so far, of the kernel expression that ends at end:
 * name, ns::name, name<args>, ns::name<T, 256>.  Returns end on failure. */
static size_t find_kernel_start(const char *s, size_t end)
{
    size_t p = end;
    for (;;) {
        if (p > 0 && s[p - 1] == '>') {
            int depth = 0;
            size_t q = p;
            while (q > 0) {
                char c = s[--q];
                if (c == '>')
                    depth++;
                else if (c == '<' && --depth == 0)
                    break;
                else if (c == ';' || c == '{' || c == '}')
                    return end;
            }
            if (depth != 0)
                return end;
            p = skip_space_backward(s, q);
        }
        size_t identifier_end = p;
        while (p > 0 && is_identifier_char(s[p - 1]))
            p--;
        if (p == identifier_end || isdigit((unsigned char)s[p]))
            return end;
        size_t q = skip_space_backward(s, p);
        if (q >= 2 && s[q - 1] == ':' && s[q - 2] == ':') {
            size_t r = skip_space_backward(s, q - 2);
            if (r > 0 && (is_identifier_char(s[r - 1]) || s[r - 1] == '>')) {
                p = r;
                continue;
            }
            return q - 2; /* ::kernel */
        }
        return p;
    }
}

static void append_escaped(text *t, const char *s, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        if (s[i] == '"' || s[i] == '\\')
            text_append(t, "\\", 1);
        text_append(t, s + i, 1);
    }
}

/* At "<<<": rewrite the launch, or return false to leave it alone. */
static bool rewrite_launch(rewriter *r)
{
    const char *s = r->src;
    size_t p = r->pos + 3;
    int depth = 0;
    while (p < r->n) {
        size_t end = skip_token(s, r->n, p);
        if (end > p) {
            p = end;
            continue;
        }
        char c = s[p];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth-- == 0)
                return false;
        } else if (c == ';')
            return false;
        else if (depth == 0 && c == '>' && p + 2 < r->n && s[p + 1] == '>' && s[p + 2] == '>')
            break;
        p++;
    }
    if (p >= r->n)
        return false;
    const size_t config_begin = r->pos + 3, config_end = p;

    text *out = &r->out;
    size_t kernel_end = skip_space_and_comments_backward(out->data ? out->data : "", out->length);
    size_t kernel_start = find_kernel_start(out->data ? out->data : "", kernel_end);
    if (kernel_start == kernel_end)
        return false;
    size_t kernel_length = kernel_end - kernel_start, space_length = out->length - kernel_end;
    char *kernel = malloc(kernel_length + space_length + 1);
    if (!kernel)
        return false;
    memcpy(kernel, out->data + kernel_start, kernel_length + space_length);
    out->length = kernel_start;

    text name = {0};
    append_flattened(&name, kernel, kernel_length);
    text_append_string(out, "emu::launch(\"");
    append_escaped(out, name.data ? name.data : "", name.length);
    text_append_string(out, "\", [&](auto &&...emu_launch_args) { ");
    text_append(out, kernel, kernel_length);
    text_append_string(out, "(emu_launch_args...); }");
    text_append(out, kernel + kernel_length, space_length);
    text_append_string(out, ", ");
    text_append(out, s + config_begin, config_end - config_begin);
    text_append_string(out, ")");
    free(name.data);
    free(kernel);
    r->pos = config_end + 3;
    return true;
}

/* Removes extern/static/volatile written before __shared__ from the output;
 * reports which were there and how many newlines went with them. */
static size_t take_qualifiers(text *out, bool *is_extern, bool *is_volatile)
{
    size_t newlines = 0;
    for (;;) {
        size_t word_end = skip_space_backward(out->data ? out->data : "", out->length);
        size_t word_start = word_end;
        while (word_start > 0 && is_identifier_char(out->data[word_start - 1]))
            word_start--;
        const char *word = out->data + word_start;
        size_t length = word_end - word_start;
        if (word_is(word, length, "extern"))
            *is_extern = true;
        else if (word_is(word, length, "volatile"))
            *is_volatile = true;
        else if (!word_is(word, length, "static"))
            return newlines;
        newlines += count_newlines(word, out->length - word_start);
        out->length = word_start;
    }
}

/* Copies a declaration without comments, __align__(...), __attribute__((...))
 * and volatile (reported separately), with whitespace runs made single spaces. */
static void clean_declaration(text *clean, const char *s, size_t length, bool *is_volatile)
{
    text flat = {0};
    append_flattened(&flat, s, length);
    for (size_t p = 0; p < flat.length;) {
        size_t end = skip_token(flat.data, flat.length, p);
        if (end > p && is_identifier_start(flat.data[p])) {
            const char *word = flat.data + p;
            size_t word_length = end - p;
            if (word_is(word, word_length, "volatile")) {
                *is_volatile = true;
                p = end;
                continue;
            }
            if (word_is(word, word_length, "__align__") || word_is(word, word_length, "__attribute__") ||
                word_is(word, word_length, "alignas")) {
                size_t q = end;
                while (q < flat.length && flat.data[q] == ' ')
                    q++;
                int depth = 0;
                while (q < flat.length) {
                    if (flat.data[q] == '(')
                        depth++;
                    else if (flat.data[q] == ')' && --depth == 0) {
                        q++;
                        break;
                    }
                    q++;
                }
                p = q;
                continue;
            }
        }
        if (end == p)
            end = p + 1;
        text_append(clean, flat.data + p, end - p);
        p = end;
    }
    free(flat.data);
}

static void trim(const char *s, size_t *begin, size_t *end)
{
    while (*begin < *end && s[*begin] == ' ')
        (*begin)++;
    while (*end > *begin && s[*end - 1] == ' ')
        (*end)--;
}

/* One declarator "name[dims]" (or "*name") of a __shared__ declaration. */
static bool emit_declarator(text *out, const char *type, size_t type_length, const char *d, size_t length,
                            bool is_extern, bool is_volatile, bool first, char **base_type)
{
    size_t stop = length;
    int depth = 0;
    for (size_t p = 0; p < length; p++) {
        char c = d[p];
        if (depth == 0 && (c == '[' || c == '=')) {
            stop = p;
            break;
        }
        if (c == '(' || c == '<')
            depth++;
        else if (c == ')' || c == '>')
            depth--;
    }
    size_t name_end = stop;
    while (name_end > 0 && d[name_end - 1] == ' ')
        name_end--;
    size_t name_start = name_end;
    while (name_start > 0 && is_identifier_char(d[name_start - 1]))
        name_start--;
    if (name_start == name_end || isdigit((unsigned char)d[name_start]))
        return false;
    size_t dims_begin = name_end, dims_end = length;
    for (size_t p = name_end; p < length; p++)
        if (d[p] == '=')
            dims_end = p;
    trim(d, &dims_begin, &dims_end);

    text full_type = {0};
    if (is_volatile)
        text_append_string(&full_type, "volatile ");
    if (first) {
        size_t type_begin = 0, type_end = name_start;
        trim(d, &type_begin, &type_end);
        if (type_end == type_begin) {
            free(full_type.data);
            return false;
        }
        /* the base type for later declarators: without trailing * and & */
        size_t base_end = type_end;
        while (base_end > type_begin && (d[base_end - 1] == '*' || d[base_end - 1] == '&' || d[base_end - 1] == ' '))
            base_end--;
        *base_type = malloc(base_end - type_begin + 1);
        if (!*base_type) {
            free(full_type.data);
            return false;
        }
        memcpy(*base_type, d + type_begin, base_end - type_begin);
        (*base_type)[base_end - type_begin] = '\0';
        text_append(&full_type, d + type_begin, type_end - type_begin);
    } else {
        text_append(&full_type, type, type_length);
        text_append_string(&full_type, " ");
        text_append(&full_type, d, name_start); /* pointer marks of this declarator */
    }

    text_append_string(out, "static ");
    text_append(out, full_type.data, full_type.length);
    if (is_extern) {
        text_append_string(out, " *const &");
        text_append(out, d + name_start, name_end - name_start);
        text_append_string(out, " = emu::dynamic_shared<");
        text_append(out, full_type.data, full_type.length);
        text_append_string(out, ">::get();");
    } else {
        text_append_string(out, dims_end > dims_begin ? " (&" : " &");
        text_append(out, d + name_start, name_end - name_start);
        if (dims_end > dims_begin) {
            text_append_string(out, ")");
            text_append(out, d + dims_begin, dims_end - dims_begin);
        }
        text_append_string(out, " = emu::shared_variable<");
        text_append(out, full_type.data, full_type.length);
        text_append(out, d + dims_begin, dims_end - dims_begin);
        text_append_string(out, ">(\"");
        text_append(out, d + name_start, name_end - name_start);
        text_append_string(out, "\", [] {});");
    }
    free(full_type.data);
    return true;
}

/* At the identifier __shared__ (ending at keyword_end): rewrite the whole
 * declaration, or return false to leave it to the fallback macro. */
static bool rewrite_shared(rewriter *r, size_t keyword_end)
{
    const char *s = r->src;
    size_t p = keyword_end;
    int depth = 0;
    while (p < r->n) {
        size_t end = skip_token(s, r->n, p);
        if (end > p) {
            p = end;
            continue;
        }
        char c = s[p];
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']')
            depth--;
        else if (c == '{' || c == '}' || c == '#')
            return false;
        else if (c == ';' && depth == 0)
            break;
        p++;
    }
    if (p >= r->n || p - keyword_end > 4096)
        return false;
    const size_t semicolon = p;

    bool is_extern = false, is_volatile = false;
    text *out = &r->out;
    size_t saved_length = out->length;
    size_t newlines = take_qualifiers(out, &is_extern, &is_volatile);
    newlines += count_newlines(s + keyword_end, semicolon - keyword_end);

    text clean = {0};
    clean_declaration(&clean, s + keyword_end, semicolon - keyword_end, &is_volatile);
    const char *d = clean.data ? clean.data : "";
    char *base_type = NULL;
    bool ok = true, first = true;
    size_t start = 0;
    depth = 0;
    for (size_t q = 0; q <= clean.length && ok; q++) {
        char c = q < clean.length ? d[q] : ',';
        if (c == '(' || c == '[' || c == '<')
            depth++;
        else if (c == ')' || c == ']' || c == '>')
            depth--;
        else if (c == ',' && depth == 0) {
            size_t b = start, e = q;
            trim(d, &b, &e);
            if (!first)
                text_append_string(out, " ");
            ok = emit_declarator(out, base_type, base_type ? strlen(base_type) : 0, d + b, e - b, is_extern,
                                 is_volatile, first, &base_type);
            first = false;
            start = q + 1;
        }
    }
    free(base_type);
    free(clean.data);
    if (!ok) {
        /* give the qualifiers back; the fallback macro will handle it */
        out->length = saved_length;
        return false;
    }
    append_newlines(out, newlines);
    r->pos = semicolon + 1;
    return true;
}

/* Copies a preprocessor directive (with its continuation lines) untouched. */
static void copy_directive(rewriter *r)
{
    size_t p = r->pos;
    while (p < r->n) {
        if (r->src[p] == '\\' && p + 1 < r->n && r->src[p + 1] == '\n') {
            p += 2;
            continue;
        }
        if (r->src[p] == '\n')
            break;
        size_t end = skip_token(r->src, r->n, p);
        p = end > p ? end : p + 1;
    }
    text_append(&r->out, r->src + r->pos, p - r->pos);
    r->pos = p;
}

static void rewrite(rewriter *r, const char *input_path)
{
    text_append_string(&r->out, "#line 1 \"");
    append_escaped(&r->out, input_path, strlen(input_path));
    text_append_string(&r->out, "\"\n");
    const char *s = r->src;
    bool line_start = true;
    while (r->pos < r->n) {
        char c = s[r->pos];
        if (line_start && c == '#') {
            copy_directive(r);
            line_start = false;
            continue;
        }
        if (c == '<' && r->pos + 2 < r->n && s[r->pos + 1] == '<' && s[r->pos + 2] == '<') {
            if (!rewrite_launch(r)) {
                text_append(&r->out, "<<<", 3);
                r->pos += 3;
            }
            line_start = false;
            continue;
        }
        size_t end = skip_token(s, r->n, r->pos);
        if (end > r->pos) {
            if (word_is(s + r->pos, end - r->pos, "__shared__") && rewrite_shared(r, end)) {
                line_start = false;
                continue;
            }
            text_append(&r->out, s + r->pos, end - r->pos);
            r->pos = end;
            line_start = false;
            continue;
        }
        text_append(&r->out, &c, 1);
        if (c == '\n')
            line_start = true;
        else if (!is_space(c))
            line_start = false;
        r->pos++;
    }
}

static char *read_file(const char *path, size_t *length)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    text content = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        text_append(&content, chunk, got);
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(content.data);
        return NULL;
    }
    if (!content.data)
        text_append(&content, "", 0);
    *length = content.length;
    return content.data;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: emu_rewrite input.cu output.cpp   (output - for standard output)\n");
        return 2;
    }
    rewriter r = {0};
    r.src = read_file(argv[1], &r.n);
    if (!r.src) {
        fprintf(stderr, "emu_rewrite: cannot read %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    rewrite(&r, argv[1]);
    FILE *out = strcmp(argv[2], "-") == 0 ? stdout : fopen(argv[2], "wb");
    if (!out || fwrite(r.out.data, 1, r.out.length, out) != r.out.length || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "emu_rewrite: cannot write %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    free((char *)r.src);
    free(r.out.data);
    return 0;
}
