/* test_text.c - string building and JSON escaping. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text.h"

static char *json_of(void (*write)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    write(f, s);
    fclose(f);
    return buf;
}

static void json_escapes_what_it_must(void)
{
    char *j = json_of(json_string, "a\"b\\c\nd\te\x01");
    CHECK(j && strcmp(j, "\"a\\\"b\\\\c\\nd\\te\\u0001\"") == 0);
    free(j);
}

static void json_numbers_have_no_nan(void)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    json_number(f, NAN);
    fputc(' ', f);
    json_number(f, INFINITY);
    fputc(' ', f);
    json_number(f, 0.25);
    fclose(f);
    CHECK(strcmp(buf, "null null 0.25") == 0);
    free(buf);
}

static void strbuf_grows_and_indents(void)
{
    strbuf b = {0};
    CHECK(strcmp(sb_str(&b), "") == 0);
    for (int i = 0; i < 1000; i++) sb_printf(&b, "%d,", i);
    CHECK(b.len > 3000 && strncmp(b.s, "0,1,2,", 6) == 0);
    strbuf c = {0};
    sb_indent(&c, "one\ntwo", "  ");
    CHECK(strcmp(sb_str(&c), "  one\n  two\n") == 0);
    sb_free(&b);
    sb_free(&c);
}

const unit_test text_tests[] = {
    TEST(json_escapes_what_it_must), TEST(json_numbers_have_no_nan),
    TEST(strbuf_grows_and_indents),
};
const int text_tests_count = sizeof text_tests / sizeof text_tests[0];
