/* report_cmd.c - `class report`: any format from saved results, no GPU. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "formats.h"
#include "opts.h"

static void rep_usage(void)
{
    fprintf(stderr,
            "usage: class report --from PATH --format gradescope|junit|csv|summary|html\n"
            "       [--course FILE] [--out FILE] [--student NAME]\n"
            "PATH: a batch folder (its results.jsonl), a folder of grader JSON files,\n"
            "a results.jsonl, or one grader results JSON (./grade RESULTS=...).\n"
            "gradescope is one student's results.json: --student picks one of several.\n"
            "html is one page for the class: pass rates, speedups against the bar,\n"
            "the most common reasons for failing, a row per student.\n");
}

static int rep_write(FILE *f, const char *format, const sto_set *set, const crs_course *c,
                     const char *student)
{
    if (!strcmp(format, "csv")) return fmt_csv(f, set, c);
    if (!strcmp(format, "junit")) return fmt_junit(f, set, c);
    if (!strcmp(format, "summary")) return fmt_summary_json(f, set, c);
    if (!strcmp(format, "html")) return fmt_html(f, set, c);
    const sr_result *pick = NULL;
    for (size_t i = 0; i < set->n; i++)
        if (!student || !strcmp(set->r[i].student, student)) {
            if (pick) {
                fprintf(stderr, "class report: %s; say which with --student NAME "
                                "(STUDENT=NAME with make class-report)\n",
                        student ? "that student has results for several labs" : "several students");
                return -1;
            }
            pick = &set->r[i];
        }
    if (!pick) {
        fprintf(stderr, "class report: no results for the student %s\n", student ? student : "?");
        return -1;
    }
    return fmt_gradescope(f, pick, c);
}

int report_main(int argc, char **argv)
{
    const char *from = NULL, *format = NULL, *course = NULL, *out = NULL, *student = NULL;
    for (int i = 0; i < argc; i++) {
        int rc;
        if ((rc = opt_str(argc, argv, &i, "--from", &from)) ||
            (rc = opt_str(argc, argv, &i, "--format", &format)) ||
            (rc = opt_str(argc, argv, &i, "--course", &course)) ||
            (rc = opt_str(argc, argv, &i, "--out", &out)) ||
            (rc = opt_str(argc, argv, &i, "--student", &student))) {
            if (rc < 0) { rep_usage(); return CLS_EXIT_USAGE; }
            continue;
        }
        fprintf(stderr, "class report: unknown option %s\n", argv[i]);
        rep_usage();
        return CLS_EXIT_USAGE;
    }
    if (!from || !format ||
        (strcmp(format, "gradescope") && strcmp(format, "junit") && strcmp(format, "csv") &&
         strcmp(format, "summary") && strcmp(format, "html"))) {
        rep_usage();
        return CLS_EXIT_USAGE;
    }
    char err[1024];
    crs_course c;
    sto_set set = {0};
    if (crs_load(course, &c, err, sizeof err) != 0 || sto_load_any(from, student, &set, err, sizeof err) != 0) {
        fprintf(stderr, "class report: %s\n", err);
        sto_free(&set);
        return CLS_EXIT_USAGE;
    }
    sto_sort(&set);
    char tmp[4200];
    FILE *f = stdout;
    if (out) {
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        if (!(f = fopen(tmp, "w"))) {
            fprintf(stderr, "class report: cannot write %s: %s\n", tmp, strerror(errno));
            sto_free(&set);
            return CLS_EXIT_USAGE;
        }
    }
    int rc = rep_write(f, format, &set, &c, student);
    if (out) {
        if (fclose(f) != 0) rc = -1;
        if (rc == 0 && rename(tmp, out) != 0) rc = -1;
        if (rc != 0) remove(tmp);
    } else if (fflush(stdout) != 0) {
        rc = -1;
    }
    sto_free(&set);
    return rc == 0 ? CLS_EXIT_OK : CLS_EXIT_USAGE;
}
