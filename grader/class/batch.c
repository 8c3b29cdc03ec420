/* batch.c - `class batch`: grade every student in a folder for one lab.
 *
 * Each finished student is one line appended (and fsynced) to
 * OUT/results.jsonl, so a batch stopped at any point resumes with the
 * students it had not finished; the grader's own JSON and report are kept
 * per student in OUT/students/. Whatever happens to one student (no file,
 * no build, a hang, a crash, a grader that died) is recorded with its
 * reason, and the batch goes on.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "dispatch.h"
#include "entries.h"
#include "escape.h"
#include "formats.h"
#include "opts.h"
#include "store.h"

typedef struct {
    bat_options o;
    char lab_id[64], root[PATH_MAX], out[PATH_MAX], student_file[256];
    strbuf grader;
    crs_course course;
    ent_entry *entries;
    size_t n_entries, first, last; /* this run's share: [first, last) */
    sto_set known;                 /* results.jsonl, then what we add */
    int fd;
    size_t total, done, graded_now, ran_now; /* ran_now: graders run, for the ETA */
    int passes[CLS_STAGES], errors;
    double t0;
} bat_state;

static double bat_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void bat_clock(double s, char *buf, size_t size)
{
    long t = (long)(s + 0.5);
    snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

int bat_grader_command(const char *root, const char *lab_id, strbuf *out)
{
    strbuf cmd = {0};
    sb_printf(&cmd, "make -s --no-print-directory -C ");
    esc_shell(&cmd, root);
    /* NO_LAST=1: a class's gradings are not the instructor's own progress
     * (make status). */
    sb_printf(&cmd, " grade-command NO_LAST=1 LAB=");
    esc_shell(&cmd, lab_id);
    fprintf(stderr, "class: asking make for the grader's command (this builds the lab if needed)\n");
    FILE *p = popen(sb_str(&cmd), "r");
    sb_free(&cmd);
    if (!p) return -1;
    char line[8192], last[8192] = "";
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0]) snprintf(last, sizeof last, "%s", line);
    }
    int status = pclose(p);
    if (status != 0 || !last[0]) {
        fprintf(stderr, "class: `make grade-command LAB=%s` failed in %s\n", lab_id, root);
        return -1;
    }
    sb_printf(out, "%s", last);
    return 0;
}

static void bat_path(const bat_state *b, const char *name, const char *ext, char *out, size_t size)
{
    snprintf(out, size, "%s/students/%s%s", b->out, name, ext);
}

/* One line of a log for a reason: the grader's own complaint ("grade:
 * ...") when there is one, else the last non-empty line. */
static void bat_log_reason(const char *log, char *out, size_t size)
{
    out[0] = 0;
    char *tail = iso_log_tail(log, 4000);
    if (!tail) return;
    for (char *line = tail, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (!strncmp(line, "grade: ", 7) && !out[0]) snprintf(out, size, "%s", line);
        if (line[0] && strncmp(out, "grade: ", 7) != 0) snprintf(out, size, "%s", line);
    }
    free(tail);
}

/* Does the grader's exit code agree with what its JSON says? A result
 * that contradicts the exit code is not trusted. */
static int bat_consistent(int code, const char *verdict)
{
    if (!strcmp(verdict, "pass")) return code == 0;
    if (!strcmp(verdict, "incomplete")) return code == 0 || code == 3;
    if (!strcmp(verdict, "fail")) return code == 1 || code == 2;
    return 0;
}

