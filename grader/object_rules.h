/* object_rules.h - what the compiled submission may define.
 *
 * The runner links the student's object with trusted code, so a name the
 * object makes visible could take the place of the runner's own (fwrite,
 * memcmp, the response writer), and code placed in a constructor would
 * run before the sandbox closes. The object (read with readelf) may
 * define, visible to the linker, only the lab's entry point and its
 * kernels; inline functions and templates the compiler merges (COMDAT)
 * are allowed. Rejected, naming the symbol or section and the rule:
 * any other external definition, an explicit weak or a common one, an
 * indirect function (its resolver runs at load time), and any
 * constructor, destructor or .init code but the CUDA registration nvcc
 * writes itself (in emulation: the compiler's own static initializer).
 *
 * After the checks, obj_hide_all_but_entry() makes every symbol local but
 * the entry point and the C++ inline and template instances the linker
 * merges with other files' copies (C-named ones are rejected), so a
 * kernel or helper cannot bind in place of a trusted name.
 */
#ifndef OBJECT_RULES_H
#define OBJECT_RULES_H

#include <stddef.h>

/* 0 when the object keeps the rules; -1 with one sentence in why. The
 * scratch directory receives readelf's listings. */
int obj_check_definitions(const char *object, const char *entry, int emulated,
                          const char *scratch, char *why, size_t size);

/* objcopy --keep-global-symbols with the list obj_check_definitions left
 * in scratch, in place. 0 on success. */
int obj_hide_all_but_entry(const char *object, const char *scratch);

#endif
