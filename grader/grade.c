/* grade.c - the grader: grade --lab 01 [options]
 *
 * Builds the submission against the trusted files, then runs the stages in
 * order, each gated on the one before: work, right, fast. Exit codes:
 *   0 every requested stage passed
 *   1 a stage failed (a submission that does not build or breaks a rule too)
 *   2 a usage error, a grader that could not build, a malformed runner
 *     record, unreliable timing
 *   3 no usable GPU
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "device.h"
#include "fast.h"
#include "grade.h"
#include "isolate.h"
#include "labs.h"
#include "ladder.h"
#include "report.h"
#include "rng.h"
#include "stages.h"


enum { EXIT_PASSED = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3 };

static const uint64_t DEFAULT_SEED = 24301;

typedef struct {
    const char *lab, *submission, *stage, *results, *root, *nvcc, *arch,
        *include_dir, *objects_dir, *probe, *emu_dir, *emu_objects_dir, *secret_file, *keep_last,
        *build_cache;
    uint64_t seed;
    long mem_limit_mb;
    iso_limits build;
    double work_limit_s, right_limit_s;
    int keep, ladder, quick, emulate, build_only, lab_info, no_smallest, fast_only;
} options;

static void usage(void)
{
    fprintf(stderr,
            "usage: grade --lab NN [--submission FILE] [--stage work|right|fast]\n"
            "       grade --lab NN --lab-info   (the lab's id, title, entry point, student file and hints)\n"
            "             [--results FILE.json] [--seed N] [--keep] [--ladder [--quick]] [--emulate]\n"
            "             [--keep-last DIR]   (the report also as DIR/<lab>.json, for make status)\n"
            "             [--mem-limit-mb N] [--instructor-seed-file FILE]\n"
            "             [--build-limits SECONDS,MB,FILE_MB,LOG_KB] [--time-limits WORK,RIGHT]\n"
            "             [--no-smallest] [--fast-only] [--build-cache DIR]\n"
            "             --root DIR --nvcc NVCC --arch SM --include DIR\n"
            "             --objects DIR --probe PROBE [--emu DIR --emu-objects DIR]\n"
            "Normally run through make: make grade LAB=01 [SUBMISSION=...] "
            "[STAGE=...] [RESULTS=...]\n"
            "--ladder checks and times every rung of labs/NN-name/solution/ladder.cu\n"
            "(make ladder LAB=NN); with --quick it samples less (for tests, which\n"
            "prove every rung right, not its exact figures).\n"
            "--mem-limit-mb stops a submission's process above N MB of host memory.\n"
            "--build-only builds the submission for the GPU (or with --emulate, the\n"
            "CPU) and checks its rules, running nothing: no GPU needed.\n"
            "--build-limits caps every compiler step: wall time, memory, the largest\n"
            "file written and the messages printed (default 120,4096,64,1024).\n"
            "--time-limits caps work's and right's calls at these seconds instead\n"
            "of the lab's (for tests of submissions that hang: a hang costs seconds).\n"
            "--no-smallest does not try a failing call again at smaller sizes (the\n"
            "report then shows the failing call as it was; same verdict, less time).\n"
            "--fast-only times the submission without running work and right first\n"
            "(for a file whose work and right passed before: the timed calls are still\n"
            "checked, but the small cases, the edge cases and the sanitizers are not,\n"
            "so its PASS is fast's alone, never the submission's).\n"
            "--build-cache DIR keeps every runner that built and passed the rules, and\n"
            "reuses it for the same file built the same way (make grade: build/cache).\n"
            "A hidden instructor seed (the file's contents, or $CUDALAB_INSTRUCTOR_SEED)\n"
            "is mixed into every input; reports show only the public --seed.\n");
}

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->stage = "fast";
    o->root = ".";
    o->nvcc = "nvcc";
    o->arch = "sm_90";
    o->seed = DEFAULT_SEED;
    o->build = (iso_limits){120, 4096, 64, 1024};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **dst = !strcmp(a, "--lab") ? &o->lab
                         : !strcmp(a, "--submission") ? &o->submission
                         : !strcmp(a, "--stage") ? &o->stage
                         : !strcmp(a, "--results") ? &o->results
                         : !strcmp(a, "--root") ? &o->root
                         : !strcmp(a, "--nvcc") ? &o->nvcc
                         : !strcmp(a, "--arch") ? &o->arch
                         : !strcmp(a, "--include") ? &o->include_dir
                         : !strcmp(a, "--objects") ? &o->objects_dir
                         : !strcmp(a, "--probe") ? &o->probe
                         : !strcmp(a, "--emu") ? &o->emu_dir
                         : !strcmp(a, "--emu-objects") ? &o->emu_objects_dir
                         : !strcmp(a, "--instructor-seed-file") ? &o->secret_file
                         : !strcmp(a, "--keep-last") ? &o->keep_last
                         : !strcmp(a, "--build-cache") ? &o->build_cache
                         : NULL;
        if (!strcmp(a, "--keep")) { o->keep = 1; continue; }
        if (!strcmp(a, "--ladder")) { o->ladder = 1; continue; }
        if (!strcmp(a, "--quick")) { o->quick = 1; continue; }
        if (!strcmp(a, "--emulate")) { o->emulate = 1; continue; }
        if (!strcmp(a, "--build-only")) { o->build_only = 1; continue; }
        if (!strcmp(a, "--lab-info")) { o->lab_info = 1; continue; }
        if (!strcmp(a, "--no-smallest")) { o->no_smallest = 1; continue; }
        if (!strcmp(a, "--fast-only")) { o->fast_only = 1; continue; }
        if (!strcmp(a, "--seed") && v) {
            char *end;
            o->seed = strtoull(v, &end, 0);
            if (*end) { fprintf(stderr, "grade: --seed takes a number, not %s\n", v); return -1; }
            i++;
            continue;
        }
        if (!strcmp(a, "--build-limits") && v) {
            iso_limits *l = &o->build;
            char tail;
            if (sscanf(v, "%lf,%ld,%ld,%ld%c", &l->time_s, &l->memory_mb, &l->file_mb, &l->log_kb,
                       &tail) != 4 || l->time_s <= 0 || l->memory_mb <= 0 || l->file_mb <= 0 ||
                l->log_kb <= 0) {
                fprintf(stderr, "grade: --build-limits takes SECONDS,MB,FILE_MB,LOG_KB, "
                                "four positive numbers, not %s\n", v);
                return -1;
            }
            i++;
            continue;
        }
        if (!strcmp(a, "--time-limits") && v) {
            char tail;
            if (sscanf(v, "%lf,%lf%c", &o->work_limit_s, &o->right_limit_s, &tail) != 2 ||
                !(o->work_limit_s > 0) || !(o->right_limit_s > 0) ||
                !isfinite(o->work_limit_s) || !isfinite(o->right_limit_s)) {
                fprintf(stderr, "grade: --time-limits takes WORK,RIGHT, two positive numbers "
                                "of seconds, not %s\n", v);
                return -1;
            }
            i++;
            continue;
        }
        if (!strcmp(a, "--mem-limit-mb") && v) {
            char *end;
            o->mem_limit_mb = strtol(v, &end, 10);
            if (*end || o->mem_limit_mb <= 0) {
                fprintf(stderr, "grade: --mem-limit-mb takes a positive number, not %s\n", v);
                return -1;
            }
            i++;
            continue;
        }
        if (!dst || !v) { fprintf(stderr, "grade: unknown or incomplete option %s\n", a); return -1; }
        *dst = (*v) ? v : NULL; /* an empty value (SUBMISSION=) means unset */
        i++;
    }
    if (!o->lab) { fprintf(stderr, "grade: which lab? --lab NN\n"); return -1; }
    if (o->quick && !o->ladder) {
        fprintf(stderr, "grade: --quick is for a ladder (--ladder); the fast stage always "
                        "samples in full\n");
        return -1;
    }
    if (o->fast_only && (o->ladder || o->build_only || strcmp(o->stage, "fast"))) {
        fprintf(stderr, "grade: --fast-only times a submission's fast stage: not with --ladder, "
                        "--build-only or a --stage other than fast\n");
        return -1;
    }
    if (o->lab_info) return 0;
    if (!o->include_dir || !o->objects_dir || !o->probe) {
        fprintf(stderr, "grade: --include, --objects and --probe are required\n");
        return -1;
    }
    return 0;
}