static void bat_from_grader(const bat_state *b, const ent_entry *e, const iso_result *ir, sr_result *r)
{
    char json[4200], log[4200], why[512], last[400];
    bat_path(b, e->name, ".json", json, sizeof json);
    bat_path(b, e->name, ".txt", log, sizeof log);
    bat_log_reason(log, last, sizeof last);
    if (ir->timed_out) {
        snprintf(why, sizeof why, "grading timed out after %.0f s (the batch's --timeout)", b->o.timeout_s);
        sr_make_error(r, "error", why);
        return;
    }
    if (ir->signaled) {
        snprintf(why, sizeof why, "the grader was killed by signal %d (%s)", ir->signal, strsignal(ir->signal));
        sr_make_error(r, "error", why);
        return;
    }
    if (!ir->started) {
        snprintf(why, sizeof why, "the grader could not be started: %s", last);
        sr_make_error(r, "error", why);
        return;
    }
    r->grader_exit = ir->exit_code;
    jv_value *v = NULL;
    char perr[256];
    if (jv_parse_file(json, &v, perr, sizeof perr) != 0 || sr_from_grader(v, r, perr, sizeof perr) != 0) {
        snprintf(why, sizeof why, "the grader exited with code %d and left no usable results (%s): %s",
                 ir->exit_code, perr, last);
        if (access(json, F_OK) == 0) {
            char keep[4300];
            snprintf(keep, sizeof keep, "%s.unreadable", json);
            rename(json, keep); /* evidence, out of the way of the made-up result */
        }
        sr_make_error(r, "error", why);
    } else if (!bat_consistent(ir->exit_code, r->verdict)) {
        snprintf(why, sizeof why, "the grader's exit code %d disagrees with its results (%s): %s",
                 ir->exit_code, r->verdict, last);
        sr_make_error(r, "error", why);
    }
    jv_free(v);
}

static void bat_progress(bat_state *b, const sr_result *r)
{
    double elapsed = bat_now() - b->t0;
    char el[32], left[32];
    bat_clock(elapsed, el, sizeof el);
    size_t remaining = b->total - b->done;
    if (b->ran_now) bat_clock(elapsed / (double)b->ran_now * (double)remaining, left, sizeof left);
    else snprintf(left, sizeof left, "?");
    fprintf(stderr, "class: %zu/%zu | passed: work %d right %d fast %d | %s elapsed, ~%s left | %s: %s\n",
            b->done, b->total, b->passes[CLS_WORK], b->passes[CLS_RIGHT], b->passes[CLS_FAST], el,
            left, r->student, r->verdict);
}

static void bat_count(bat_state *b, const sr_result *r)
{
    b->done++;
    for (int s = 0; s < CLS_STAGES; s++) b->passes[s] += !strcmp(r->stages[s].status, "pass");
    b->errors += !strcmp(r->verdict, "error");
}

/* Record one finished student: files, the results line, the progress. */
static int bat_record(bat_state *b, sr_result *r, int made_up)
{
    char json[4200], log[4200];
    bat_path(b, r->student, ".json", json, sizeof json);
    bat_path(b, r->student, ".txt", log, sizeof log);
    if (made_up) {
        FILE *f = fopen(json, "w");
        if (f) {
            sr_write_grader_json(r, f);
            fclose(f);
        }
        f = fopen(log, "a");
        if (f) {
            fprintf(f, "%s: %s\n", r->verdict, r->reason);
            fclose(f);
        }
    }
    r->finished_unix = bat_now();
    if (sto_append(b->fd, r) != 0) {
        fprintf(stderr, "class: cannot append to %s/results.jsonl: %s\n", b->out, strerror(errno));
        sr_free(r);
        return -1;
    }
    b->graded_now++;
    bat_count(b, r);
    bat_progress(b, r);
    return sto_add(&b->known, r);
}

static int bat_finish(bat_state *b, const dsp_slot *slot)
{
    const ent_entry *e = &b->entries[slot->job];
    char status[4200];
    snprintf(status, sizeof status, "%s/.run/%s.status", b->out, e->name);
    iso_result ir;
    sr_result r;
    sr_init(&r, e->name, b->lab_id);
    snprintf(r.gpu, sizeof r.gpu, "%s", slot->gpu);
    if (dsp_read_status(status, &ir) != 0) {
        sr_make_error(&r, "error", "the batch's worker died before the grader ended");
    } else {
        r.wall_s = ir.wall_s;
        bat_from_grader(b, e, &ir, &r);
    }
    unlink(status);
    b->ran_now++;
    return bat_record(b, &r, strcmp(r.verdict, "error") == 0);
}

