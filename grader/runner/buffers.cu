/* buffers.cu - the buffers a call gets, and what became of them.
 *
 * Layout of every allocation (offsets in bytes), LAYOUT_GUARDED:
 *
 *   [ guard words | misalignment | the buffer | guard words ]
 *   ^ cudaMalloc      ^ PROTO_GUARD_BYTES        ^ offset + bytes
 *
 * Writing past either end changes guard bytes, which the runner finds when
 * it copies the whole allocation back. LAYOUT_EXACT drops both guards, so
 * the allocation ends where the buffer does and compute-sanitizer sees any
 * access past it.
 */
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "../rng.h"
#include "../swaps.h"

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

static void allocate_host(guarded_buffer *g)
{
    g->host = (unsigned char *)malloc(g->alloc_bytes);
    g->pristine = g->role == BUF_INPUT ? (unsigned char *)malloc(g->bytes + 1) : NULL;
    g->early = g->pinned && g->role == BUF_OUTPUT ? (unsigned char *)malloc(g->bytes + 1) : NULL;
    if (!g->host || (g->role == BUF_INPUT && !g->pristine) ||
        (g->pinned && g->role == BUF_OUTPUT && !g->early))
        rsp_fatal("out of host memory for %zu bytes", g->alloc_bytes);
    g->owned = 1;
}

static void allocate_device(guarded_buffer *g)
{
    if (g->pinned)
        RUNNER_CHECK(cudaHostAlloc((void **)&g->device, g->alloc_bytes,
                                   cudaHostAllocPortable | cudaHostAllocMapped));
    else
        RUNNER_CHECK(cudaMalloc((void **)&g->device, g->alloc_bytes));
}

/* bytes at `at` of the allocation from host memory `src`. */
static void to_allocation(guarded_buffer *g, size_t at, const void *src, size_t bytes)
{
    if (g->pinned)
        memcpy(g->device + at, src, bytes);
    else
        RUNNER_CHECK(cudaMemcpy(g->device + at, src, bytes, cudaMemcpyHostToDevice));
}

/* Lay out every buffer of the call, in host memory and (on_device) on the
 * GPU; with `inputs`, take its input buffers instead of allocating them. */
static void create(buffer_set *set, const proto_call *call, proto_layout layout,
                   const buffer_set *inputs, int on_device)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    memset(set, 0, sizeof *set);
    set->n = spec->n_buffers;
    size_t guard = layout == LAYOUT_EXACT ? 0 : PROTO_GUARD_BYTES;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (inputs && spec->buffers[b].role == BUF_INPUT) {
            *g = inputs->buf[b];
            g->owned = 0;
            set->ptr[b] = inputs->ptr[b];
            continue;
        }
        g->role = spec->buffers[b].role;
        g->pinned = spec->buffers[b].pinned_host;
        g->elem_size = lab_elem_size(spec->buffers[b].elem);
        g->count = spec->buffer_count(b, call->c.dims);
        g->bytes = g->count * g->elem_size;
        g->offset = guard + (size_t)call->misalign_bytes[b];
        g->guard_word = proto_guard_word(call->seed, b);
        /* An exact allocation of nothing still gets one byte, so the
         * pointer is not NULL and any access to it is out of bounds. */
        g->alloc_bytes = layout == LAYOUT_EXACT
                             ? (g->offset + g->bytes > 0 ? g->offset + g->bytes : 1)
                             : round_up(g->offset + g->bytes + guard, 256);
        allocate_host(g);
        if (on_device) {
            allocate_device(g);
            set->ptr[b] = g->device + g->offset;
        }
    }
}

void buffers_create(buffer_set *set, const proto_call *call, proto_layout layout)
{
    create(set, call, layout, NULL, 1);
}


/* Fresh contents in host memory for every buffer the set owns: inputs
 * (generated, or the ones generated before: `again`), poisoned outputs,
 * garbage scratch, guard bytes all around. */
