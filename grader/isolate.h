/* isolate.h - run a program in a child process with limits.
 *
 * Student code runs only in children: a hang is stopped at the limit, a
 * crash is a signal number, and the grader goes on either way. The child
 * gets its own process group so everything it started dies with it, no
 * descriptor but stdin, stdout and stderr, and (once the grader asks for
 * it) only a few harmless environment variables. A grader that adopts
 * orphans also ends every process that left the group.
 */
#ifndef ISOLATE_H
#define ISOLATE_H

#include <stddef.h>

typedef struct {
    int started;     /* 0: fork/exec failed (see exit_code 127) */
    int exited;      /* ended by itself; exit_code is valid */
    int exit_code;
    int signaled;    /* killed by a signal it did not expect */
    int signal;
    int timed_out;   /* stopped by us at the limit */
    int out_of_memory; /* stopped by us above the memory limit */
    long memory_limit_mb; /* the limit it ran under (0: none) */
    int log_too_big;   /* stopped by us: its output passed log_kb */
    long log_limit_kb;
    int file_too_big;  /* killed by SIGXFSZ: a file passed file_mb */
    long file_limit_mb;
    int cancelled;     /* stopped by us (iso_cancel): its answer was not needed */
    double wall_s;
} iso_result;

/* What one child may use; 0 means no limit. */
typedef struct {
    double time_s;   /* wall-clock seconds */
    long memory_mb;  /* resident memory, summed over its process group */
    long file_mb;    /* the largest file it may write (RLIMIT_FSIZE) */
    long log_kb;     /* its stdout and stderr together */
} iso_limits;

/* Run argv[0] under the limits; otherwise as iso_run. */
int iso_run_with(char *const argv[], const char *log_path, const iso_limits *limits,
                 iso_result *r);

/* Runs side by side: start each, then wait for all. While a job runs,
 * its process group is ended with the grader, and the orphan hunt after
 * every wait spares it. */
typedef struct {
    int pid;
    double t0, next_check;
    iso_limits limits;
    char log_path[512];
    int status, ended_by_us, done;
    iso_result result; /* once done */
} iso_job;

/* Start argv[0] as iso_run would, without waiting; 0 when it started. At
 * most 16 jobs run at once. */
int iso_start(iso_job *job, char *const argv[], const char *log_path, const iso_limits *limits);
/* A child that makes its inputs while another grading may hold the GPU,
 * then waits for the word that the GPU is its own (the fast stage's
 * runner, a ladder's): started with one end of a socket as its stdin, our
 * end in *word (0 when it started). It writes a byte there once ready;
 * iso_wait_ready waits for that byte, or its end, at most limit_s; iso_go
 * counts its time limit (and its wall_s) from now, since the time it
 * waited for us is not its own, says go and closes our end. */
int iso_start_waiting(iso_job *job, char *const argv[], const char *log_path,
                      const iso_limits *limits, int *word);
void iso_wait_ready(int word, double limit_s);
void iso_go(iso_job *job, int word);
/* Look after all n jobs (their limits hold) until jobs[which] is done;
 * its result is then filled. */
void iso_wait(iso_job *jobs, int n, int which);
/* The same, for at most `seconds`; 1 when jobs[which] is done. */
int iso_wait_for(iso_job *jobs, int n, int which, double seconds);
/* Stop every job not done yet (result.cancelled): its answer will not be
 * read. */
void iso_cancel(iso_job *jobs, int n);
/* Stop a job now as if it had passed its time limit (result.timed_out):
 * its caller keeps a limit of its own for a part of the job. */
void iso_time_out(iso_job *job);

/* A child the grader forked for itself (not a job): the orphan hunt
 * spares it until iso_unspare, before it is reaped. 0 when registered. */
int iso_spare(int pid);
void iso_unspare(int pid);

/* Run argv[0] (searched in PATH) with stdout and stderr appended to
 * log_path and stdin from /dev/null. Returns 0 when the child could be run
 * at all, whatever it then did. */
int iso_run(char *const argv[], const char *log_path, double limit_s,
            iso_result *r);

/* Host memory (resident, summed over the child's process group) above
 * which later children run by iso_run are stopped; 0, the default, sets
 * no limit. */
void iso_set_memory_limit_mb(long mb);
long iso_memory_limit(void);

/* From now on children get only the variables in ISO_KEPT_ENVIRONMENT
 * (where to find programs and libraries, which GPU, the locale), never
 * the grader's secrets. */
void iso_set_clean_environment(void);
extern const char *const ISO_KEPT_ENVIRONMENT[];

/* Make this process the reaper of its descendants' orphans (Linux), so a
 * child that forks and leaves its process group is still found and ended
 * after every run. Returns 0 when the kernel agreed. */
int iso_adopt_orphans(void);

/* Seconds on a monotonic clock, for measuring how long a step took. */
double iso_now_s(void);

/* One line that says how it ended: "exit code 1", "killed by SIGSEGV",
 * "timed out after 30 s". */
void iso_describe(const iso_result *r, char *buf, size_t size);

/* The last max_bytes of a log, NUL-terminated, starting at a line; NULL if
 * unreadable. The caller frees it. */
char *iso_log_tail(const char *log_path, size_t max_bytes);

#endif