/* The instructor's secret, from a file or the environment, hashed into a
 * number that is mixed with the public seed: students know the public
 * seed, so answers hard-coded for its inputs fail on the mixed ones.
 * Returns 0 with *secret = 0 when there is none, -1 when the file named
 * cannot be read. */
static int instructor_secret(const char *file, uint64_t *secret)
{
    *secret = 0;
    char text[4096] = "";
    size_t n = 0;
    if (!file) file = getenv("CUDALAB_INSTRUCTOR_SEED_FILE");
    if (file && *file) {
        FILE *f = fopen(file, "rb");
        if (!f) return -1;
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    } else {
        const char *env = getenv("CUDALAB_INSTRUCTOR_SEED");
        if (!env || !*env) return 0;
        n = (size_t)snprintf(text, sizeof text, "%s", env);
    }
    *secret = rng_fnv1a(RNG_FNV_BASIS, text, n) | 1; /* never 0, which means none */
    return 0;
}

static int stage_index(const char *name)
{
    static const char *names[N_STAGES] = {"work", "right", "fast"};
    for (int i = 0; i < N_STAGES; i++)
        if (!strcmp(name, names[i])) return i;
    return -1;
}

/* compute-sanitizer from $COMPUTE_SANITIZER, beside nvcc, or on the PATH. */
static const char *find_sanitizer(const char *nvcc, char *buf, size_t size)
{
    const char *env = getenv("COMPUTE_SANITIZER");
    if (env && *env) return access(env, X_OK) == 0 ? env : NULL;
    const char *slash = strrchr(nvcc, '/');
    if (slash) {
        snprintf(buf, size, "%.*s/compute-sanitizer", (int)(slash - nvcc), nvcc);
        if (access(buf, X_OK) == 0) return buf;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, size, "%.*s/compute-sanitizer", (int)n, path);
        if (n && access(buf, X_OK) == 0) return buf;
        path += n + (path[n] == ':');
    }
    return NULL;
}

