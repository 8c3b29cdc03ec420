/* test_class.c - unit tests of the batch tool's parts that need no
 * process: the JSON reader, the course file, escaping, verdicts and the
 * results store. Prints PASS class/unit/NAME or FAIL class/unit/NAME: why. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "course.h"
#include "escape.h"
#include "json.h"
#include "result.h"
#include "store.h"

const char *check_failed;
char check_where[256];

static jv_value *parse(const char *s)
{
    jv_value *v = NULL;
    char err[128];
    return jv_parse(s, strlen(s), &v, err, sizeof err) == 0 ? v : NULL;
}

static int rejects(const char *s)
{
    jv_value *v = NULL;
    char err[128] = "";
    int rc = jv_parse(s, strlen(s), &v, err, sizeof err);
    jv_free(v);
    return rc != 0 && v == NULL && err[0] != 0;
}

static void json_values(void)
{
    jv_value *v = parse(" {\"a\": [1, -2.5e2, true, false, null], \"b\": {\"c\": \"d\"}, \"e\": 0} ");
    CHECK(v && v->type == JV_OBJECT && v->n == 3);
    const jv_value *a = jv_get(v, "a");
    CHECK(a && a->type == JV_ARRAY && a->n == 5);
    CHECK(a->items[0]->number == 1 && a->items[1]->number == -250);
    CHECK(a->items[2]->type == JV_TRUE && a->items[3]->type == JV_FALSE && a->items[4]->type == JV_NULL);
    CHECK(!strcmp(jv_str(jv_get(v, "b"), "c", ""), "d"));
    CHECK(jv_num(v, "e", 7) == 0 && jv_num(v, "missing", 7) == 7);
    CHECK(jv_num(a, "x", 3) == 3); /* not an object: the default */
    jv_free(v);
    v = parse("[]");
    CHECK(v && v->type == JV_ARRAY && v->n == 0);
    jv_free(v);
    v = parse("{}");
    CHECK(v && v->type == JV_OBJECT && v->n == 0);
    jv_free(v);
}

static void json_string_escapes(void)
{
    jv_value *v = parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\u20ac \\ud83d\\ude00 \\ud800x\"");
    CHECK(v && v->type == JV_STRING);
    CHECK(!strcmp(v->string, "q\" b\\ s/ \b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbdx"));
    jv_free(v);
}

static void json_null_and_dup_keys(void)
{
    jv_value *v = parse("{\"k\": 1, \"k\": 2, \"n\": null}");
    CHECK(v);
    CHECK(jv_num(v, "k", 0) == 2);          /* the last duplicate wins */
    CHECK(isnan(jv_num(v, "n", NAN)));      /* null is not a number */
    CHECK(jv_bool(v, "n", -1) == -1);
    jv_free(v);
}

static void json_rejects_bad_input(void)
{
    const char *bad[] = {"", " ", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a: 1}", "01",
                         "1.", "-", ".5", "1e", "+1", "\"\\x\"", "\"\\u12g4\"", "tru", "nul",
                         "[1] x", "\"abc", "\"a\nb\"", "{\"a\": 1,}", "[\"\\", "NaN", "'s'"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!rejects(bad[i])) {
            snprintf(check_where, sizeof check_where, "accepted bad JSON #%zu: %s", i, bad[i]);
            check_failed = check_where;
            return;
        }
    }
}

static void json_deep_nesting_is_an_error(void)
{
    char deep[5001];
    memset(deep, '[', 5000);
    deep[5000] = 0;
    CHECK(rejects(deep)); /* an error, not a stack overflow */
    char ok[41] = "";
    memset(ok, '[', 20);
    memset(ok + 20, ']', 20);
    ok[40] = 0;
    jv_value *v = parse(ok);
    CHECK(v != NULL);
    jv_free(v);
}