static int bat_start(bat_state *b, dsp_slot *slot, size_t job)
{
    const ent_entry *e = &b->entries[job];
    char json[4200], log[4200], status[4200];
    bat_path(b, e->name, ".json", json, sizeof json);
    bat_path(b, e->name, ".txt", log, sizeof log);
    snprintf(status, sizeof status, "%s/.run/%s.status", b->out, e->name);
    unlink(json); /* nothing stale may pass for this run's result */
    unlink(log);
    unlink(status);
    strbuf cmd = {0};
    sb_printf(&cmd, "cd ");
    esc_shell(&cmd, b->root);
    sb_printf(&cmd, " && exec %s --submission ", sb_str(&b->grader));
    esc_shell(&cmd, e->path);
    sb_printf(&cmd, " --results ");
    esc_shell(&cmd, json);
    if (b->o.mem_limit_mb > 0) sb_printf(&cmd, " --mem-limit-mb %.0f", b->o.mem_limit_mb);
    slot->job = job;
    int rc = dsp_start(slot, sb_str(&cmd), log, status, b->o.timeout_s);
    sb_free(&cmd);
    return rc;
}

/* Already graded, and not to be graded again? */
static int bat_is_done(const bat_state *b, const ent_entry *e)
{
    const sr_result *r = sto_find(&b->known, e->name, b->lab_id);
    if (!r || b->o.force) return 0;
    if (!strcmp(r->verdict, "missing") && e->kind == ENT_OK) return 0; /* handed in since */
    return !(b->o.retry_errors && !strcmp(r->verdict, "error"));
}

