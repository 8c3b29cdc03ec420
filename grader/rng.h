/* rng.h - the seeded generator behind every input.
 *
 * splitmix64: tiny, fast, and the same sequence on every machine, so the
 * parent (which computes the reference) and the runner (which feeds the GPU)
 * draw identical inputs from the same seed without sending them across.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>
#include <string.h>

typedef struct { uint64_t state; } rng_t;

static inline rng_t rng_seeded(uint64_t seed) { rng_t r = {seed}; return r; }

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A new independent seed from a seed and a label (stage, call, buffer). */
static inline uint64_t rng_derive(uint64_t seed, uint64_t label)
{
    rng_t r = rng_seeded(seed ^ (label * 0xd1b54a32d192ed03ull));
    rng_next(&r);
    return rng_next(&r);
}

/* A keyed one-way mix (SipHash-2-4 of the label under the key): unlike
 * rng_derive, its output does not give the key back, so seeds handed to the
 * runner (which shares a process with student code) reveal nothing about
 * the instructor's secret behind the key. */
static inline uint64_t rng_rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }
static inline uint64_t rng_keyed(uint64_t key, uint64_t label)
{
    uint64_t k0 = key, k1 = key ^ 0x2f0b5e8a1c3d4967ull;
    uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull,
             v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
    uint64_t words[2] = {label, (uint64_t)8 << 56};
    for (int w = 0; w < 2; w++) {
        v3 ^= words[w];
        for (int r = 0; r < 2; r++) {
            v0 += v1; v1 = rng_rotl(v1, 13); v1 ^= v0; v0 = rng_rotl(v0, 32);
            v2 += v3; v3 = rng_rotl(v3, 16); v3 ^= v2;
            v0 += v3; v3 = rng_rotl(v3, 21); v3 ^= v0;
            v2 += v1; v1 = rng_rotl(v1, 17); v1 ^= v2; v2 = rng_rotl(v2, 32);
        }
        v0 ^= words[w];
    }
    v2 ^= 0xff;
    for (int r = 0; r < 4; r++) {
        v0 += v1; v1 = rng_rotl(v1, 13); v1 ^= v0; v0 = rng_rotl(v0, 32);
        v2 += v3; v3 = rng_rotl(v3, 16); v3 ^= v2;
        v0 += v3; v3 = rng_rotl(v3, 21); v3 ^= v0;
        v2 += v1; v1 = rng_rotl(v1, 17); v1 ^= v2; v2 = rng_rotl(v2, 32);
    }
    return v0 ^ v1 ^ v2 ^ v3;
}

/* Uniform in [0, 1) with 24 random bits: exactly representable as float. */
static inline double rng_unit(rng_t *r)
{
    return (double)(rng_next(r) >> 40) * (1.0 / 16777216.0);
}

/* Uniform float in [lo, hi). */
static inline float rng_float(rng_t *r, float lo, float hi)
{
    return (float)(lo + (hi - lo) * rng_unit(r));
}

static inline uint32_t rng_below(rng_t *r, uint32_t n)
{
    return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

static inline float rng_bits_to_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* FNV-1a over n bytes, going on from h (the first time RNG_FNV_BASIS): a
 * fingerprint of a text or a file, not a secret by itself. */
#define RNG_FNV_BASIS 0xcbf29ce484222325ull
static inline uint64_t rng_fnv1a(uint64_t h, const void *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)bytes)[i]) * 0x100000001b3ull;
    return h;
}

#endif