static void json_error_says_where(void)
{
    jv_value *v;
    char err[128];
    CHECK(jv_parse("[1, x]", 6, &v, err, sizeof err) != 0);
    CHECK(strstr(err, "byte 4") != NULL);
    CHECK(jv_parse_file("/nonexistent/x.json", &v, err, sizeof err) != 0 && strstr(err, "cannot open"));
}

static void course_defaults(void)
{
    crs_course c;
    char err[256];
    CHECK(crs_load(NULL, &c, err, sizeof err) == 0);
    CHECK(crs_points(&c, "01-vector-add", CLS_WORK) == 4 && crs_points(&c, "01", CLS_RIGHT) == 3 &&
          crs_points(&c, "07-matmul", CLS_FAST) == 3);
    CHECK(crs_max_total(&c, "01-vector-add") == 10);
    CHECK(!strcmp(c.visibility, "visible"));
}

static void course_overrides(void)
{
    crs_course c;
    char err[256];
    crs_defaults(&c);
    const char *text = "# points\n"
                       "points.work = 5   # trailing comment\n"
                       "  points.right=2\n\n"
                       "points.fast = 1.5\n"
                       "lab.07.points.fast = 5\n"
                       "lab.03-transpose.points.work = 0\n"
                       "lab.07-matmul.points.fast = 6\n"
                       "gradescope.visibility = after_published\n";
    CHECK(crs_parse(text, &c, err, sizeof err) == 0);
    CHECK(crs_points(&c, "01-vector-add", CLS_WORK) == 5);
    CHECK(crs_points(&c, "01-vector-add", CLS_RIGHT) == 2);
    CHECK(crs_points(&c, "01-vector-add", CLS_FAST) == 1.5);
    CHECK(crs_points(&c, "07-matmul", CLS_FAST) == 6); /* 07 and 07-matmul are one lab; the last wins */
    CHECK(crs_points(&c, "07", CLS_FAST) == 6);
    CHECK(crs_points(&c, "07-matmul", CLS_WORK) == 5);
    CHECK(crs_points(&c, "03-transpose", CLS_WORK) == 0);
    CHECK(crs_points(&c, "30-other", CLS_WORK) == 5); /* 3 is not 30 */
    CHECK(crs_max_total(&c, "07-matmul") == 13);
    CHECK(!strcmp(c.visibility, "after_published"));
}

static void course_errors(void)
{
    crs_course c;
    char err[256];
    crs_defaults(&c);
    CHECK(crs_parse("points.work = 4\npoints.wrok = 3\n", &c, err, sizeof err) != 0);
    CHECK(strstr(err, "line 2") && strstr(err, "points.wrok"));
    CHECK(crs_parse("points.work = -1\n", &c, err, sizeof err) != 0 && strstr(err, ">= 0"));
    CHECK(crs_parse("points.work = 3x\n", &c, err, sizeof err) != 0);
    CHECK(crs_parse("points.work 3\n", &c, err, sizeof err) != 0 && strstr(err, "key = value"));
    CHECK(crs_parse("lab.07.points.quick = 3\n", &c, err, sizeof err) != 0);
    CHECK(crs_parse("tolerance = 3\n", &c, err, sizeof err) != 0 && strstr(err, "unknown key"));
    CHECK(crs_parse("gradescope.visibility = secret\n", &c, err, sizeof err) != 0);
    CHECK(crs_load("/nonexistent/course.conf", &c, err, sizeof err) != 0);
}

/* Run a writer into a string. */
static char *capture(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fn(m, s);
    fclose(m);
    return buf;
}

static void xml_attr(FILE *f, const char *s) { esc_xml(f, s, 1); }
static void xml_text(FILE *f, const char *s) { esc_xml(f, s, 0); }

static void escape_xml(void)
{
    char *a = capture(xml_attr, "a<b & \"c\" 'd'\n\x01>");
    CHECK(!strcmp(a, "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&#10;?&gt;"));
    free(a);
    char *t = capture(xml_text, "x\ny]]>");
    CHECK(!strcmp(t, "x\ny]]&gt;"));
    free(t);
}

