/* response.c - read back the records the runner appended.
 *
 * The file may end anywhere (a crash, a kill at the time limit); whatever
 * was complete is kept, and a call that began but never finished is the one
 * the student's code was running when it stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade.h"
#include "response.h"

static int read_exact(FILE *f, void *dst, size_t n)
{
    return n == 0 || fread(dst, n, 1, f) == 1;
}

/* Bytes of outputs that follow a result, from the lab's buffer sizes. */
static size_t outputs_bytes(const lab_spec *spec, const int64_t *dims)
{
    size_t total = 0;
    for (int b = 0; b < spec->n_buffers; b++)
        if (spec->buffers[b].role == BUF_OUTPUT)
            total += spec->buffer_count(b, dims) *
                     lab_elem_size(spec->buffers[b].elem);
    return total;
}

/* Strings from the other side end inside their arrays, whatever was sent. */
#define TERMINATE(a) ((a)[sizeof(a) - 1] = 0)

static void mark_malformed(response *r, const char *why)
{
    if (!r->malformed) snprintf(r->malformed_why, sizeof r->malformed_why, "%s", why);
    r->malformed = 1;
}

/* The timing record and its samples: counts within what was asked, every
 * sample a finite time. */
static int read_timing(FILE *f, const lab_spec *spec, const int64_t *dims, int max_rounds,
                       response *r)
{
    if (r->has_timing) { mark_malformed(r, "a second timing record"); return 0; }
    if (!read_exact(f, &r->timing, sizeof r->timing)) return 0;
    proto_timing *t = &r->timing;
    if (t->n_items < 0 || t->n_items > PROTO_MAX_ITEMS || t->n_rounds < 0 ||
        t->n_rounds > max_rounds) {
        mark_malformed(r, "a timing record with impossible counts");
        return 0;
    }
    for (int i = 0; i < PROTO_MAX_ITEMS; i++) TERMINATE(t->item_names[i]);
    const proto_timed_check *c = &t->check;
    if (c->rounds_checked < 0 || c->rounds_checked > t->n_rounds || c->rounds_wrong < 0 ||
        c->rounds_wrong > c->rounds_checked || c->rounds_inputs_changed < 0 ||
        c->rounds_inputs_changed > c->rounds_checked ||
        (c->rounds_wrong > 0 &&
         (c->first_buffer < 0 || c->first_buffer >= spec->n_buffers ||
          spec->buffers[c->first_buffer].role != BUF_OUTPUT || c->first_index < 0 ||
          (size_t)c->first_index >= spec->buffer_count(c->first_buffer, dims)))) {
        mark_malformed(r, "a timing record whose check does not add up");
        return 0;
    }
    size_t n = (size_t)t->n_items * (size_t)t->n_rounds;
    r->samples = malloc(n * sizeof(double) + 1);
    if (!r->samples || !read_exact(f, r->samples, n * sizeof(double))) return 0;
    for (size_t i = 0; i < n; i++)
        if (!(r->samples[i] >= 0 && r->samples[i] < 1e9)) {
            mark_malformed(r, "a timing sample that is not a time");
            return 0;
        }
    r->has_timing = 1;
    return 1;
}

int response_read(const char *path, const lab_spec *spec, const proto_call *calls, int n_calls,
                  int max_rounds, response *r)
{
    memset(r, 0, sizeof *r);
    r->n_calls = n_calls;
    r->calls = calloc((size_t)n_calls + 1, sizeof *r->calls);
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* nothing was written: the runner died at once */
    proto_rec_head h;
    while (read_exact(f, &h, sizeof h)) {
        if (h.magic != PROTO_MAGIC) { mark_malformed(r, "a record without the magic number"); break; }
        int i = h.call_index;
        if (h.kind == REC_FATAL) {
            r->has_fatal = read_exact(f, &r->fatal, sizeof r->fatal);
            TERMINATE(r->fatal.message);
            break;
        }
        if (h.kind == REC_TIMING) {
            /* calls[0] is the timed call in both timing modes */
            if (n_calls < 1 || !read_timing(f, spec, calls[0].c.dims, max_rounds, r)) break;
            continue;
        }
        if (i < 0 || i >= n_calls) { mark_malformed(r, "a record for a call never asked for"); break; }
        call_record *c = &r->calls[i];
        if (h.kind == REC_BEGIN) {
            if (c->begun) { mark_malformed(r, "a call begun twice"); break; }
            c->begun = 1;
            continue;
        }
        if (h.kind != REC_RESULT) { mark_malformed(r, "a record of an unknown kind"); break; }
        if (!c->begun || c->finished) { mark_malformed(r, "a result out of order"); break; }
        if (!read_exact(f, &c->result, sizeof c->result)) break;
        TERMINATE(c->result.entry_name);
        TERMINATE(c->result.sync_name);
        TERMINATE(c->result.last_name);
        TERMINATE(c->result.sync_text);
        if (c->result.outputs_follow) {
            c->outputs_bytes = outputs_bytes(spec, calls[i].c.dims);
            c->outputs = malloc(c->outputs_bytes + 1);
            if (!c->outputs || !read_exact(f, c->outputs, c->outputs_bytes)) break;
        }
        c->finished = 1;
    }
    fclose(f);
    return 1;
}

void response_free(response *r)
{
    for (int i = 0; i < r->n_calls; i++) free(r->calls[i].outputs);
    free(r->calls);
    free(r->samples);
    memset(r, 0, sizeof *r);
}

int response_malformed(const response *r, stage_result *st)
{
    if (!r->malformed) return 0;
    st->status = ST_ERROR;
    st->malformed = 1;
    snprintf(st->summary, sizeof st->summary, "error: malformed runner record (%s)",
             r->malformed_why);
    sb_printf(&st->details, "hint: only the grader's runner writes these records; a submission "
                            "that writes into the grader's files is rejected\n");
    return 1;
}
