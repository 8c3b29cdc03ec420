/* requests.c - what the runner is asked to do: the calls of a stage (their
 * cases, seeds, misalignment and swaps) and the request file around them.
 * Every stage builds its requests here; see requests.h.
 */
#include <stdio.h>
#include <string.h>

#include "requests.h"
#include "rng.h"

/* The seed of one call's inputs. With an instructor's secret mixed in, a
 * keyed one-way hash: the runner sees this seed, and student code shares
 * the runner's process, so it must not lead back to the secret. */
static uint64_t call_seed(const grade_ctx *g, uint64_t label)
{
    return g->hidden_seed ? rng_keyed(g->seed, label) : rng_derive(g->seed, label);
}

void make_calls(const grade_ctx *g, const lab_case_list *cases, int label,
                int misalign, proto_call *calls)
{
    const lab_spec *spec = g->spec;
    for (int i = 0; i < cases->n; i++) {
        proto_call *c = &calls[i];
        memset(c, 0, sizeof *c);
        c->c = cases->list[i];
        c->seed = call_seed(g, (uint64_t)label * 1000 + (uint64_t)i);
        if (!misalign) continue;
        /* Each buffer off by a different multiple of its element size, so a
         * kernel that checks the alignment of only one pointer is caught. */
        for (int b = 0; b < spec->n_buffers; b++) {
            int elem = (int)lab_elem_size(spec->buffers[b].elem);
            int steps = 16 / elem;
            c->misalign_bytes[b] = ((i + b + 1) % steps) * elem;
        }
    }
}

void request_init(proto_request *req, const grade_ctx *g, proto_mode mode, int n_calls)
{
    memset(req, 0, sizeof *req);
    req->magic = PROTO_MAGIC;
    req->version = PROTO_VERSION;
    req->mode = mode;
    req->n_calls = n_calls;
    snprintf(req->lab_id, sizeof req->lab_id, "%s", g->spec->id);
    /* The sampling policy (README.md, How grading works): at least 10 rounds,
     * until every median's relative standard error is under 0.5%, or a
     * cap. */
    req->min_rounds = 10;
    req->max_rounds = 2000;
    req->target_rse = 0.005;
    req->max_seconds = 20;
}

void make_timing_calls(const grade_ctx *g, uint64_t label, const lab_case *timed,
                       proto_call calls[TIMING_CALLS])
{
    const lab_spec *spec = g->spec;
    memset(calls, 0, TIMING_CALLS * sizeof *calls);
    calls[0].c = *timed;
    calls[0].seed = call_seed(g, label);
    calls[0].swap_seed = call_seed(g, label + 3000); /* between timed calls */
    calls[1].c = lab_case_given(&spec->fast.recheck) ? spec->fast.recheck : *timed;
    calls[1].seed = call_seed(g, label + 1000); /* fresh inputs */
    calls[2] = calls[1];
    calls[2].swap_seed = call_seed(g, label + 2000);
    calls[2].n_swaps = SWAPS_AFTER_TIMING;
}

int write_request(const char *path, const proto_request *req,
                  const proto_call *calls)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(req, sizeof *req, 1, f) == 1 &&
             fwrite(calls, sizeof *calls, (size_t)req->n_calls, f) == (size_t)req->n_calls;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