static void escape_csv(void)
{
    char *s = capture(esc_csv, "plain");
    CHECK(!strcmp(s, "plain"));
    free(s);
    s = capture(esc_csv, "a, \"b\"\nc");
    CHECK(!strcmp(s, "\"a, \"\"b\"\"\nc\""));
    free(s);
    s = capture(esc_csv, "=HYPERLINK(\"x\")");
    CHECK(!strcmp(s, "\"'=HYPERLINK(\"\"x\"\")\""));
    free(s);
}

static void escape_markdown(void)
{
    char *s = capture(esc_md, "a_b *c* <d> [e] `f`");
    CHECK(!strcmp(s, "a\\_b \\*c\\* \\<d\\> \\[e\\] \\`f\\`"));
    free(s);
    s = capture(esc_md_block, "x ```` y");
    CHECK(!strcmp(s, "`````text\nx ```` y\n`````\n")); /* a fence longer than any run inside */
    free(s);
}

static void escape_shell(void)
{
    strbuf b = {0};
    esc_shell(&b, "it's a $dir");
    CHECK(!strcmp(sb_str(&b), "'it'\\''s a $dir'"));
    sb_free(&b);
}

static void set_stage(sr_result *r, int s, const char *status, const char *msg)
{
    snprintf(r->stages[s].status, sizeof r->stages[s].status, "%s", status);
    free(r->stages[s].message);
    r->stages[s].message = strdup(msg);
}

static void verdicts(void)
{
    sr_result r;
    sr_init(&r, "alice", "01-vector-add");
    set_stage(&r, CLS_WORK, "pass", "ok");
    set_stage(&r, CLS_RIGHT, "pass", "ok");
    set_stage(&r, CLS_FAST, "pass", "ok");
    sr_judge(&r);
    CHECK(!strcmp(r.verdict, "pass") && !strcmp(r.reason, ""));
    set_stage(&r, CLS_FAST, "skipped", "skipped: needs a GPU");
    sr_judge(&r);
    CHECK(!strcmp(r.verdict, "incomplete") && !strcmp(r.reason, "fast: skipped: needs a GPU"));
    set_stage(&r, CLS_RIGHT, "fail", "n=31 wrong");
    sr_judge(&r);
    CHECK(!strcmp(r.verdict, "fail") && !strcmp(r.reason, "right: n=31 wrong"));
    set_stage(&r, CLS_WORK, "error", "does not build");
    sr_judge(&r);
    CHECK(!strcmp(r.verdict, "fail") && !strcmp(r.reason, "work: does not build"));
    CHECK(sr_stage_points(&r, CLS_WORK, 4) == 0);
    sr_make_error(&r, "error", "grading timed out");
    CHECK(!strcmp(r.verdict, "error") && !strcmp(r.stages[CLS_WORK].status, "error"));
    CHECK(!strcmp(r.stages[CLS_FAST].status, "skipped"));
    sr_free(&r);
}

/* A line written, read back, is the same result. */
static void result_line_round_trip(void)
{
    sr_result r, back;
    sr_init(&r, "bob \"b\"", "03-transpose");
    set_stage(&r, CLS_WORK, "pass", "3 sizes");
    set_stage(&r, CLS_RIGHT, "fail", "n=33: <wrong>");
    free(r.stages[CLS_RIGHT].details);
    r.stages[CLS_RIGHT].details = strdup("out[1]: expected 1, got 2\n");
    r.fast.speedup = 5.5;
    r.wall_s = 12.25;
    r.finished_unix = 1700000000.5;
    r.grader_exit = 1;
    sr_judge(&r);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    CHECK(sr_write_line(&r, m) == 0);
    fclose(m);
    CHECK(len > 0 && buf[len - 1] == '\n' && strchr(buf, '\n') == buf + len - 1);
    jv_value *v = parse(buf);
    free(buf);
    CHECK(v);
    char err[128];
    CHECK(sr_from_line(v, &back, err, sizeof err) == 0);
    jv_free(v);
    CHECK(!strcmp(back.student, "bob \"b\"") && !strcmp(back.lab, "03-transpose"));
    CHECK(!strcmp(back.verdict, "fail") && !strcmp(back.reason, "right: n=33: <wrong>"));
    CHECK(!strcmp(back.stages[CLS_RIGHT].details, "out[1]: expected 1, got 2\n"));
    CHECK(back.fast.speedup == 5.5 && isnan(back.fast.gbps));
    CHECK(back.wall_s == 12.25 && back.finished_unix == 1700000000.5 && back.grader_exit == 1);
    sr_free(&r);
    sr_free(&back);
}