static void fill_host(buffer_set *set, const proto_call *call, int again)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (!g->owned) continue; /* another set's input: filled there */
        unsigned char *data = g->host + g->offset;
        /* The guards in front of the data and behind it; the data is
         * written below. */
        for (size_t i = 0; i < g->offset; i++) g->host[i] = proto_guard_byte(g->guard_word, i);
        for (size_t i = g->offset + g->bytes; i < g->alloc_bytes; i++)
            g->host[i] = proto_guard_byte(g->guard_word, i);
        if (g->role == BUF_INPUT && again) {
            memcpy(data, g->pristine, g->bytes);
        } else if (g->role == BUF_INPUT) {
            proto_make_input(spec, b, call, data, g->count);
            memcpy(g->pristine, data, g->bytes);
        } else if (g->role == BUF_SCRATCH) {
            rng_t r = rng_seeded(rng_derive(call->seed, (uint64_t)b));
            for (size_t i = 0; i < g->bytes; i += 8) {
                uint64_t garbage = rng_next(&r);
                memcpy(data + i, &garbage, g->bytes - i < 8 ? g->bytes - i : 8);
            }
        } else {
            uint64_t poison = proto_poison(spec->buffers[b].elem);
            for (size_t i = 0; i < g->count; i++)
                memcpy(data + g->elem_size * i, &poison, g->elem_size);
        }
    }
}

static void upload(buffer_set *set)
{
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->owned) to_allocation(g, 0, g->host, g->alloc_bytes);
    }
}

void buffers_fill(buffer_set *set, const proto_call *call)
{
    fill_host(set, call, 0);
    upload(set);
}

void buffers_refill(buffer_set *set, const proto_call *call)
{
    fill_host(set, call, 1);
    upload(set);
}

void buffers_prepare(buffer_set *set, const buffer_set *inputs, const proto_call *call)
{
    create(set, call, LAYOUT_GUARDED, inputs, 0);
    fill_host(set, call, 0);
}

void buffers_to_device(buffer_set *set, const buffer_set *inputs)
{
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->owned) {
            allocate_device(g);
            set->ptr[b] = g->device + g->offset;
        } else { /* the owner is on the device now: take its pointers again */
            *g = inputs->buf[b];
            g->owned = 0;
            set->ptr[b] = inputs->ptr[b];
        }
    }
    upload(set);
}

/* Element `at` of the buffer on the device, from `src` (elem_size bytes). */
static void upload_element(guarded_buffer *g, size_t at, const void *src)
{
    to_allocation(g, g->offset + at * g->elem_size, src, g->elem_size);
}

void buffers_swap(buffer_set *set, uint64_t seed, uint64_t k)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (g->role != BUF_INPUT || !g->pinned) continue; /* device inputs: shuffle.cu */
        swap_pair p = swap_pick(seed, b, k, g->count, spec->buffers[b].fields);
        if (p.i == p.j) continue;
        swap_exchange(g->pristine, p, g->elem_size);
        upload_element(g, p.i, g->pristine + p.i * g->elem_size);
        upload_element(g, p.j, g->pristine + p.j * g->elem_size);
    }
}

static int is_float_input(const guarded_buffer *g, lab_elem e)
{
    return g->role == BUF_INPUT && (e == ELEM_F32 || e == ELEM_F64);
}

static void upload_value(guarded_buffer *g, lab_elem e, size_t at, double value)
{
    float f = (float)value;
    upload_element(g, at, e == ELEM_F32 ? (const void *)&f : (const void *)&value);
}

void buffers_spike(buffer_set *set, double spike, uint64_t seed, uint64_t k, size_t at[2])
{
    const lab_spec *spec = LAB_DEVICE.spec;
    size_t count = (size_t)-1;
    int last = -1;
    for (int b = 0; b < set->n; b++)
        if (is_float_input(&set->buf[b], spec->buffers[b].elem)) {
            if (set->buf[b].count < count) count = set->buf[b].count;
            last = b;
        }
    at[0] = at[1] = 0;
    if (last < 0 || count < 2) return;
    rng_t r = rng_seeded(rng_derive(rng_derive(seed, 0x5b1cec0ffeeull), k));
    at[0] = (size_t)(rng_next(&r) % count);
    at[1] = (size_t)(rng_next(&r) % (count - 1));
    if (at[1] >= at[0]) at[1]++;
    for (int b = 0; b <= last; b++) {
        lab_elem e = spec->buffers[b].elem;
        if (!is_float_input(&set->buf[b], e)) continue;
        upload_value(&set->buf[b], e, at[0], spike);
        upload_value(&set->buf[b], e, at[1], b == last ? -spike : spike);
    }
}

