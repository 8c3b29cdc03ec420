/* buffers.cu - guarded, poisoned buffers and one reported call.
 *
 * Layout of every allocation (offsets in bytes):
 *
 *   [ guard words | misalignment | the buffer | guard words ]
 *   ^ cudaMalloc      ^ PROTO_GUARD_BYTES        ^ offset + bytes
 *
 * Writing past either end changes guard bytes, which the runner finds when
 * it copies the whole allocation back.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "../rng.h"
#include "../swaps.h"

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

void buffers_create(buffer_set *set, const proto_call *call)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    memset(set, 0, sizeof *set);
    set->n = spec->n_buffers;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        g->role = spec->buffers[b].role;
        g->elem_size = lab_elem_size(spec->buffers[b].elem);
        g->count = spec->buffer_count(b, call->c.dims);
        g->bytes = g->count * g->elem_size;
        g->offset = PROTO_GUARD_BYTES + (size_t)call->misalign_bytes[b];
        g->alloc_bytes = round_up(g->offset + g->bytes + PROTO_GUARD_BYTES, 256);
        g->host = (unsigned char *)malloc(g->alloc_bytes);
        g->pristine = g->role == BUF_INPUT ? (unsigned char *)malloc(g->bytes + 1)
                                           : NULL;
        if (!g->host || (g->role == BUF_INPUT && !g->pristine))
            rsp_fatal("out of host memory for %zu bytes", g->alloc_bytes);
        RUNNER_CHECK(cudaMalloc((void **)&g->device, g->alloc_bytes));
        set->ptr[b] = g->device + g->offset;
    }
}

/* Fresh contents for every buffer: generated inputs, poisoned outputs,
 * garbage scratch, guard bytes all around. */
void buffers_fill(buffer_set *set, const proto_call *call)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        unsigned char *data = g->host + g->offset;
        for (size_t i = 0; i < g->alloc_bytes; i++) g->host[i] = proto_guard_byte(i);
        if (g->role == BUF_INPUT) {
            proto_make_input(spec, b, call, data, g->count);
            memcpy(g->pristine, data, g->bytes);
        } else if (g->role == BUF_SCRATCH) {
            rng_t r = rng_seeded(rng_derive(call->seed, (uint64_t)b));
            for (size_t i = 0; i < g->bytes; i++) data[i] = (unsigned char)rng_next(&r);
        } else {
            lab_elem e = spec->buffers[b].elem;
            uint64_t p64 = PROTO_POISON_F64;
            uint32_t p32 = e == ELEM_F32 ? PROTO_POISON_F32 : PROTO_POISON_I32;
            for (size_t i = 0; i < g->count; i++) {
                if (g->elem_size == 8) memcpy(data + 8 * i, &p64, 8);
                else memcpy(data + 4 * i, &p32, 4);
            }
        }
        RUNNER_CHECK(cudaMemcpy(g->device, g->host, g->alloc_bytes,
                                cudaMemcpyHostToDevice));
    }
}

void buffers_swap(buffer_set *set, uint64_t seed, uint64_t k)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->role != BUF_INPUT) continue;
        swap_pair p = swap_pick(seed, b, k, g->count, spec->buffers[b].fields);
        if (p.i == p.j) continue;
        swap_exchange(g->pristine, p, g->elem_size);
        size_t at[2] = {p.i, p.j};
        for (int e = 0; e < 2; e++)
            RUNNER_CHECK(cudaMemcpy(g->device + g->offset + at[e] * g->elem_size,
                                    g->pristine + at[e] * g->elem_size, g->elem_size,
                                    cudaMemcpyHostToDevice));
    }
}

void buffers_destroy(buffer_set *set)
{
    for (int b = 0; b < set->n; b++) {
        cudaFree(set->buf[b].device);
        free(set->buf[b].host);
        free(set->buf[b].pristine);
    }
    memset(set, 0, sizeof *set);
}

/* First byte in [from, to) of the allocation that is not guard, relative
 * to from; -1 when all are intact. */
static int64_t first_not_guard(const unsigned char *host, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (host[i] != proto_guard_byte(i)) return (int64_t)(i - from);
    return -1;
}

