/* opts.c - see opts.h. */
#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int opt_str(int argc, char **argv, int *i, const char *name, const char **dst)
{
    if (strcmp(argv[*i], name) != 0) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "class: %s needs a value\n", name);
        return -1;
    }
    *dst = argv[++*i];
    return 1;
}

int opt_num(int argc, char **argv, int *i, const char *name, double *dst)
{
    const char *v;
    int rc = opt_str(argc, argv, i, name, &v);
    if (rc != 1) return rc;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end || !isfinite(x) || x < 0) {
        fprintf(stderr, "class: %s takes a number >= 0, not '%s'\n", name, v);
        return -1;
    }
    *dst = x;
    return 1;
}
