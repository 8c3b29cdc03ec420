/* opts.h - the long options every subcommand reads the same way. */
#ifndef CLASS_OPTS_H
#define CLASS_OPTS_H

/* If argv[*i] is `name`, take the next argument into *dst and return 1;
 * return -1 (with a message) when the value is missing; 0 when not ours. */
int opt_str(int argc, char **argv, int *i, const char *name, const char **dst);
/* The same for a number >= 0. */
int opt_num(int argc, char **argv, int *i, const char *name, double *dst);

#endif
