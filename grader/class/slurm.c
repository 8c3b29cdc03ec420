/* slurm.c - `class slurm`: a Slurm job array that grades a class in chunks.
 *
 * Task i grades students [i*K, (i+1)*K) of the sorted folder into
 * OUT/tasks/task-i (a batch folder of its own, so tasks never share a
 * results.jsonl), on the one GPU Slurm gives it. The grader's command is
 * resolved here, once, so the tasks do not all run make at the same time
 * on a shared filesystem. `class merge` joins the task folders afterwards.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "entries.h"
#include "escape.h"
#include "opts.h"
#include "store.h"

typedef struct {
    const char *lab, *submissions, *out, *root, *grader_cmd, *course, *time, *partition, *account,
        *script, *mem, *class_bin;
    double chunk, timeout_s, mem_limit_mb, max_parallel, cpus;
} slurm_options;

/* #SBATCH lines are not parsed by a shell: a value with blanks, quotes or
 * Slurm's own % patterns cannot be carried safely. */
static int slurm_plain(const char *s)
{
    return s[strcspn(s, " \t\n\"'%\\$`")] == 0;
}

static void slurm_usage(void)
{
    fprintf(stderr,
            "usage: class slurm --lab NN --submissions DIR --out DIR [--chunk K]\n"
            "       [--time HH:MM:SS] [--partition P] [--account A] [--max-parallel N]\n"
            "       [--cpus N] [--mem 16G] [--root REPO] [--grader-cmd CMD] [--course FILE]\n"
            "       [--timeout S] [--mem-limit-mb N] [--script FILE] [--class-bin PATH]\n");
}

static int slurm_parse(int argc, char **argv, slurm_options *o)
{
    memset(o, 0, sizeof *o);
    o->root = ".";
    o->chunk = 10;
    o->timeout_s = 3600; /* above the sum of the grader's own limits: a backstop */
    o->cpus = 4;
    for (int i = 0; i < argc; i++) {
        int rc;
        if ((rc = opt_str(argc, argv, &i, "--lab", &o->lab)) ||
            (rc = opt_str(argc, argv, &i, "--submissions", &o->submissions)) ||
            (rc = opt_str(argc, argv, &i, "--out", &o->out)) ||
            (rc = opt_str(argc, argv, &i, "--root", &o->root)) ||
            (rc = opt_str(argc, argv, &i, "--grader-cmd", &o->grader_cmd)) ||
            (rc = opt_str(argc, argv, &i, "--course", &o->course)) ||
            (rc = opt_str(argc, argv, &i, "--time", &o->time)) ||
            (rc = opt_str(argc, argv, &i, "--partition", &o->partition)) ||
            (rc = opt_str(argc, argv, &i, "--account", &o->account)) ||
            (rc = opt_str(argc, argv, &i, "--script", &o->script)) ||
            (rc = opt_str(argc, argv, &i, "--mem", &o->mem)) ||
            (rc = opt_str(argc, argv, &i, "--class-bin", &o->class_bin)) ||
            (rc = opt_num(argc, argv, &i, "--chunk", &o->chunk)) ||
            (rc = opt_num(argc, argv, &i, "--timeout", &o->timeout_s)) ||
            (rc = opt_num(argc, argv, &i, "--mem-limit-mb", &o->mem_limit_mb)) ||
            (rc = opt_num(argc, argv, &i, "--max-parallel", &o->max_parallel)) ||
            (rc = opt_num(argc, argv, &i, "--cpus", &o->cpus))) {
            if (rc < 0) return -1;
            continue;
        }
        fprintf(stderr, "class slurm: unknown option %s\n", argv[i]);
        return -1;
    }
    if (!o->lab || !o->submissions || !o->out) {
        fprintf(stderr, "class slurm: --lab, --submissions and --out are required\n");
        return -1;
    }
    if (o->chunk < 1) { fprintf(stderr, "class slurm: --chunk must be >= 1\n"); return -1; }
    const char *plain[] = {o->time, o->partition, o->account, o->mem};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (plain[i] && (!plain[i][0] || !slurm_plain(plain[i]))) {
            fprintf(stderr, "class slurm: '%s' cannot go on an #SBATCH line\n", plain[i]);
            return -1;
        }
    return 0;
}

/* The script itself. Everything that came from a path or a command is a
 * quoted shell word in the body. */