/* Copy a buffer back and note guard damage and changed input elements. */
static void inspect(guarded_buffer *g, proto_buffer_report *r)
{
    RUNNER_CHECK(cudaMemcpy(g->host, g->device, g->alloc_bytes,
                            cudaMemcpyDeviceToHost));
    /* The guard before: bytes [0, offset), the misalignment gap included,
     * reported as the distance of the nearest written byte in front of the
     * buffer, so 1 means "the byte just in front". */
    r->guard_before = -1;
    for (size_t i = g->offset; i-- > 0;)
        if (g->host[i] != proto_guard_byte(i)) {
            r->guard_before = (int64_t)(g->offset - i);
            break;
        }
    r->guard_after = first_not_guard(g->host, g->offset + g->bytes, g->alloc_bytes);
    r->changed_first = -1;
    r->changed_count = 0;
    if (g->role != BUF_INPUT) return;
    const unsigned char *now = g->host + g->offset;
    for (size_t i = 0; i < g->count; i++) {
        if (memcmp(now + i * g->elem_size, g->pristine + i * g->elem_size,
                   g->elem_size) == 0)
            continue;
        if (r->changed_first < 0) r->changed_first = (int64_t)i;
        r->changed_count++;
    }
}

/* Holding back the legacy default stream.
 *
 * The grader's stream is non-blocking, so work a submission puts on the
 * default stream (a cudaMemset, a launch without a stream) is not ordered
 * with the work on its own stream. On an idle GPU a small memset queued
 * first almost always runs first anyway, and the bug would go unseen. Before
 * every checked call the runner therefore parks the default stream for a
 * few milliseconds (a host function that sleeps; it holds no GPU
 * resources), as a busy program might: work put there then runs late, and a
 * result that depended on it comes out wrong. Correct code never waits for
 * it. Timed calls are never held. The CPU emulation runs every stream in
 * order, so there is nothing to hold. (First written for lab 05, whose
 * result must be zeroed on the right stream.) */
#ifndef CUDA_EMU
static void CUDART_CB hold_default_stream(void *)
{
    struct timespec t = {0, 5 * 1000 * 1000};
    while (nanosleep(&t, &t) != 0) {
    }
}
#endif

static void name_error(char *dst, cudaError_t e)
{
    snprintf(dst, PROTO_NAME_LEN, "%s", cudaGetErrorName(e));
}

int call_and_report(buffer_set *set, const proto_call *call, int index,
                    cudaStream_t stream, lab_call_fn fn)
{
    proto_result res;
    memset(&res, 0, sizeof res);
    RUNNER_CHECK(cudaDeviceSynchronize());
#ifndef CUDA_EMU
    RUNNER_CHECK(cudaLaunchHostFunc(cudaStreamLegacy, hold_default_stream, NULL));
#endif
    rsp_write(REC_BEGIN, index, NULL, 0, NULL, 0);

    cudaError_t entry = (cudaError_t)fn(set->ptr, call->c.dims, (void *)stream);
    cudaError_t sync = cudaStreamSynchronize(stream);
    /* Work the student put on another stream must be finished too. */
    cudaError_t dev = cudaDeviceSynchronize();
    if (sync == cudaSuccess) sync = dev;
    cudaError_t last = cudaGetLastError();
    /* A sticky error (a kernel fault) survives cudaGetLastError(). */
    res.sticky = cudaPeekAtLastError() != cudaSuccess ||
                 cudaDeviceSynchronize() != cudaSuccess;

    res.entry_status = entry;
    res.sync_status = sync;
    res.last_status = last;
    name_error(res.entry_name, entry);
    name_error(res.sync_name, sync);
    name_error(res.last_name, last);
    snprintf(res.sync_text, sizeof res.sync_text, "%s", cudaGetErrorString(sync));
    for (int b = 0; b < LAB_MAX_BUFFERS; b++)
        res.buf[b].guard_before = res.buf[b].guard_after =
            res.buf[b].changed_first = -1;

    if (res.sticky) {
        rsp_write(REC_RESULT, index, &res, sizeof res, NULL, 0);
        return 0;
    }
    size_t out_bytes = 0;
    for (int b = 0; b < set->n; b++) {
        inspect(&set->buf[b], &res.buf[b]);
        if (set->buf[b].role == BUF_OUTPUT) out_bytes += set->buf[b].bytes;
    }
    /* Outputs travel packed, in buffer order. */
    unsigned char *outputs = (unsigned char *)malloc(out_bytes + 1);
    if (!outputs) rsp_fatal("out of host memory for %zu bytes", out_bytes);
    size_t at = 0;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->role != BUF_OUTPUT) continue;
        memcpy(outputs + at, g->host + g->offset, g->bytes);
        at += g->bytes;
    }
    res.outputs_follow = 1;
    rsp_write(REC_RESULT, index, &res, sizeof res, outputs, out_bytes);
    free(outputs);
    return 1;
}