static void store_latest_wins_and_torn_lines(void)
{
    char path[] = "/tmp/class-unit-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    FILE *f = fopen(path, "w");
    fputs("{\"student\": \"a\", \"lab\": \"01\", \"verdict\": \"fail\", \"finished_unix\": 20, \"stages\": ["
          "{\"name\": \"work\", \"status\": \"fail\", \"message\": \"x\"},"
          "{\"name\": \"right\", \"status\": \"skipped\", \"message\": \"\"},"
          "{\"name\": \"fast\", \"status\": \"skipped\", \"message\": \"\"}]}\n", f);
    fputs("{\"student\": \"a\", \"lab\": \"01\", \"verdict\": \"pass\", \"finished_unix\": 10, \"stages\": ["
          "{\"name\": \"work\", \"status\": \"pass\", \"message\": \"\"},"
          "{\"name\": \"right\", \"status\": \"pass\", \"message\": \"\"},"
          "{\"name\": \"fast\", \"status\": \"pass\", \"message\": \"\"}]}\n", f);
    fputs("{\"student\": \"b\", \"lab\": \"01\", \"verd", f); /* torn */
    fclose(f);
    sto_set set = {0};
    int bad = 0;
    char err[256];
    CHECK(sto_load_jsonl(path, &set, &bad, err, sizeof err) == 0);
    CHECK(set.n == 1 && bad == 1);
    CHECK(!strcmp(set.r[0].verdict, "fail")); /* finished later, though written earlier */
    /* Appending after a torn line starts a line of its own. */
    sr_result r;
    sr_init(&r, "c", "01");
    sr_make_error(&r, "missing", "missing file");
    r.finished_unix = 30;
    fd = sto_open_append(path, err, sizeof err);
    CHECK(fd >= 0);
    CHECK(sto_append(fd, &r) == 0);
    close(fd);
    sr_free(&r);
    sto_free(&set);
    CHECK(sto_load_jsonl(path, &set, &bad, err, sizeof err) == 0);
    CHECK(set.n == 2 && bad == 1 && sto_find(&set, "c", "01") != NULL);
    sto_free(&set);
    unlink(path);
    CHECK(sto_load_jsonl(path, &set, &bad, err, sizeof err) == 0 && set.n == 0); /* none yet */
}

static const unit_test tests[] = {
    TEST(json_values), TEST(json_string_escapes), TEST(json_null_and_dup_keys),
    TEST(json_rejects_bad_input), TEST(json_deep_nesting_is_an_error), TEST(json_error_says_where),
    TEST(course_defaults), TEST(course_overrides), TEST(course_errors), TEST(escape_xml),
    TEST(escape_csv), TEST(escape_markdown), TEST(escape_shell), TEST(verdicts),
    TEST(result_line_round_trip), TEST(store_latest_wins_and_torn_lines),
};

int main(void)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        check_failed = NULL;
        tests[i].fn();
        if (check_failed) printf("FAIL class/unit/%s: %s\n", tests[i].name, check_failed);
        else printf("PASS class/unit/%s\n", tests[i].name);
        failed += check_failed != NULL;
        fflush(stdout);
    }
    return failed ? 1 : 0;
}
