/* requests.h - building the runner's requests (requests.c). */
#ifndef REQUESTS_H
#define REQUESTS_H

#include "grade.h"

/* One call per case of the list, seeds from label; misalign offsets each
 * buffer by a different multiple of its element size. */
void make_calls(const grade_ctx *g, const lab_case_list *cases, int label,
                int misalign, proto_call *calls);
int write_request(const char *path, const proto_request *req,
                  const proto_call *calls);
/* A request for this lab with the engine's sampling policy. */
void request_init(proto_request *req, const grade_ctx *g, proto_mode mode, int n_calls);
/* calls[0]: the timed size (with the seed of the swaps made between timed
 * calls); calls[1]: the re-check on fresh inputs (the timed size unless the
 * lab names a smaller one); calls[2]: the same inputs again with a few
 * pairs of elements exchanged, made right after calls[1] on the same
 * buffers, so an answer remembered from calls[1] is stale. Seeds from
 * label. */
enum { TIMING_CALLS = 3, SWAPS_AFTER_TIMING = 8 };
void make_timing_calls(const grade_ctx *g, uint64_t label, const lab_case *timed,
                       proto_call calls[TIMING_CALLS]);

#endif
