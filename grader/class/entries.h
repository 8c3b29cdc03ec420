/* entries.h - the students in a submissions folder, and the lab's file.
 *
 * Each entry of the folder is one student: alice.cu (any name ending .cu)
 * or a folder bob/ that holds the lab's student file somewhere inside (its
 * top, or labs/NN-name/ in a clone of the workbook; the shallowest wins).
 * Hidden entries and other files are not students. The list is sorted by
 * name, so chunk i of a Slurm array is the same students on every node.
 */
#ifndef CLASS_ENTRIES_H
#define CLASS_ENTRIES_H

#include <stddef.h>

typedef enum { ENT_OK, ENT_MISSING, ENT_DUPLICATE } ent_kind;

typedef struct {
    char name[256];
    char path[4096]; /* absolute path of the file to grade; "" unless ENT_OK */
    ent_kind kind;
    char why[512];   /* for ENT_MISSING and ENT_DUPLICATE */
} ent_entry;

/* "1", "01", "01-vector-add" or "vector-add" -> "01-vector-add" (lab_find),
 * whose folder must be in root/labs. */
int ent_lab_id(const char *root, const char *lab, char *out, size_t size, char *err, size_t err_size);
/* The .cu file a student edits, as the lab's spec names it. */
int ent_student_file(const char *root, const char *lab_id, char *out, size_t size, char *err,
                     size_t err_size);

/* Every student in dir, sorted; the caller frees *out. */
int ent_scan(const char *dir, const char *student_file, ent_entry **out, size_t *n, char *err,
             size_t err_size);

#endif
