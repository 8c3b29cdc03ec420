/* store.h - the set of results: results.jsonl and its neighbours.
 *
 * results.jsonl is append-only: one line per finished student, written with
 * one write() and an fsync, so a batch killed at any moment keeps every
 * result it announced. Reading keeps the latest line per student and lab
 * (the largest finished_unix; the later line on a tie) and skips a torn
 * last line instead of giving up on the whole file.
 */
#ifndef CLASS_STORE_H
#define CLASS_STORE_H

#include <stddef.h>

#include "result.h"

typedef struct {
    sr_result *r;
    size_t n, cap;
} sto_set;

void sto_free(sto_set *set);
/* Add, keeping the latest per student and lab; takes r's contents. */
int sto_add(sto_set *set, sr_result *r);
const sr_result *sto_find(const sto_set *set, const char *student, const char *lab);
/* By lab, then student: the order of every report. */
void sto_sort(sto_set *set);

/* A results.jsonl; a missing file is an empty set. *bad counts skipped lines. */
int sto_load_jsonl(const char *path, sto_set *set, int *bad, char *err, size_t err_size);
/* Whatever an instructor points at: a batch folder (its results.jsonl), a
 * folder of grader JSON files (students/), a .jsonl file, or one JSON file
 * (a grader result, or a record); student names a lone grader result. */
int sto_load_any(const char *from, const char *student, sto_set *set, char *err, size_t err_size);

/* Open for appending, first ending a torn last line so the next record
 * starts on a line of its own. Returns an fd or -1. */
int sto_open_append(const char *path, char *err, size_t err_size);
int sto_append(int fd, const sr_result *r);

/* A folder and any of its parents that are missing (mkdir -p); 0 when it is
 * a folder afterwards, else -1 with errno. */
int sto_make_dir(const char *path);

#endif
