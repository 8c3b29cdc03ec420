/* isolate.h - run a program in a child process with a time limit.
 *
 * Student code runs only in children: a hang is stopped at the limit, a
 * crash is a signal number, and the grader goes on either way. The child
 * gets its own process group so everything it started dies with it.
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
    double wall_s;
} iso_result;

/* Run argv[0] (searched in PATH) with stdout and stderr appended to
 * log_path and stdin from /dev/null. Returns 0 when the child could be run
 * at all, whatever it then did. */
int iso_run(char *const argv[], const char *log_path, double limit_s,
            iso_result *r);

/* Host memory (resident, summed over the child's process group) above
 * which later children are stopped; 0, the default, sets no limit. */
void iso_set_memory_limit_mb(long mb);

/* One line that says how it ended: "exit code 1", "killed by SIGSEGV",
 * "timed out after 30 s". */
void iso_describe(const iso_result *r, char *buf, size_t size);

/* The last max_bytes of a log, NUL-terminated, starting at a line; NULL if
 * unreadable. The caller frees it. */
char *iso_log_tail(const char *log_path, size_t max_bytes);

#endif
