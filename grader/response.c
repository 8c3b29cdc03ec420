/* response.c - read back the records the runner appended.
 *
 * The file may end anywhere (a crash, a kill at the time limit); whatever
 * was complete is kept, and a call that began but never finished is the one
 * the student's code was running when it stopped.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "grade.h"
#include "response.h"
#include "stats.h"

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

static int a_time(double ms) { return ms >= 0 && ms < 1e9; }

/* One sample sent as it was measured: for a timing that was asked for,
 * once each. */
static int read_sample(FILE *f, response *r)
{
    proto_sample s;
    if (!read_exact(f, &s, sizeof s)) return 0;
    if (r->max_rounds <= 0 || s.item < 0 || s.item >= PROTO_MAX_ITEMS || s.round < 0 ||
        s.round >= r->max_rounds || !a_time(s.ms) || !a_time(s.straggle_ms)) {
        mark_malformed(r, "a timing sample that is not one of the timing asked for");
        return 0;
    }
    if (!r->streamed) {
        size_t n = (size_t)PROTO_MAX_ITEMS * (size_t)r->max_rounds;
        r->streamed = calloc(n, sizeof *r->streamed);
        r->sent = calloc(n, 1);
        if (!r->streamed || !r->sent) return 0;
    }
    size_t k = (size_t)s.item * (size_t)r->max_rounds + (size_t)s.round;
    if (r->sent[k]) {
        mark_malformed(r, "a timing sample sent twice");
        return 0;
    }
    r->sent[k] = 1;
    r->streamed[k] = s;
    return 1;
}

/* The summary at the end of a timing against the samples sent while it
 * ran (protocol.h, REC_SAMPLE): every sample the same, the check's counts
 * the same, and each item's straggle the median of what was sent. */
static int matches_what_was_sent(response *r)
{
    proto_timing *t = &r->timing;
    const proto_timed_check *c = &t->check;
    int checked = 0, wrong = 0, changed = 0, first_wrong = -1, first_changed = -1;
    double *straggles = malloc(((size_t)t->n_rounds + 1) * sizeof *straggles);
    if (!straggles) return 0;
    int same = 1;
    for (int i = 0; same && i < t->n_items; i++) {
        for (int k = 0; same && k < t->n_rounds; k++) {
            size_t at = (size_t)i * (size_t)r->max_rounds + (size_t)k;
            const proto_sample *s = &r->streamed[at];
            same = r->sent[at] && s->ms == r->samples[(size_t)i * t->n_rounds + k];
            straggles[k] = s->straggle_ms;
            if (!s->checked) continue;
            checked++;
            if (s->wrong && wrong++ == 0) first_wrong = k;
            if (s->inputs_changed && changed++ == 0) first_changed = k;
        }
        if (same) t->straggle_ms[i] = stats_median(straggles, (size_t)t->n_rounds);
    }
    free(straggles);
    /* A sample sent for a round or an item the summary leaves out. */
    for (size_t at = 0; same && at < (size_t)PROTO_MAX_ITEMS * r->max_rounds; at++)
        if (r->sent[at] && ((int)(at / r->max_rounds) >= t->n_items ||
                            (int)(at % r->max_rounds) >= t->n_rounds))
            same = 0;
    return same && checked == c->rounds_checked && wrong == c->rounds_wrong &&
           changed == c->rounds_inputs_changed && (wrong == 0 || first_wrong == c->first_wrong_round) &&
           (changed == 0 || first_changed == c->first_changed_round);
}

/* The timing record and its samples: counts within what was asked, every
 * sample a finite time, and all of it what was sent as it was measured. */
static int read_timing(FILE *f, const lab_spec *spec, const int64_t *dims, int max_rounds,
                       response *r)
{
    if (r->has_timing) { mark_malformed(r, "a second timing record"); return 0; }
    if (!read_exact(f, &r->timing, sizeof r->timing)) return 0;
    proto_timing *t = &r->timing;
    if (t->n_items < 0 || t->n_items > PROTO_MAX_ITEMS || t->n_rounds < 0 ||
        t->n_rounds > max_rounds || t->n_parts < 0 || t->first_part < 0 ||
        (t->n_parts > 0 && (t->first_part < 1 || t->first_part + t->n_parts > t->n_items))) {
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
        if (!a_time(r->samples[i])) {
            mark_malformed(r, "a timing sample that is not a time");
            return 0;
        }
    if (n && (!r->streamed || !matches_what_was_sent(r))) {
        mark_malformed(r, "a timing that differs from the samples sent as they were measured");
        return 0;
    }
    r->has_timing = 1;
    return 1;
}

/* The memory counts: one record, after every call, counts that can be
 * (requests no more than bytes, units no fewer than requests when any),
 * names terminated. Information only: they never reach a verdict. */
static int read_counts(FILE *f, response *r)
{
    if (r->has_counts) { mark_malformed(r, "a second record of memory counts"); return 0; }
    if (!read_exact(f, &r->counts, sizeof r->counts)) return 0;
    proto_counts *c = &r->counts;
    int ok = c->n_kernels >= 0 && c->n_kernels <= PROTO_MAX_KERNELS && c->more_kernels >= 0;
    for (int k = 0; ok && k < c->n_kernels; k++) {
        TERMINATE(c->kernel[k].name);
        for (int i = 0; i < PROTO_ACCESS_KINDS; i++)
            ok = ok && c->kernel[k].requests[i] <= c->kernel[k].bytes[i] &&
                 c->kernel[k].units[i] >= c->kernel[k].requests[i];
    }
    if (!ok) { mark_malformed(r, "memory counts that cannot be"); return 0; }
    r->has_counts = 1;
    return 1;
}

int response_read(const char *path, const lab_spec *spec, const proto_call *calls, int n_calls,
                  int max_rounds, response *r)
{
    memset(r, 0, sizeof *r);
    r->n_calls = n_calls;
    r->max_rounds = max_rounds;
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
        if (h.kind == REC_SAMPLE) {
            if (!read_sample(f, r)) break;
            continue;
        }
        if (h.kind == REC_COUNTS) {
            if (!read_counts(f, r)) break;
            continue;
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

int response_started(const char *path)
{
    struct stat file;
    return stat(path, &file) == 0 && file.st_size > 0;
}

int response_calls_done(const char *path, const lab_spec *spec, const proto_call *calls,
                        int n_calls)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    struct stat file; /* what was written by now: the rest waits for the next look */
    int done = 0;
    proto_rec_head h;
    proto_result res;
    if (fstat(fileno(f), &file) != 0) n_calls = 0;
    while (done < n_calls && read_exact(f, &h, sizeof h) && h.magic == PROTO_MAGIC) {
        if (h.kind == REC_BEGIN) continue;
        if (h.kind != REC_RESULT || h.call_index != done || !read_exact(f, &res, sizeof res))
            break;
        /* its outputs, when all of them have been written */
        off_t end = ftello(f) + (res.outputs_follow ? (off_t)outputs_bytes(spec, calls[done].c.dims)
                                                    : 0);
        if (end > file.st_size || fseeko(f, end, SEEK_SET) != 0) break;
        done++;
    }
    fclose(f);
    return done;
}

void response_free(response *r)
{
    for (int i = 0; i < r->n_calls; i++) free(r->calls[i].outputs);
    free(r->calls);
    free(r->samples);
    free(r->streamed);
    free(r->sent);
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