static void skip_rest(stage_result *st, int from, int to, const char *why)
{
    for (int i = from; i < to; i++) {
        st[i].status = ST_SKIPPED;
        snprintf(st[i].summary, sizeof st[i].summary, "%s", why);
    }
}

/* The report once more as DIR/<lab>.json, the lab's last result for `make
 * status` (grader/status.sh): written beside and renamed into place, so a
 * reader never sees half a file and gradings side by side leave one whole. */
static void keep_last(const char *dir, const grade_ctx *g, const stage_result *st, int passed)
{
    char path[700], tmp[720];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/%s.json", dir, g->spec->id);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (report_json(tmp, g, st, N_STAGES, passed) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        fprintf(stderr, "grade: cannot keep the last result in %s (make status will not show it)\n",
                path);
    }
}

static int finish(const options *o, const grade_ctx *g, stage_result *st, int code)
{
    int passed = code == EXIT_PASSED;
    if (g->build_seconds > 0 && !o->ladder) report_times(g, st, N_STAGES);
    if (o->results && report_json(o->results, g, st, N_STAGES, passed) != 0) {
        fprintf(stderr, "grade: cannot write %s\n", o->results);
        if (code == EXIT_PASSED) code = EXIT_USAGE;
    }
    /* a fast stage alone is not the lab's last result */
    if (o->keep_last && g->spec && !o->ladder && !o->build_only && !o->fast_only)
        keep_last(o->keep_last, g, st, passed);
    if (!o->keep) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g->scratch);
        if (system(cmd) != 0) fprintf(stderr, "grade: could not remove %s\n", g->scratch);
    } else {
        printf("scratch directory kept: %s\n", g->scratch);
    }
    for (int i = 0; i < N_STAGES; i++) sb_free(&st[i].details);
    return code;
}

