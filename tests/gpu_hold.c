/* tests/gpu_hold.c - gpu_hold shared|exclusive DIR COMMAND [ARG...]: runs
 * COMMAND while holding the GPU lock of the gradings whose lock folder is
 * DIR (grader/gpu_lock.h), the way a grading would hold it, and exits with
 * COMMAND's exit code (128 + N when signal N ended it; 2 when it could not
 * run or the lock could not be had).
 *
 * make test uses it for GPU work of its own that runs beside gradings:
 * Nsight Compute profiling the ladder rungs (exclusive: its counters must
 * see no other process's kernels, and a timing none of its), and the
 * gradings of a student release, another checkout whose locks the
 * gradings here do not see (shared: they only check). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_lock.h"

int main(int argc, char **argv)
{
    if (argc < 4 || (strcmp(argv[1], "shared") != 0 && strcmp(argv[1], "exclusive") != 0)) {
        fprintf(stderr, "usage: gpu_hold shared|exclusive DIR COMMAND [ARG...]\n");
        return 2;
    }
    gpu_lock lock;
    char why[1200];
    if (gpu_lock_take(argv[2], strcmp(argv[1], "shared") == 0 ? GPU_SHARED : GPU_EXCLUSIVE,
                      &lock, why, sizeof why) != 0) {
        fprintf(stderr, "gpu_hold: %s\n", why);
        return 2;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("gpu_hold: fork");
        return 2;
    }
    if (child == 0) { /* the lock's files close on exec: only we hold it */
        execvp(argv[3], argv + 3);
        fprintf(stderr, "gpu_hold: cannot run %s: %s\n", argv[3], strerror(errno));
        _exit(2);
    }
    int status, waited;
    do waited = waitpid(child, &status, 0);
    while (waited < 0 && errno == EINTR);
    gpu_lock_release(&lock);
    if (waited < 0) {
        perror("gpu_hold: waitpid");
        return 2;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
