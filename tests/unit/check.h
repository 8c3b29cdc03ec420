/* check.h - the smallest test framework that does the job.
 *
 * A test is a void function; CHECK stops it at the first false condition.
 * The runner prints one line per test: PASS name, or FAIL name: where and
 * what, which tests/run.sh counts.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>

extern const char *check_failed; /* set by CHECK, reset per test */
extern char check_where[256];

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            snprintf(check_where, sizeof check_where, "%s:%d: %s", __FILE__,  \
                     __LINE__, #cond);                                        \
            check_failed = check_where;                                       \
            return;                                                           \
        }                                                                     \
    } while (0)

typedef struct {
    const char *name;
    void (*fn)(void);
} unit_test;

#define TEST(name) {#name, name}

#endif
