/* placement.h - where a timed call sits on the lab's ladder.
 *
 * Each lab's ladder (labs/NN-name/solution/ladder.cu) was timed rung by rung on
 * a GPU at the fast stage's own size, and the figures are kept with the
 * lab's slides (labs/NN-name/slides/ladder.json, written by `make ladder`,
 * and one file per other GPU model timed, ladder_model_file). On
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

/* The name of the ladder file for one GPU model: "ladder-" and the
 * device's name in lower case, each run of other characters than letters
 * and digits one '-', then ".json" ("NVIDIA H200" gives
 * ladder-nvidia-h200.json). */
void ladder_model_file(const char *device, char *out, size_t size);

/* The lab's ladder as timed on device: slides_dir/<ladder_model_file>
 * when there is one timed on that model, else slides_dir/ladder.json (the
 * figures the slides and the README show, which may be another model's:
 * ladder_place then says so). Returns as ladder_times_read. */
int ladder_times_for(const char *slides_dir, const char *device, ladder_times *t);

/* One line for the report: where a call of ms milliseconds, timed on
 * device, sits among the rungs, and the next rung to reach. Rungs named
 * after a vendor library ("vendor_...", "cub_...") are shown as marks but
 * never proposed as the next step. */
void ladder_place(const ladder_times *t, const char *device, double ms, char *out, size_t size);

#endif
