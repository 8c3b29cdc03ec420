/* source_rules.h - what a submission's source may be and may read.
 *
 * Checked before the compile whose messages the student sees, so nothing
 * outside what a student may include ever reaches a report (a compiler
 * error quotes the lines it could not parse). Each check returns 0 when
 * the file keeps the rule, or -1 with one sentence in why.
 */
#ifndef SOURCE_RULES_H
#define SOURCE_RULES_H

#include <stddef.h>

enum { SRC_MAX_BYTES = 4 << 20, SRC_MAX_ROOTS = 24 };

/* A text file of at most SRC_MAX_BYTES, with no #line directive (or GNU
 * linemarker), which would make its lines appear to come from elsewhere. */
int src_check_text(const char *path, char *why, size_t size);

/* Directories a submission may include from; paths are resolved
 * (realpath), so ../ and symbolic links lead nowhere else. */
typedef struct {
    int n;
    char dir[SRC_MAX_ROOTS][512];
} src_roots;

void src_roots_add(src_roots *r, const char *dir);
/* The host compiler's own search list (`CXX -E -v`), read through log. */
void src_roots_add_compiler(src_roots *r, const char *cxx, const char *log);

/* A dependency list as `-M` writes it (target: file file \ ...): every
 * file must be `source` itself (or the `original` its #line names) or lie
 * under one of the roots, and none may
 * belong to a forbidden library (header_hints[i], e.g. "/cub/", names
 * libraries[i]). */
int src_check_dependencies(const char *deps_path, const char *source, const char *original,
                           const src_roots *roots,
                           const char *const *header_hints, const char *const *libraries,
                           int n_libraries, char *why, size_t size);

/* Preprocessed host code (linemarkers kept, device bodies inside #if 0 as
 * cudafe writes them): in lines of the student's own file (the one named
 * `source_name` in the markers), no asm statement and no name the
 * compiler keeps for itself (_GLOBAL__...). */
int src_check_host_code(const char *preprocessed, const char *source_name, char *why,
                       size_t size);

#endif
