/* placement.h - where a timed call sits on the lab's ladder.
 *
 * Each lab's ladder (labs/NN-name/solution/ladder.cu) was timed rung by rung on
 * a GPU at the fast stage's own size, and the figures are kept with the
 * lab's slides (labs/NN-name/slides/ladder.json, written by `make ladder`). On
 * the same GPU model, a submission's time per call places it among those
 * rungs: "between v4_register_tiles and v5_double_buffered", and the next
 * rung is the next idea to try. On another GPU the figures do not apply,
 * and the report says so instead.
 */
#ifndef PLACEMENT_H
#define PLACEMENT_H

#include <stddef.h>

enum { PLACEMENT_MAX_RUNGS = 32 };

typedef struct {
    char device[128]; /* the GPU the ladder was timed on */
    int n;
    struct {
        char name[64];
        double ms;
    } rung[PLACEMENT_MAX_RUNGS]; /* as the file lists them */
} ladder_times;

/* Reads a ladder result file. Returns 0, or -1 when it is missing or does
 * not hold a device and at least one rung with its time. */
int ladder_times_read(const char *path, ladder_times *t);

/* One line for the report: where a call of ms milliseconds, timed on
 * device, sits among the rungs, and the next rung to reach. Rungs named
 * after a vendor library ("vendor_...", "cub_...") are shown as marks but
 * never proposed as the next step. */
void ladder_place(const ladder_times *t, const char *device, double ms, char *out, size_t size);

#endif
