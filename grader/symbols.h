/* symbols.h - what the compiled submission may call.
 *
 * The student's object file is read with nm before it is linked: every
 * function it calls from outside must be on an allowlist (the CUDA runtime,
 * the C++ support the compiler itself emits, the C math library, memory and
 * printf), it may not define main, and it may not use a library the lab
 * forbids (CUB in the reduction lab, cuBLAS in the matrix lab). That keeps
 * files, processes, threads, clocks and the device reset out of graded
 * code, whatever the source looks like.
 */
#ifndef SYMBOLS_H
#define SYMBOLS_H

#include <stddef.h>

#include "lab_spec.h"

typedef enum { SYM_OK, SYM_REJECTED, SYM_NOT_CHECKED } sym_verdict;

/* One symbol from `nm -C`: its type letter and demangled name. Returns the
 * reason it is not allowed (a static string) or NULL when it is. */
const char *sym_judge(char type, const char *name, int emulated,
                      const lab_forbidden *forbidden, int n_forbidden);

/* The reason for a symbol that is simply not on the allowlist. */
extern const char SYM_NOT_LISTED[];

/* Check an object file. For the CPU emulation, emu_library is the
 * emulation's runtime, whose functions are allowed too; NULL for nvcc's
 * objects. On SYM_REJECTED, why holds the symbol and the reason;
 * SYM_NOT_CHECKED when nm could not be run (why says so). */
sym_verdict sym_check_object(const char *object, const char *scratch,
                             const char *emu_library, const lab_spec *spec, char *why,
                             size_t size);

#endif
