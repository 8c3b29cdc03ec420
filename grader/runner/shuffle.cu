/* shuffle.cu - every input rearranged before every timed round.
 *
 * A submission may keep what it computed and, when it is called again on
 * inputs that are nearly the same, update only what changed: a histogram
 * takes out and puts back the pairs of the few particles that moved, a
 * matrix product adds a rank-one correction for each element that
 * changed. Its answers are always right, and it is fast only on a grader
 * that changes a few elements between timed calls. So before every round
 * each input in device memory is rebuilt from the copy made when timing
 * began, every record in a new place: no element keeps its neighbours,
 * and whatever the previous call kept is of no use for this one.
 *
 * The arrangement changes with every round and buffer and is drawn from
 * the run's seed: blocks of 32 records trade places (b -> a b + c mod the
 * number of blocks), and inside each block the 32 records are sorted by a
 * keyed hash, a fresh order for every block. A warp moves whole 32-record
 * blocks, so the copy runs at nearly the speed of memory, and finding
 * where a record went costs a search per record, not per block. Records
 * keep their fields apart (x with x in (x, y, z, w) records:
 * lab_buffer.fields), so the inputs stay ones the lab's generator could
 * have made; the last, partial block turns by a keyed amount.
 *
 * Rearranging keeps every value, so an output that depends on one input
 * element alone (lab 02's wave of t, lab 08's f(x)) could still be looked
 * up in a table of answers kept by value. So inputs the spec marks
 * (lab_buffer.redrawn_bits) also get their low bits drawn afresh in every
 * round, from the copy's values: a float's low mantissa bits when it is
 * finite and normal, an integer's low bits. Each round's values are then
 * new ones, within a relative 2^-10 or so of values the generator made.
 *
 * Inputs in pinned host memory (lab 12) are left to the pair swaps of
 * buffers_swap: rebuilding them would cross the PCIe bus every round, and
 * a call that must move every byte over that bus anyway gains nothing by
 * remembering.
 */
#include <stdint.h>
#include <string.h>

#include "runner.h"
#include "../rng.h"

enum { BLOCK_RECORDS = 32 };

/* One field of one buffer, for one round. */
typedef struct {
    size_t records, fields, field, full_blocks;
    size_t a, c;          /* the block map: b -> (a b + c) mod full_blocks */
    unsigned long long key;
    size_t tail_turn;     /* the partial block's rotation */
    unsigned long long redraw_mask; /* the low bits drawn afresh; 0: none */
    unsigned long long exponent;    /* a float's exponent bits; 0 for integers */
    unsigned long long redraw_key;
} arrangement;

/* An element with its low bits drawn afresh, if it is an integer or a
 * finite, normal float (zero, subnormals, Inf and NaN stay what they are). */
template <typename T>
__device__ static T with_bits_redrawn(T v, const arrangement &m, size_t r)
{
    unsigned long long bits = (unsigned long long)v, e = bits & m.exponent;
    if (m.exponent != 0 && (e == 0 || e == m.exponent)) return v;
    return (T)(bits ^ (runner_mix64(m.redraw_key ^ r) & m.redraw_mask));
}

/* Thread t makes record t of the field: in a full block, the record whose
 * keyed hash ranks where this lane sits among its block's 32. Every lane
 * of a warp is in the same block or in the tail. */
template <typename T>
__global__ void rearrange(T *to, const T *from, arrangement m)
{
    size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t block = r / BLOCK_RECORDS, source;
    int lane = (int)(r % BLOCK_RECORDS);
    if (block < m.full_blocks) {
        unsigned long long h = runner_mix64(m.key ^ (block * 0x9e3779b97f4a7c15ull) ^ (unsigned)lane);
        int rank = 0;
        for (int other = 0; other < BLOCK_RECORDS; other++) {
            unsigned long long g = __shfl_sync(0xffffffffu, h, other);
            rank += g < h || (g == h && other < lane);
        }
        source = ((m.a * block + m.c) % m.full_blocks) * BLOCK_RECORDS + (size_t)rank;
    } else if (r < m.records) {
        size_t first = m.full_blocks * BLOCK_RECORDS;
        source = first + (r - first + m.tail_turn) % (m.records - first);
    } else {
        return;
    }
    T v = from[source * m.fields + m.field];
    to[r * m.fields + m.field] = m.redraw_mask ? with_bits_redrawn(v, m, r) : v;
}