static int bat_run(bat_state *b)
{
    char ids[DSP_MAX_SLOTS][64], err[512];
    int n_gpus = 0;
    if (dsp_gpus(b->o.gpus, ids, DSP_MAX_SLOTS, &n_gpus, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return CLS_EXIT_USAGE;
    }
    static dsp_slot slots[DSP_MAX_SLOTS];
    /* --jobs gradings per GPU: they take turns on it by themselves
     * (grader/gpu_lock.h), checking side by side and timing alone. */
    int per_gpu = b->o.jobs < 1 ? 1 : (int)b->o.jobs;
    int n_slots = n_gpus ? n_gpus * per_gpu : per_gpu;
    if (n_slots > DSP_MAX_SLOTS) n_slots = DSP_MAX_SLOTS;
    for (int i = 0; i < n_slots; i++)
        snprintf(slots[i].gpu, sizeof slots[i].gpu, "%s", n_gpus ? ids[i % n_gpus] : "");
    dsp_guard(slots, n_slots);

    /* queue: files to grade; now: entries with nothing to grade, recorded
     * at once (no file for this lab, or one student twice). */
    size_t span = b->last - b->first, n_queue = 0, n_now = 0, next = 0;
    size_t *queue = malloc((span + 1) * sizeof *queue), *now = malloc((span + 1) * sizeof *now);
    if (!queue || !now) { free(queue); free(now); return CLS_EXIT_USAGE; }
    b->total = span;
    for (size_t i = b->first; i < b->last; i++) {
        const ent_entry *e = &b->entries[i];
        if (bat_is_done(b, e)) bat_count(b, sto_find(&b->known, e->name, b->lab_id));
        else if (e->kind == ENT_OK) queue[n_queue++] = i;
        else now[n_now++] = i;
    }
    char where[96];
    if (n_gpus)
        snprintf(where, sizeof where, "%d %s, %d at once on each", n_gpus,
                 n_gpus > 1 ? "GPUs" : "GPU", per_gpu);
    else
        snprintf(where, sizeof where, "%d %s (no GPU ids: CUDA_VISIBLE_DEVICES left as it is)",
                 n_slots, n_slots > 1 ? "slots" : "slot");
    fprintf(stderr, "class: %s: %zu students, %zu already graded, %zu to grade on %s\n",
            b->lab_id, b->total, b->done, n_queue, where);
    for (size_t k = 0; k < n_now; k++) {
        const ent_entry *e = &b->entries[now[k]];
        sr_result r;
        sr_init(&r, e->name, b->lab_id);
        sr_make_error(&r, e->kind == ENT_MISSING ? "missing" : "error", e->why);
        bat_path(b, e->name, ".txt", err, sizeof err);
        unlink(err);
        if (bat_record(b, &r, 1) != 0) { free(queue); free(now); return CLS_EXIT_USAGE; }
    }
    free(now);
    int busy = 0, rc = CLS_EXIT_OK;
    while (next < n_queue || busy) {
        for (int i = 0; i < n_slots && next < n_queue && rc == CLS_EXIT_OK; i++)
            if (!slots[i].pid) {
                if (bat_start(b, &slots[i], queue[next]) != 0) {
                    fprintf(stderr, "class: cannot start a worker: %s\n", strerror(errno));
                    rc = CLS_EXIT_USAGE;
                    break;
                }
                next++;
                busy++;
            }
        if (!busy) break;
        int s = dsp_wait(slots, n_slots);
        if (s < 0) { rc = CLS_EXIT_USAGE; break; }
        busy--;
        if (bat_finish(b, &slots[s]) != 0) rc = CLS_EXIT_USAGE;
    }
    free(queue);
    return rc;
}

static int bat_summarise(bat_state *b)
{
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/results.jsonl", b->out);
    sto_set all = {0};
    int bad = 0;
    if (sto_load_jsonl(path, &all, &bad, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (bad) fprintf(stderr, "class: %d unreadable line(s) in %s skipped\n", bad, path);
    sto_sort(&all);
    int rc = fmt_write_summaries(b->out, &all, &b->course, err, sizeof err);
    if (rc != 0) fprintf(stderr, "class: %s\n", err);
    sto_free(&all);
    return rc;
}

static void bat_usage(void)
{
    fprintf(stderr,
            "usage: class batch --lab NN --submissions DIR --out DIR [--root REPO]\n"
            "       [--grader-cmd CMD] [--course FILE] [--gpus auto|none|0,1,..] [--jobs N]\n"
            "       [--timeout S] [--mem-limit-mb N] [--force] [--retry-errors]\n"
            "       [--student-file NAME] [--chunk K --chunk-index I] [--expect-entries N]\n");
}

static int bat_parse(int argc, char **argv, bat_options *o)
{
    memset(o, 0, sizeof *o);
    o->root = ".";
    o->timeout_s = 3600; /* above the sum of the grader's own limits: a backstop */
    o->jobs = 1;
    for (int i = 0; i < argc; i++) {
        int rc;
        if (!strcmp(argv[i], "--force")) { o->force = 1; continue; }
        if (!strcmp(argv[i], "--retry-errors")) { o->retry_errors = 1; continue; }
        if ((rc = opt_str(argc, argv, &i, "--lab", &o->lab)) ||
            (rc = opt_str(argc, argv, &i, "--submissions", &o->submissions)) ||
            (rc = opt_str(argc, argv, &i, "--out", &o->out)) ||
            (rc = opt_str(argc, argv, &i, "--root", &o->root)) ||
            (rc = opt_str(argc, argv, &i, "--grader-cmd", &o->grader_cmd)) ||
            (rc = opt_str(argc, argv, &i, "--course", &o->course)) ||
            (rc = opt_str(argc, argv, &i, "--gpus", &o->gpus)) ||
            (rc = opt_str(argc, argv, &i, "--student-file", &o->student_file)) ||
            (rc = opt_num(argc, argv, &i, "--jobs", &o->jobs)) ||
            (rc = opt_num(argc, argv, &i, "--timeout", &o->timeout_s)) ||
            (rc = opt_num(argc, argv, &i, "--mem-limit-mb", &o->mem_limit_mb)) ||
            (rc = opt_num(argc, argv, &i, "--chunk", &o->chunk)) ||
            (rc = opt_num(argc, argv, &i, "--chunk-index", &o->chunk_index)) ||
            (rc = opt_num(argc, argv, &i, "--expect-entries", &o->expect))) {
            if (rc < 0) return -1;
            o->has_chunk |= !strcmp(argv[i - 1], "--chunk");
            o->has_expect |= !strcmp(argv[i - 1], "--expect-entries");
            continue;
        }
        fprintf(stderr, "class batch: unknown option %s\n", argv[i]);
        return -1;
    }
    if (!o->lab || !o->submissions || !o->out) {
        fprintf(stderr, "class batch: --lab, --submissions and --out are required\n");
        return -1;
    }
    if (o->timeout_s <= 0) { fprintf(stderr, "class batch: --timeout must be > 0\n"); return -1; }
    return 0;
}

/* Everything up to grading: paths, the lab, the course, the students. */
static int bat_prepare(bat_state *b)
{
    char err[1024], path[4200];
    if (!realpath(b->o.root, b->root)) {
        fprintf(stderr, "class: --root %s: %s\n", b->o.root, strerror(errno));
        return -1;
    }
    if (crs_load(b->o.course, &b->course, err, sizeof err) != 0 ||
        ent_lab_id(b->root, b->o.lab, b->lab_id, sizeof b->lab_id, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (b->o.student_file) snprintf(b->student_file, sizeof b->student_file, "%s", b->o.student_file);
    else if (ent_student_file(b->root, b->lab_id, b->student_file, sizeof b->student_file, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (ent_scan(b->o.submissions, b->student_file, &b->entries, &b->n_entries, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (b->o.has_expect && (double)b->n_entries != b->o.expect) {
        fprintf(stderr, "class: %s holds %zu students, but this job was made for %.0f: "
                "make the job again (class slurm)\n", b->o.submissions, b->n_entries, b->o.expect);
        return -1;
    }
    b->first = 0;
    b->last = b->n_entries;
    if (b->o.has_chunk) {
        size_t k = (size_t)b->o.chunk, i = (size_t)b->o.chunk_index;
        if (k < 1) { fprintf(stderr, "class: --chunk must be >= 1\n"); return -1; }
        b->first = i * k < b->n_entries ? i * k : b->n_entries;
        b->last = b->first + k < b->n_entries ? b->first + k : b->n_entries;
    }
    if (sto_make_dir(b->o.out) != 0) {
        fprintf(stderr, "class: cannot make %s: %s\n", b->o.out, strerror(errno));
        return -1;
    }
    if (!realpath(b->o.out, b->out)) return -1;
    snprintf(path, sizeof path, "%s/students", b->out);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/.run", b->out);
    mkdir(path, 0755);
    /* Two batches writing one results.jsonl would grade students twice. */
    snprintf(path, sizeof path, "%s/.lock", b->out);
    int lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "class: another batch is writing to %s\n", b->out);
        return -1;
    }
    int bad = 0;
    snprintf(path, sizeof path, "%s/results.jsonl", b->out);
    if (sto_load_jsonl(path, &b->known, &bad, err, sizeof err) != 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (bad) fprintf(stderr, "class: %d unreadable line(s) in %s skipped (a torn write?)\n", bad, path);
    if ((b->fd = sto_open_append(path, err, sizeof err)) < 0) {
        fprintf(stderr, "class: %s\n", err);
        return -1;
    }
    if (b->o.grader_cmd) sb_printf(&b->grader, "%s", b->o.grader_cmd);
    else if (bat_grader_command(b->root, b->lab_id, &b->grader) != 0) return -1;
    return 0;
}

int bat_main(int argc, char **argv)
{
    static bat_state b;
    if (bat_parse(argc, argv, &b.o) != 0) { bat_usage(); return CLS_EXIT_USAGE; }
    if (bat_prepare(&b) != 0) return CLS_EXIT_USAGE;
    b.t0 = bat_now();
    int rc = bat_run(&b);
    close(b.fd);
    char run[4200];
    snprintf(run, sizeof run, "%s/.run", b.out);
    rmdir(run);
    if (bat_summarise(&b) != 0 && rc == CLS_EXIT_OK) rc = CLS_EXIT_USAGE;
    char el[32];
    bat_clock(bat_now() - b.t0, el, sizeof el);
    fprintf(stderr, "class: %zu/%zu students in %s (%zu graded now); %s/summary.csv\n", b.done, b.total,
            el, b.graded_now, b.out);
    if (rc == CLS_EXIT_OK && b.errors) {
        fprintf(stderr, "class: %d student(s) with verdict error (the grader died, timed out or "
                "disagreed with itself): see students/NAME.txt, then --retry-errors\n", b.errors);
        rc = CLS_EXIT_ERRORS;
    }
    free(b.entries);
    sto_free(&b.known);
    sb_free(&b.grader);
    return rc;
}