static void slurm_write(FILE *f, const slurm_options *o, const char *lab_id, size_t n, size_t tasks,
                        const char *bin, const char *root, const char *subs, const char *out,
                        const char *course, const char *grader)
{
    size_t k = (size_t)o->chunk;
    char time_limit[32];
    if (o->time) {
        snprintf(time_limit, sizeof time_limit, "%s", o->time);
    } else { /* five minutes a student, at least half an hour */
        long s = (long)k * 300 < 1800 ? 1800 : (long)k * 300;
        snprintf(time_limit, sizeof time_limit, "%02ld:%02ld:00", s / 3600, s / 60 % 60);
    }
    char tasks_dir[4200];
    snprintf(tasks_dir, sizeof tasks_dir, "%s/tasks", out);
    strbuf q = {0};
    fprintf(f, "#!/bin/bash\n"
               "# Written by `class slurm`: lab %s, %zu students in %zu tasks of at most %zu,\n"
               "# each task into its own folder under the tasks folder below. Submit with\n"
               "#   sbatch THIS_FILE\n"
               "# and when every task has ended, join them with\n"
               "#   class merge --out OUT OUT/tasks/task-*\n",
            lab_id, n, tasks, k);
    fprintf(f, "#SBATCH --job-name=grade-%s\n", lab_id);
    fprintf(f, "#SBATCH --array=0-%zu", tasks - 1);
    if (o->max_parallel >= 1) fprintf(f, "%%%.0f", o->max_parallel);
    fprintf(f, "\n#SBATCH --gres=gpu:1\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%.0f\n", o->cpus);
    fprintf(f, "#SBATCH --time=%s\n", time_limit);
    if (o->mem) fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    if (o->partition) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->account) fprintf(f, "#SBATCH --account=%s\n", o->account);
    if (slurm_plain(tasks_dir))
        fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.log\n", tasks_dir);
    else
        fprintf(f, "# (--output left to Slurm's default: the results path cannot go on an #SBATCH line)\n");
    fprintf(f, "set -eu\ntask=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is a job array}\n");
    esc_shell(&q, tasks_dir);
    fprintf(f, "mkdir -p %s\n", sb_str(&q));
    fprintf(f, "tasks=%s\n", sb_str(&q));
    sb_free(&q);
    esc_shell(&q, bin);
    sb_printf(&q, " batch --root ");
    esc_shell(&q, root);
    sb_printf(&q, " --lab ");
    esc_shell(&q, lab_id);
    sb_printf(&q, " --submissions ");
    esc_shell(&q, subs);
    sb_printf(&q, " \\\n    --out \"$tasks/task-$task\" --chunk %zu --chunk-index \"$task\" --expect-entries %zu", k, n);
    sb_printf(&q, " \\\n    --gpus auto --timeout %.0f", o->timeout_s);
    if (o->mem_limit_mb > 0) sb_printf(&q, " --mem-limit-mb %.0f", o->mem_limit_mb);
    if (course) {
        sb_printf(&q, " --course ");
        esc_shell(&q, course);
    }
    sb_printf(&q, " \\\n    --grader-cmd ");
    esc_shell(&q, grader);
    fprintf(f, "exec %s\n", sb_str(&q));
    sb_free(&q);
}

static int slurm_abs(const char *path, char *out, const char *what)
{
    if (realpath(path, out)) return 0;
    fprintf(stderr, "class slurm: %s %s: %s\n", what, path, strerror(errno));
    return -1;
}

int slurm_main(int argc, char **argv)
{
    slurm_options o;
    if (slurm_parse(argc, argv, &o) != 0) { slurm_usage(); return CLS_EXIT_USAGE; }
    char root[PATH_MAX], subs[PATH_MAX], out[PATH_MAX], course[PATH_MAX], bin[PATH_MAX];
    char lab_id[64], file[256], err[1024];
    if (slurm_abs(o.root, root, "--root") || slurm_abs(o.submissions, subs, "--submissions") ||
        (o.course && slurm_abs(o.course, course, "--course")))
        return CLS_EXIT_USAGE;
    if (sto_make_dir(o.out) != 0) {
        fprintf(stderr, "class slurm: cannot make %s: %s\n", o.out, strerror(errno));
        return CLS_EXIT_USAGE;
    }
    if (slurm_abs(o.out, out, "--out")) return CLS_EXIT_USAGE;
    /* The tasks run this very binary, by its absolute path. */
    if (o.class_bin) {
        if (slurm_abs(o.class_bin, bin, "--class-bin")) return CLS_EXIT_USAGE;
    } else {
        ssize_t n = readlink("/proc/self/exe", bin, sizeof bin - 1);
        if (n <= 0) { fprintf(stderr, "class slurm: where am I? pass --class-bin\n"); return CLS_EXIT_USAGE; }
        bin[n] = 0;
    }
    ent_entry *entries = NULL;
    size_t n = 0;
    if (ent_lab_id(root, o.lab, lab_id, sizeof lab_id, err, sizeof err) != 0 ||
        ent_student_file(root, lab_id, file, sizeof file, err, sizeof err) != 0 ||
        ent_scan(subs, file, &entries, &n, err, sizeof err) != 0) {
        fprintf(stderr, "class slurm: %s\n", err);
        return CLS_EXIT_USAGE;
    }
    free(entries);
    if (!n) {
        fprintf(stderr, "class slurm: no students in %s\n", subs);
        return CLS_EXIT_USAGE;
    }
    strbuf grader = {0};
    if (o.grader_cmd) sb_printf(&grader, "%s", o.grader_cmd);
    else if (bat_grader_command(root, lab_id, &grader) != 0) return CLS_EXIT_USAGE;
    size_t k = (size_t)o.chunk, tasks = (n + k - 1) / k;
    char script[4200];
    if (o.script) snprintf(script, sizeof script, "%s", o.script);
    else snprintf(script, sizeof script, "%s/grade-%s.sbatch", out, lab_id);
    /* Slurm opens each task's log (#SBATCH --output, in the tasks folder)
     * before the script runs: the folder must exist at submission. */
    char tasks_dir[4200];
    snprintf(tasks_dir, sizeof tasks_dir, "%s/tasks", out);
    if (sto_make_dir(tasks_dir) != 0) {
        fprintf(stderr, "class slurm: cannot make %s: %s\n", tasks_dir, strerror(errno));
        sb_free(&grader);
        return CLS_EXIT_USAGE;
    }
    FILE *f = fopen(script, "w");
    if (!f) {
        fprintf(stderr, "class slurm: cannot write %s: %s\n", script, strerror(errno));
        sb_free(&grader);
        return CLS_EXIT_USAGE;
    }
    slurm_write(f, &o, lab_id, n, tasks, bin, root, subs, out, o.course ? course : NULL, sb_str(&grader));
    sb_free(&grader);
    if (fclose(f) != 0) return CLS_EXIT_USAGE;
    chmod(script, 0755);
    fprintf(stderr, "class slurm: %zu students, %zu tasks of at most %zu: sbatch %s\n", n, tasks, k, script);
    return CLS_EXIT_OK;
}
