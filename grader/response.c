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

int response_read(const char *path, const lab_spec *spec,
                  const proto_call *calls, int n_calls, response *r)
{
    memset(r, 0, sizeof *r);
    r->n_calls = n_calls;
    r->calls = calloc((size_t)n_calls + 1, sizeof *r->calls);
    FILE *f = fopen(path, "rb");
    if (!f) return 0; /* nothing was written: the runner died at once */
    proto_rec_head h;
    while (read_exact(f, &h, sizeof h)) {
        if (h.magic != PROTO_MAGIC) { r->malformed = 1; break; }
        int i = h.call_index;
        if (h.kind == REC_FATAL) {
            r->has_fatal = read_exact(f, &r->fatal, sizeof r->fatal);
            break;
        }
        if (h.kind == REC_TIMING) {
            if (!read_exact(f, &r->timing, sizeof r->timing) ||
                r->timing.n_items > PROTO_MAX_ITEMS || r->timing.n_rounds < 0) {
                r->malformed = 1;
                break;
            }
            size_t n = (size_t)r->timing.n_items * (size_t)r->timing.n_rounds;
            r->samples = malloc(n * sizeof(double) + 1);
            if (!read_exact(f, r->samples, n * sizeof(double))) break;
            r->has_timing = 1;
            continue;
        }
        if (i < 0 || i >= n_calls) { r->malformed = 1; break; }
        call_record *c = &r->calls[i];
        if (h.kind == REC_BEGIN) { c->begun = 1; continue; }
        if (h.kind != REC_RESULT || !read_exact(f, &c->result, sizeof c->result)) {
            r->malformed = h.kind != REC_RESULT;
            break;
        }
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