static size_t gcd(size_t x, size_t y)
{
    while (y) {
        size_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* The bits lab_buffer.redrawn_bits names for an element type, checked:
 * a float keeps its top mantissa bit, an integer its sign or top bit. */
static void redraw_masks(const lab_buffer *spec, arrangement *m)
{
    int most;
    switch (spec->elem) {
    case ELEM_F32: most = 22; m->exponent = 0x7f800000ull; break;
    case ELEM_F64: most = 51; m->exponent = 0x7ff0000000000000ull; break;
    case ELEM_F16: most = 9; m->exponent = 0x7c00ull; break;
    default: most = 31; m->exponent = 0; break;
    }
    if (spec->redrawn_bits < 0 || spec->redrawn_bits > most)
        rsp_fatal("the spec asks for %d redrawn bits of %s; at most %d", spec->redrawn_bits,
                  spec->name, most);
    m->redraw_mask = (1ull << spec->redrawn_bits) - 1;
}

static arrangement arrange(const guarded_buffer *g, const lab_buffer *spec, size_t fields,
                           size_t field, rng_t *r)
{
    arrangement m;
    memset(&m, 0, sizeof m);
    m.fields = fields;
    m.records = g->count / fields;
    m.field = field;
    m.full_blocks = m.records / BLOCK_RECORDS;
    m.key = rng_next(r);
    if (m.full_blocks > 0) {
        m.c = (size_t)(rng_next(r) % m.full_blocks);
        do m.a = (size_t)(rng_next(r) % m.full_blocks) | 1;
        while (gcd(m.a, m.full_blocks) != 1);
    }
    size_t tail = m.records - m.full_blocks * BLOCK_RECORDS;
    m.tail_turn = tail > 1 ? (size_t)(rng_next(r) % tail) : 0;
    if (spec->redrawn_bits != 0) {
        redraw_masks(spec, &m);
        m.redraw_key = rng_next(r);
    }
    return m;
}

template <typename T>
static void launch(void *to, const void *from, const arrangement &m, cudaStream_t stream)
{
    size_t blocks = (m.records + 255) / 256;
    if (blocks == 0) return; /* fewer elements than fields: nothing to move */
    rearrange<T><<<(unsigned)blocks, 256, 0, stream>>>((T *)to, (const T *)from, m);
}

static int shuffled(const guarded_buffer *g)
{
    return g->role == BUF_INPUT && !g->pinned && g->count > 0;
}

void shuffle_open(shuffled_inputs *s, const buffer_set *inputs)
{
    memset(s, 0, sizeof *s);
    for (int b = 0; b < inputs->n; b++) {
        const guarded_buffer *g = &inputs->buf[b];
        const lab_buffer *spec = &LAB_DEVICE.spec->buffers[b];
        if (spec->redrawn_bits != 0 && (g->role != BUF_INPUT || g->pinned))
            rsp_fatal("the spec redraws bits of %s, which is not an input in device memory",
                      spec->name);
        if (!shuffled(g)) continue;
        RUNNER_CHECK(cudaMalloc(&s->origin[b], g->bytes));
        RUNNER_CHECK(cudaMemcpy(s->origin[b], g->device + g->offset, g->bytes,
                                cudaMemcpyDeviceToDevice));
    }
}

void shuffle_round(const shuffled_inputs *s, buffer_set *inputs, uint64_t seed, uint64_t round,
                   cudaStream_t stream)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    for (int b = 0; b < inputs->n; b++) {
        guarded_buffer *g = &inputs->buf[b];
        if (!s->origin[b]) continue;
        rng_t r = rng_seeded(rng_derive(rng_derive(seed, 0x5f1e1dull + (uint64_t)b), round));
        size_t fields = spec->buffers[b].fields > 1 ? (size_t)spec->buffers[b].fields : 1;
        for (size_t f = 0; f < fields; f++) {
            arrangement m = arrange(g, &spec->buffers[b], fields, f, &r);
            void *to = g->device + g->offset;
            switch (g->elem_size) {
            case 1: launch<unsigned char>(to, s->origin[b], m, stream); break;
            case 2: launch<unsigned short>(to, s->origin[b], m, stream); break;
            case 4: launch<unsigned>(to, s->origin[b], m, stream); break;
            case 8: launch<unsigned long long>(to, s->origin[b], m, stream); break;
            default: rsp_fatal("cannot rearrange elements of %zu bytes", g->elem_size);
            }
            RUNNER_CHECK(cudaGetLastError());
        }
    }
    RUNNER_CHECK(cudaStreamSynchronize(stream));
}

void shuffle_close(shuffled_inputs *s)
{
    for (int b = 0; b < LAB_MAX_BUFFERS; b++) cudaFree(s->origin[b]);
    memset(s, 0, sizeof *s);
}
