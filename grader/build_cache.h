/* build_cache.h - a runner built before from the same file, the same way.
 *
 * Building is the slowest step of a grading that stops early, and the same
 * file is often built again unchanged: a student grades it, then times it
 * alone (--fast-only); make test builds every file in its compile part and
 * again in its gradings; a class batch is rerun. A build that passed every
 * rule is kept under the cache folder (make's build/cache), keyed by
 * everything it was made from:
 *   - the submission's bytes and path (the copy the compiler reads starts
 *     with a #line naming it, and the runner's line table keeps the path);
 *   - the lab, the toolchain (nvcc, ptxas, g++), the architecture, the
 *     build limits, the grader's own executable and every trusted object;
 *   - every file the compile read (common/ headers, the toolkit's and the
 *     host compiler's), as the hidden preprocessor pass listed them.
 * A file is identified by device, inode, size and modification time, as
 * make does; any difference is a miss and the file is built afresh.
 * Only successful builds are kept: a rejection or a compiler error is
 * always found again, with its own message.
 *
 * Who can write the cache: the grader, as whoever runs it. Graded code
 * never runs while a file is built, and the runner cannot create or open
 * files once the sandbox is closed (grader/SECURITY.md), so no submission
 * can plant a runner there for another. An entry is written in a folder of
 * its own and renamed into place whole, so gradings side by side never see
 * half of one. The least recently used entries beyond BUILD_CACHE_ENTRIES,
 * or beyond BUILD_CACHE_MB of runners (1.7 to 2.5 MB each), are removed. */
#ifndef BUILD_CACHE_H
#define BUILD_CACHE_H

#include "build.h"
#include "grade.h"
#include "text.h"

enum { BUILD_CACHE_ENTRIES = 400, BUILD_CACHE_MB = 256 };

/* What names a build: the stamp (everything it is made with but the
 * files its compile reads), the source copy's bytes and the entry's folder.
 * Made once, before the build, and used both to look for a kept runner and
 * to keep a new one. usable is 0 with no cache, for a ladder, or when the
 * source cannot be read: fetch then misses and keep does nothing. */
typedef struct {
    int usable;
    const char *cache_dir;
    strbuf stamp;
    char *source;
    size_t source_len;
    char entry[1200];
} build_cache_key;

/* `source` is the copy the compiler will read. */
void build_cache_key_init(build_cache_key *k, const build_config *b, const grade_ctx *g,
                          const char *source);
void build_cache_key_free(build_cache_key *k);

/* A hit: the kept runner is copied to `runner` and what the build told
 * the grading (resources, the allowlist's finding) is restored into g;
 * returns 1. Anything missing, changed or unreadable: 0, and nothing in g
 * has changed. */
int build_cache_fetch(const build_cache_key *k, grade_ctx *g, const char *runner);

/* Keep a successful build: the list of files its compile read (`reads`,
 * make's format) and the runner, under the key's entry. Failures are
 * silent: the cache only ever saves time. */
void build_cache_keep(const build_cache_key *k, const grade_ctx *g, const char *reads,
                      const char *runner);

#endif