/* The compiler's first error, "line:col: error: ..." without the path, so
 * the one-line summary (and a class gradebook's reason) says what broke. */
static void first_compiler_error(const char *log, char *out, size_t size)
{
    out[0] = 0;
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *error = strstr(line, " error:");
        if (error && (size_t)(error - line) < len) {
            /* from the first ':' that follows a file name ending in .cu */
            const char *from = line;
            const char *cu = strstr(line, ".cu");
            if (cu && (size_t)(cu - line) < len) {
                const char *slash = cu;
                while (slash > line && slash[-1] != '/') slash--;
                from = slash;
            }
            snprintf(out, size, "%.*s", (int)(len - (size_t)(from - line)), from);
            return;
        }
        line = end ? end + 1 : NULL;
    }
}

int main(int argc, char **argv)
{
    options o;
    if (parse_options(argc, argv, &o) != 0) { usage(); return EXIT_USAGE; }
    /* A reader that stops early (grade ... | head) must not cost the
     * results file: writes to a closed stdout fail instead of killing the
     * grader. Children get the default back (iso_child). */
    signal(SIGPIPE, SIG_IGN);
    /* No child sees the grader's environment (the instructor's secret is
     * in it), and none outlives a grading. */
    iso_set_clean_environment();
    iso_adopt_orphans();
    grade_ctx g;
    memset(&g, 0, sizeof g);
    g.started_s = iso_now_s();
    g.spec = lab_find(o.lab);
    if (!g.spec) {
        fprintf(stderr, "grade: no lab called '%s'; labs:", o.lab);
        for (int i = 0; LAB_REGISTRY[i]; i++) fprintf(stderr, " %s", LAB_REGISTRY[i]->id);
        fprintf(stderr, "\n");
        return EXIT_USAGE;
    }
    if (o.lab_info) {
        printf("id=%s\ntitle=%s\nentry=%s\nstudent_file=%s\n", g.spec->id, g.spec->title,
               g.spec->entry, g.spec->student_file);
        /* The lab's own hints, one line each, for the tests that check a
         * wrong file's report says what its REPORT-SAYS line says. */
        const lab_hints *h = &g.spec->hints;
        const struct { const char *kind, *text; } hints[] = {
            {"never_written", h->never_written}, {"wrong_value", h->wrong_value},
            {"special_values", h->special_values}, {"input_changed", h->input_changed},
            {"write_before", h->write_before}, {"write_after", h->write_after},
            {"launch_error", h->launch_error}, {"timeout", h->timeout},
            {"crash", h->crash}, {"too_slow", h->too_slow}, {"resources", h->resources},
        };
        for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
            if (hints[i].text) printf("hint_%s=%s\n", hints[i].kind, hints[i].text);
        /* The hardware counters make profile shows, one tab-separated
         * line each: kind, metric, divisor, label, lesson. */
        static const char *const kinds[] = {"ratio", "average", "millions"};
        for (int i = 0; i < LAB_MAX_COUNTERS && g.spec->counters[i].label; i++) {
            const lab_counter *k = &g.spec->counters[i];
            printf("counter=%s\t%s\t%s\t%s\t%s\n", kinds[k->kind], k->metric,
                   k->per ? k->per : "-", k->label, k->lesson);
        }
        if (g.spec->counters_none) printf("counters_none=%s\n", g.spec->counters_none);
        /* How the fast stage names its second timed size ("at radius 7"). */
        if (lab_case_given(&g.spec->fast.second.timed))
            printf("second_size=at %s\n", g.spec->fast.second.what);
        return EXIT_PASSED;
    }
    int last = stage_index(o.stage);
    if (last < 0) {
        fprintf(stderr, "grade: STAGE must be work, right or fast, not '%s'\n", o.stage);
        return EXIT_USAGE;
    }
    char default_submission[512];
    if (o.ladder)
        snprintf(default_submission, sizeof default_submission, "%s/labs/%s/solution/ladder.cu",
                 o.root, g.spec->id);
    else
        snprintf(default_submission, sizeof default_submission, "%s/labs/%s/%s", o.root,
                 g.spec->id, g.spec->student_file);
    g.submission = o.submission ? o.submission : default_submission;
    if (o.ladder && !o.submission && access(default_submission, F_OK) != 0) {
        fprintf(stderr,
                "grade: this copy has no solution ladder (labs/%s/solution/ladder.cu; a student "
                "release leaves the solutions out): the ladder as measured is in "
                "labs/%s/slides/ladder.json and in the lab README's chart\n",
                g.spec->id, g.spec->id);
        return EXIT_USAGE;
    }
    struct stat sub;
    if (access(g.submission, R_OK) != 0 || stat(g.submission, &sub) != 0) {
        fprintf(stderr, "grade: cannot read the submission %s\n", g.submission);
        return EXIT_USAGE;
    }
    if (!S_ISREG(sub.st_mode)) {
        fprintf(stderr, "grade: the submission %s is %s, not a .cu file\n", g.submission,
                S_ISDIR(sub.st_mode) ? "a folder" : "not a regular file");
        return EXIT_USAGE;
    }
    uint64_t secret;
    if (instructor_secret(o.secret_file, &secret) != 0) {
        fprintf(stderr, "grade: cannot read the instructor seed file %s\n",
                o.secret_file ? o.secret_file : getenv("CUDALAB_INSTRUCTOR_SEED_FILE"));
        return EXIT_USAGE;
    }
    g.work_limit_s = o.work_limit_s;
    g.right_limit_s = o.right_limit_s;
    g.no_smallest = o.no_smallest;
    g.fast_only = o.fast_only;
    g.public_seed = o.seed;
    g.hidden_seed = secret != 0;
    g.seed = secret ? rng_derive(o.seed, secret) : o.seed;
    const char *tmp = getenv("TMPDIR");
    char scratch[512];
    snprintf(scratch, sizeof scratch, "%s/cudalab-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
             g.spec->id);
    if (!mkdtemp(scratch)) { perror("grade: mkdtemp"); return EXIT_USAGE; }
    g.scratch = scratch;
    g.gpu_lock_dir = o.objects_dir;
    char ladder_dir[1024];
    snprintf(ladder_dir, sizeof ladder_dir, "%s/labs/%s/slides", o.root, g.spec->id);
    g.ladder_dir = ladder_dir;

    stage_result st[N_STAGES];
    memset(st, 0, sizeof st);
    st[STAGE_WORK].name = "work";
    st[STAGE_RIGHT].name = "right";
    st[STAGE_FAST].name = "fast";
    skip_rest(st, last + 1, N_STAGES, "not requested");

    /* What GPU there is (device.h): with a driver installed, asked while
     * the build for the GPU runs. Without a GPU, work and right run on the
     * CPU; EMU=1 asks for that even with one, and never touches the GPU. */
    int can_emulate = o.emu_dir && o.emu_objects_dir;
    if (o.emulate && !can_emulate) {
        fprintf(stderr, "grade: --emulate needs --emu and --emu-objects\n");
        return finish(&o, &g, st, EXIT_USAGE);
    }
    device_probe asking = {.pid = -1};
    int probe_beside_build = 0;
    if (o.emulate) {
        snprintf(g.device.error, sizeof g.device.error, "EMU=1");
    } else {
        device_probe_start(&asking, o.probe, scratch, o.objects_dir);
        probe_beside_build = device_driver_present();
        if (!probe_beside_build) g.probe_seconds = device_probe_finish(&asking, &g.device);
    }
    g.emulated = o.emulate || (!probe_beside_build && can_emulate && !g.device.ok && !o.build_only);

    char objects[512], runner[512], sanitizer[512];
    snprintf(objects, sizeof objects, "%s/%s", o.objects_dir, g.spec->id);
    char source_dir[512];
    snprintf(source_dir, sizeof source_dir, "%s", g.submission);
    char *slash = strrchr(source_dir, '/');
    if (slash) *slash = 0;
    else snprintf(source_dir, sizeof source_dir, ".");
    char grader_dir[512];
    snprintf(grader_dir, sizeof grader_dir, "%s/grader", o.root);
    char emu_objects[512];
    snprintf(emu_objects, sizeof emu_objects, "%s/%s", o.emu_objects_dir ? o.emu_objects_dir : ".",
             g.spec->id);
    build_config b = {o.nvcc, o.arch, o.include_dir, objects, o.emu_dir, emu_objects,
                      o.ladder ? source_dir : NULL, o.ladder ? grader_dir : NULL, o.build,
                      o.build_cache};
    char *build_log = NULL;
    double step = iso_now_s();
    int built = build_runner(&b, &g, runner, sizeof runner, &build_log);
    g.build_seconds = iso_now_s() - step;
    if (probe_beside_build) {
        g.probe_seconds = device_probe_finish(&asking, &g.device);
        if (!g.device.ok && can_emulate && !o.build_only) { /* a driver, but no GPU */
            g.emulated = 1;
            free(build_log);
            build_log = NULL;
            step = iso_now_s();
            built = build_runner(&b, &g, runner, sizeof runner, &build_log);
            g.build_seconds += iso_now_s() - step;
        }
    }
    if (o.ladder && g.emulated) {
        printf("a ladder is timed, so it needs a GPU%s%s\n", o.emulate ? "" : ": ",
               o.emulate ? "" : g.device.error);
        free(build_log);
        return finish(&o, &g, st, EXIT_NO_GPU);
    }
    if (built == BUILD_REJECTED || built == BUILD_LIMITED) {
        report_header(&g);
        st[STAGE_WORK].status = ST_ERROR;
        snprintf(st[STAGE_WORK].summary, sizeof st[STAGE_WORK].summary,
                 "rejected before running: %s", build_log ? build_log : "");
        sb_printf(&st[STAGE_WORK].details,
                  "hint: the entry point launches kernels and may use the CUDA runtime, "
                  "the C math library, malloc/free, memcpy/memset and printf; nothing else\n");
        skip_rest(st, STAGE_RIGHT, last + 1, "skipped (the submission was rejected)");
        report_stage(&st[STAGE_WORK]);
        free(build_log);
        return finish(&o, &g, st, EXIT_FAILED); /* the submission's doing */
    }
    if (built == BUILD_BROKEN) {
        report_header(&g);
        st[STAGE_WORK].status = ST_ERROR;
        snprintf(st[STAGE_WORK].summary, sizeof st[STAGE_WORK].summary,
                 "the grader could not build: %s", build_log ? build_log : "");
        skip_rest(st, STAGE_RIGHT, last + 1, "skipped (the grader could not build)");
        report_stage(&st[STAGE_WORK]);
        free(build_log);
        return finish(&o, &g, st, EXIT_USAGE);
    }
    const char *lacks = g.emulated && built == BUILD_FAILED ? build_emulation_lacks(build_log) : NULL;
    if (lacks) {
        report_header(&g);
        char why[200];
        snprintf(why, sizeof why,
                 "skipped: the CPU emulation does not support %s yet; grade on a GPU", lacks);
        skip_rest(st, 0, last + 1, why);
        for (int i = 0; i <= last; i++) report_stage(&st[i]);
        printf("verdict: not graded here: your file uses %s, which only a GPU runs\n", lacks);
        free(build_log);
        return finish(&o, &g, st, EXIT_NO_GPU);
    }
    if (built != 0) {
        report_header(&g);
        st[STAGE_WORK].status = ST_ERROR;
        char first[200];
        first_compiler_error(build_log, first, sizeof first);
        snprintf(st[STAGE_WORK].summary, sizeof st[STAGE_WORK].summary,
                 "%s does not build%s%s; the compiler says:", g.spec->student_file,
                 first[0] ? ": " : "", first);
        sb_printf(&st[STAGE_WORK].details, "%s", build_log ? build_log : "");
        skip_rest(st, STAGE_RIGHT, last + 1, "skipped (the submission does not build)");
        report_stage(&st[STAGE_WORK]);
        free(build_log);
        return finish(&o, &g, st, EXIT_FAILED);
    }
    g.runner = runner;
    if (o.build_only) {
        report_header(&g);
        printf("build PASS    compiled and linked; %s\n", g.symbols_checked);
        skip_rest(st, 0, N_STAGES, "not requested (--build-only)");
        return finish(&o, &g, st, EXIT_PASSED);
    }
    /* The build is the toolchain's; from here on children run student code. */
    iso_set_memory_limit_mb(o.mem_limit_mb);
    g.sanitizer = find_sanitizer(o.nvcc, sanitizer, sizeof sanitizer);
    report_header(&g);
    if (!g.device.ok && !g.emulated) {
        printf("no usable GPU: %s\n", g.device.error);
        skip_rest(st, 0, last + 1, "skipped: needs a GPU");
        return finish(&o, &g, st, EXIT_NO_GPU);
    }

    if (o.ladder) { /* it takes the GPU alone while it runs (ladder.c) */
        int code = run_ladder_report(&g, o.results, o.quick);
        o.results = NULL; /* the ladder wrote its own JSON */
        return finish(&o, &g, st, code);
    }

    static const char *const gate[N_STAGES] = {
        "", "skipped (make it work first)", "skipped (make it right first)"};
    int code = EXIT_PASSED, needed_gpu = 0;
    /* fast's runner makes its large inputs on the CPU while work and right
     * run; it touches the GPU only when told to, after they passed. */
    fast_runner fast = {0};
    if (last == STAGE_FAST && !g.emulated) fast_start(&g, &fast);
    for (int i = 0; i <= last; i++) {
        if (o.fast_only && i < STAGE_FAST) {
            skip_rest(st, i, i + 1, "not run (--fast-only)");
        } else if (code != EXIT_PASSED) {
            skip_rest(st, i, i + 1, gate[i]);
        } else if (g.emulated && i == STAGE_FAST) {
            skip_rest(st, i, i + 1, "skipped: needs a GPU (timing cannot be emulated)");
            needed_gpu = 1;
        } else {
            if (i == STAGE_WORK) { /* right's runs go with work's: judged here too */
                /* Checks share the GPU with other gradings, run by run
                 * (stages.c); fast.c takes it alone for the timing. */
                stages_work_and_right(&g, &st[STAGE_WORK], &st[STAGE_RIGHT], last >= STAGE_RIGHT);
            } else if (i == STAGE_FAST) {
                step = iso_now_s();
                stage_fast(&g, &fast, &st[i]);
                st[i].seconds = iso_now_s() - step;
            }
            if (st[i].status != ST_PASS)
                code = st[i].malformed || st[i].unreliable ? EXIT_USAGE : EXIT_FAILED;
            if (g.emulated) {
                size_t len = strlen(st[i].summary);
                snprintf(st[i].summary + len, sizeof st[i].summary - len,
                         " [emulated on the CPU]");
            }
        }
        report_stage(&st[i]);
    }
    fast_abandon(&fast);
    if (code == EXIT_PASSED && needed_gpu) {
        printf("verdict: %s\n", o.fast_only ? "not graded: --fast-only times, which needs a GPU"
                                             : "the stages that could run passed; fast needs a GPU");
        return finish(&o, &g, st, EXIT_NO_GPU);
    }
    printf("verdict: %s\n", code != EXIT_PASSED ? "FAIL"
                            : o.fast_only      ? "fast PASS (work and right not run: --fast-only)"
                                               : "PASS");
    return finish(&o, &g, st, code);
}
