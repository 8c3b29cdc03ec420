/* swaps.h - small, unpredictable changes to a call's inputs, made the same
 * way by the runner (on the GPU's buffers) and the judge (before its CPU
 * reference; protocol.h's proto_make_input), so both agree on every
 * exchanged pair.
 *
 * A submission could remember an answer and hand it back when it is called
 * again on "the same" inputs, recognised by their pointers, by a few
 * sampled values, or by a hash of all of them. The fast stage defeats all
 * three: before every timed call it rearranges every input in device
 * memory (grader/runner/shuffle.cu) and exchanges one pair of elements in
 * every input in pinned host memory, so no two timed calls see the same
 * inputs and a hash never hits; after timing it checks twice on one set of
 * buffers, fresh inputs and then the same inputs with a few pairs
 * exchanged, where an answer kept from the first call is stale.
 *
 * Only elements of the same field trade places (x with x in an array of
 * (x, y, z, w) records; lab_buffer.fields), so the inputs stay ones the
 * lab's generator could have made.
 */
#ifndef SWAPS_H
#define SWAPS_H

#include <stddef.h>
#include <string.h>

#include "rng.h"

typedef struct {
    size_t i, j; /* element indices; equal when the buffer is too small */
} swap_pair;

/* The k-th pair of buffer b for this seed. */
static inline swap_pair swap_pick(uint64_t seed, int b, uint64_t k, size_t count, int fields)
{
    swap_pair p = {0, 0};
    size_t f = fields > 1 ? (size_t)fields : 1;
    size_t records = count / f;
    if (records < 2) return p;
    rng_t r = rng_seeded(rng_derive(rng_derive(seed, (uint64_t)b), k));
    size_t field = (size_t)(rng_next(&r) % f);
    p.i = (size_t)(rng_next(&r) % records) * f + field;
    p.j = (size_t)(rng_next(&r) % records) * f + field;
    return p;
}

static inline void swap_exchange(unsigned char *data, swap_pair p, size_t elem_size)
{
    unsigned char tmp[16];
    if (p.i == p.j || elem_size > sizeof tmp) return;
    memcpy(tmp, data + p.i * elem_size, elem_size);
    memcpy(data + p.i * elem_size, data + p.j * elem_size, elem_size);
    memcpy(data + p.j * elem_size, tmp, elem_size);
}

/* Pairs 0 .. n-1 of buffer b, in order. */
static inline void swaps_apply(unsigned char *data, size_t count, size_t elem_size,
                               int fields, uint64_t seed, int b, int n)
{
    for (int k = 0; k < n; k++)
        swap_exchange(data, swap_pick(seed, b, (uint64_t)k, count, fields), elem_size);
}

#endif
