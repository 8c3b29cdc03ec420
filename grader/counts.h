/* counts.h - the memory counts of the CPU emulation in a report (counts.c). */
#ifndef COUNTS_H
#define COUNTS_H

#include "protocol.h"
#include "text.h"

/* How much of each launch the emulation counts (and runs): enough for
 * every pattern of a grid to show, little enough to cost a fraction of a
 * second whatever the kernel's work (a block of a matrix product can make
 * millions of accesses). */
enum { COUNTS_MAX_BLOCKS = 8, COUNTS_MAX_ACCESSES = 1 << 20 };
/* Seconds the counting run may take before it is stopped. */
#define COUNTS_TIME_LIMIT_S 20.0

/* Lines for the right stage's details: each kernel's sectors per global
 * request and passes per shared request at `at` (the lab's dims), and what
 * a well-formed access takes. Information only. */
void counts_describe(const proto_counts *c, const lab_spec *spec, const lab_case *at, strbuf *out);

#endif