void buffers_unspike(buffer_set *set, const size_t at[2])
{
    const lab_spec *spec = LAB_DEVICE.spec;
    if (at[0] == at[1]) return;
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (!is_float_input(g, spec->buffers[b].elem)) continue;
        for (int e = 0; e < 2; e++) upload_element(g, at[e], g->pristine + at[e] * g->elem_size);
    }
}

/* Outputs get their poison again before every call (call.cu): an element
 * a call skips keeps the poison, never an answer from an earlier call. */
__global__ void poison_fill(unsigned *words, size_t n, unsigned a, unsigned b)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        words[i] = (i & 1) ? b : a;
}

void buffers_poison_outputs(const buffer_set *set, cudaStream_t stream)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < set->n; b++) {
        const guarded_buffer *g = &set->buf[b];
        if (g->role != BUF_OUTPUT || g->count == 0) continue;
        uint64_t poison = proto_poison(spec->buffers[b].elem);
        unsigned lo = (unsigned)poison, hi = g->elem_size == 8 ? (unsigned)(poison >> 32) : lo;
        size_t words = g->bytes / 4;
        unsigned blocks = (unsigned)((words + 255) / 256 < 1024 ? (words + 255) / 256 : 1024);
        poison_fill<<<blocks, 256, 0, stream>>>((unsigned *)set->ptr[b], words, lo, hi);
        RUNNER_CHECK(cudaGetLastError());
    }
}

void buffers_destroy(buffer_set *set)
{
    for (int b = 0; b < set->n; b++) {
        if (!set->buf[b].owned) continue;
        if (set->buf[b].pinned)
            cudaFreeHost(set->buf[b].device);
        else
            cudaFree(set->buf[b].device);
        free(set->buf[b].host);
        free(set->buf[b].pristine);
        free(set->buf[b].early);
    }
    memset(set, 0, sizeof *set);
}

/* First byte in [from, to) of the allocation that is not guard, relative
 * to from; -1 when all are intact. */
static int64_t first_not_guard(const guarded_buffer *g, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (g->host[i] != proto_guard_byte(g->guard_word, i)) return (int64_t)(i - from);
    return -1;
}

void buffers_snapshot(buffer_set *set)
{
    for (int b = 0; b < set->n; b++) {
        guarded_buffer *g = &set->buf[b];
        if (!g->early) continue;
        memcpy(g->early, g->device + g->offset, g->bytes);
        g->early_taken = 1;
    }
}

/* A pinned output: the elements that differ between the snapshot and now
 * (the host image); then the snapshot takes their place there, so the
 * outputs judged are the ones the call's stream left. */
static void late_writes(guarded_buffer *g, proto_buffer_report *r)
{
    r->late_first = -1;
    r->late_count = 0;
    if (!g->early || !g->early_taken) return;
    unsigned char *now = g->host + g->offset;
    for (size_t i = 0; i < g->count; i++) {
        if (memcmp(now + i * g->elem_size, g->early + i * g->elem_size, g->elem_size) == 0)
            continue;
        if (r->late_first < 0) r->late_first = (int64_t)i;
        r->late_count++;
    }
    memcpy(now, g->early, g->bytes);
    g->early_taken = 0;
}

/* Copy a buffer back and note guard damage, changed input elements and
 * late writes. */
void buffers_inspect(guarded_buffer *g, proto_buffer_report *r)
{
    if (g->pinned)
        memcpy(g->host, g->device, g->alloc_bytes);
    else
        RUNNER_CHECK(cudaMemcpy(g->host, g->device, g->alloc_bytes, cudaMemcpyDeviceToHost));
    late_writes(g, r);
    /* The guard before: bytes [0, offset), the misalignment gap included,
     * reported as the distance of the nearest written byte in front of the
     * buffer, so 1 means "the byte just in front". */
    r->guard_before = -1;
    for (size_t i = g->offset; i-- > 0;)
        if (g->host[i] != proto_guard_byte(g->guard_word, i)) {
            r->guard_before = (int64_t)(g->offset - i);
            break;
        }
    r->guard_after = first_not_guard(g, g->offset + g->bytes, g->alloc_bytes);
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

