/* response.h - the runner's records as the parent reads them (response.c). */
#ifndef RESPONSE_H
#define RESPONSE_H

#include "grade.h"

/* One call's outcome as read from the response file. */
typedef struct {
    int begun, finished;
    proto_result result;
    unsigned char *outputs; /* packed output buffers, or NULL */
    size_t outputs_bytes;
} call_record;

typedef struct {
    int n_calls;
    call_record *calls;
    int has_timing;
    proto_timing timing;
    double *samples; /* timing.n_items x timing.n_rounds, item-major */
    /* REC_SAMPLE records as they came, PROTO_MAX_ITEMS x max_rounds,
     * item-major; sent[k] tells which arrived. */
    proto_sample *streamed;
    unsigned char *sent;
    int max_rounds;
    int has_fatal;
    proto_fatal fatal;
    int has_counts; /* REC_COUNTS: memory counts, information only */
    proto_counts counts;
    int malformed; /* a record no honest runner writes; see malformed_why */
    char malformed_why[96];
} response;

/* response.c: every count and string bounds-checked; a record no honest
 * runner writes sets malformed, and reading stops there. */
int response_read(const char *path, const lab_spec *spec,
                  const proto_call *calls, int n_calls, int max_rounds, response *r);
/* How many calls, from the first, have their results in the file so far
 * (only the records' heads are read): the grader watches a run with it. */
int response_calls_done(const char *path, const lab_spec *spec, const proto_call *calls,
                        int n_calls);
/* Whether the runner has written anything to its response yet: its first
 * call's beginning, or the reason it could not go on. */
int response_started(const char *path);
/* Fill the stage for a malformed response: "error: malformed runner
 * record", which makes the grade exit 2. Returns 1 if it was malformed. */
int response_malformed(const response *r, stage_result *st);
void response_free(response *r);

#endif
