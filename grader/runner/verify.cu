/* verify.cu - what every timed call of the submission computed.
 *
 * The fast stage times the submission on large inputs, hundreds of times.
 * A call the grader only times could skip work, stop early at the timed
 * size, or hand back an answer kept from an earlier call; so after every
 * timed sample, trusted kernels compare the submission's outputs, element
 * by element, with the baseline's outputs for the same inputs in the same
 * round, and fingerprint the inputs to see that the call left them alone.
 *
 * The baseline runs first in each round, so while the submission runs its
 * answer to the very same inputs sits in the grader's buffers, easy to find
 * (cudaPointerGetAttributes tells allocated addresses without a fault) and
 * to copy at the speed of cudaMemcpy. So the baseline's outputs are masked
 * in place, every word XORed with a stream drawn from a key of this run's,
 * from its sample until the comparison: a copy of them is garbage. So is
 * its scratch (block sums of a reduction, say: a few thousand floats that
 * give the answer without reading the input), which holds garbage for the
 * baseline's next call anyway.
 * Outputs are poisoned before every call (call.cu), so an element never
 * written is seen as such, and the submission and the baseline never share
 * an output buffer.
 *
 * The runner only measures: how many elements were left unwritten, how many
 * differ by more than the parent's `agreement`, the first of them and the
 * largest difference seen. The parent judges (grader/fast.c).
 *
 * Float outputs are compared relative to |expected| plus the root mean
 * square of the baseline's output, so an element that is near zero only
 * because its terms cancel is held to the output's scale, not its own.
 * Integer outputs and outputs the lab checks exactly must match bit for bit
 * (any NaN matches any NaN); outputs the lab holds to a number of ulps must
 * lie within twice that of the baseline's (fast_rules.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"
#include "../fast_rules.h"
#include "../ulps.h"

#ifndef CUDA_EMU

enum { V_UNWRITTEN, V_DISAGREE, V_FIRST_KEY, V_WORST_BITS, V_HASH, V_SUMSQ, V_WORDS };
static const unsigned long long NO_KEY = ~0ull;

struct verifier {
    const buffer_set *inputs;
    double agreement;
    cudaStream_t stream;
    unsigned long long *d_acc; /* V_WORDS counters */
    unsigned long long baseline_hash;
    unsigned long long key; /* the baseline's outputs and scratch are masked with it */
    proto_timed_check check;
};

/* Masking and unmasking are one XOR of every word of a buffer. */
__global__ void mask_words(unsigned *words, size_t n, unsigned long long key)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        words[i] ^= (unsigned)runner_mix64(key + i);
}

template <typename T> __device__ static T warp_sum(T v)
{
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

__device__ static unsigned warp_max(unsigned v)
{
    for (int d = 16; d > 0; d /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, d));
    return v;
}

/* A fingerprint of every 32-bit word with its position: any change to any
 * word changes it (but for a 2^-64 chance). */
__global__ void fingerprint(const unsigned *words, size_t n, unsigned long long salt,
                            unsigned long long *acc)
{
    unsigned long long h = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        h += runner_mix64((salt + i) * 0x9e3779b97f4a7c15ull ^ words[i]);
    h = warp_sum(h);
    if ((threadIdx.x & 31) == 0) atomicAdd(&acc[V_HASH], h);
}

template <typename T>
__global__ void sum_squares(const T *x, size_t n, double *acc)
{
    double s = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        double v = (double)x[i];
        if (isfinite(v)) s += v * v;
    }
    s = warp_sum(s);
    if ((threadIdx.x & 31) == 0) atomicAdd(acc, s);
}

/* Ulps between two finite values, as the CPU judge counts them (ulps.h).
 * Integers are compared bit for bit and never ask. */
__device__ static double ordered_distance(float a, float b) { return ulps_between_f32(a, b); }
__device__ static double ordered_distance(double a, double b) { return ulps_between_f64(a, b); }
__device__ static double ordered_distance(unsigned, unsigned) { return 0; }

template <typename T, typename Bits>
__global__ void compare(const T *got, const T *expected, size_t n, Bits poison, int exact,
                        double max_ulps, double agreement, const double *sumsq,
                        unsigned long long key_base, unsigned long long *acc)
{
    double rms = sqrt(*sumsq / (n ? (double)n : 1.0));
    unsigned long long unwritten = 0, disagree = 0, first = NO_KEY;
    float worst = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        T g = got[i], e = expected[i];
        Bits gb, eb;
        memcpy(&gb, &g, sizeof gb);
        memcpy(&eb, &e, sizeof eb);
        int bad;
        if (gb == poison && eb != poison) { /* an answer may be the poison (compare.c) */
            unwritten++;
            bad = 1;
        } else {
            double gd = (double)g, ed = (double)e;
            if (gb == eb || (isnan(gd) && isnan(ed))) {
                bad = 0;
            } else if (exact || !isfinite(gd) || !isfinite(ed)) {
                bad = 1;
            } else {
                double ratio = fabs(gd - ed) / (fabs(ed) + rms);
                bad = max_ulps >= 0 ? !(ordered_distance(g, e) <= max_ulps)
                                    : !(ratio <= agreement);
                if (ratio > worst) worst = isfinite(ratio) ? (float)ratio : 3.0e38f;
            }
            disagree += bad;
        }
        if (bad && key_base + i < first) first = key_base + i;
    }
    unwritten = warp_sum(unwritten);
    disagree = warp_sum(disagree);
    unsigned worst_bits = warp_max(__float_as_uint(worst));
    for (int d = 16; d > 0; d /= 2) first = min(first, __shfl_xor_sync(0xffffffffu, first, d));
    if ((threadIdx.x & 31) != 0) return;
    if (unwritten) atomicAdd(&acc[V_UNWRITTEN], unwritten);
    if (disagree) atomicAdd(&acc[V_DISAGREE], disagree);
    if (first != NO_KEY) atomicMin(&acc[V_FIRST_KEY], first);
    if (worst_bits) atomicMax(&acc[V_WORST_BITS], (unsigned long long)worst_bits);
}

static unsigned blocks_for(size_t n)
{
    size_t b = (n + 255) / 256;
    return (unsigned)(b < 1 ? 1 : b > 2048 ? 2048 : b);
}

static void reset(verifier *v)
{
    unsigned long long init[V_WORDS] = {0, 0, NO_KEY, 0, 0, 0};
    RUNNER_CHECK(cudaMemcpyAsync(v->d_acc, init, sizeof init, cudaMemcpyHostToDevice, v->stream));
}

static unsigned long long inputs_hash(verifier *v)
{
    reset(v);
    for (int b = 0; b < v->inputs->n; b++) {
        const guarded_buffer *g = &v->inputs->buf[b];
        if (g->role != BUF_INPUT || g->bytes < 4) continue;
        size_t words = g->bytes / 4;
        fingerprint<<<blocks_for(words), 256, 0, v->stream>>>(
            (const unsigned *)v->inputs->ptr[b], words, (unsigned long long)b << 40, v->d_acc);
        RUNNER_CHECK(cudaGetLastError());
    }
    unsigned long long acc[V_WORDS];
    RUNNER_CHECK(cudaMemcpyAsync(acc, v->d_acc, sizeof acc, cudaMemcpyDeviceToHost, v->stream));
    RUNNER_CHECK(cudaStreamSynchronize(v->stream));
    return acc[V_HASH];
}

verifier *verify_open(const buffer_set *inputs, double agreement, uint64_t key,
                      cudaStream_t stream)
{
    verifier *v = (verifier *)calloc(1, sizeof *v);
    if (!v) rsp_fatal("out of host memory");
    v->inputs = inputs;
    v->agreement = agreement;
    v->key = key;
    v->stream = stream;
    RUNNER_CHECK(cudaMalloc(&v->d_acc, V_WORDS * sizeof *v->d_acc));
    v->check.first_wrong_round = v->check.first_changed_round = -1;
    v->check.first_buffer = -1;
    v->check.first_index = -1;
    return v;
}

static void mask_answers(verifier *v, const buffer_set *set)
{
    for (int b = 0; b < set->n; b++) {
        const guarded_buffer *g = &set->buf[b];
        if (g->role == BUF_INPUT || g->bytes < 4) continue;
        size_t words = g->bytes / 4;
        unsigned long long key = v->key + ((unsigned long long)b << 48); /* one per buffer */
        mask_words<<<blocks_for(words), 256, 0, v->stream>>>((unsigned *)set->ptr[b], words, key);
        RUNNER_CHECK(cudaGetLastError());
    }
    RUNNER_CHECK(cudaStreamSynchronize(v->stream));
}

void verify_after_baseline(verifier *v, const buffer_set *base)
{
    v->baseline_hash = inputs_hash(v);
    mask_answers(v, base);
}

static int exact_buffer(int b)
{
    lab_elem e = LAB_DEVICE.spec->buffers[b].elem;
    return lab_buffer_tolerance(LAB_DEVICE.spec, b)->kind == TOL_EXACT ||
           (e != ELEM_F32 && e != ELEM_F64);
}

static double element_value(lab_elem e, const unsigned char *p)
{
    switch (e) {
    case ELEM_F32: { float f; memcpy(&f, p, 4); return f; }
    case ELEM_F64: { double d; memcpy(&d, p, 8); return d; }
    case ELEM_I32: { int32_t i; memcpy(&i, p, 4); return i; }
    case ELEM_U32: { uint32_t u; memcpy(&u, p, 4); return u; }
    case ELEM_F16: { uint16_t h; memcpy(&h, p, 2); return lab_f16_to_double(h); }
    }
    return NAN;
}

static void compare_outputs(verifier *v, const buffer_set *sub, const buffer_set *base)
{
    const lab_spec *spec = LAB_DEVICE.spec;
    reset(v);
    for (int b = 0; b < sub->n; b++) {
        const guarded_buffer *g = &sub->buf[b];
        if (g->role != BUF_OUTPUT || g->count == 0) continue;
        size_t n = g->count;
        unsigned blocks = blocks_for(n);
        unsigned long long key = (unsigned long long)b << 56;
        double *sumsq = (double *)&v->d_acc[V_SUMSQ];
        RUNNER_CHECK(cudaMemsetAsync(sumsq, 0, sizeof *sumsq, v->stream));
        int exact = exact_buffer(b);
        double max_ulps = fast_timed_ulps(lab_buffer_tolerance(LAB_DEVICE.spec, b));
        switch (spec->buffers[b].elem) {
        case ELEM_F32:
            sum_squares<<<blocks, 256, 0, v->stream>>>((const float *)base->ptr[b], n, sumsq);
            compare<<<blocks, 256, 0, v->stream>>>((const float *)sub->ptr[b],
                                                   (const float *)base->ptr[b], n,
                                                   (unsigned)proto_poison(ELEM_F32), exact,
                                                   max_ulps, v->agreement, sumsq, key, v->d_acc);
            break;
        case ELEM_F64:
            sum_squares<<<blocks, 256, 0, v->stream>>>((const double *)base->ptr[b], n, sumsq);
            compare<<<blocks, 256, 0, v->stream>>>((const double *)sub->ptr[b],
                                                   (const double *)base->ptr[b], n,
                                                   (unsigned long long)proto_poison(ELEM_F64), exact,
                                                   max_ulps, v->agreement, sumsq, key, v->d_acc);
            break;
        case ELEM_I32:
        case ELEM_U32:
            compare<<<blocks, 256, 0, v->stream>>>((const unsigned *)sub->ptr[b],
                                                   (const unsigned *)base->ptr[b], n,
                                                   (unsigned)proto_poison(ELEM_I32), 1, -1.0,
                                                   v->agreement, sumsq, key, v->d_acc);
            break;
        case ELEM_F16: /* inputs only (lab_spec.h) */
            break;
        }
        RUNNER_CHECK(cudaGetLastError());
    }
}

void verify_after_submission(verifier *v, const buffer_set *sub, const buffer_set *base,
                             int round)
{
    proto_timed_check *c = &v->check;
    c->rounds_checked++;
    mask_answers(v, base); /* unmasked: XOR twice */
    if (inputs_hash(v) != v->baseline_hash) {
        if (c->rounds_inputs_changed++ == 0) c->first_changed_round = round;
    }
    compare_outputs(v, sub, base);
    unsigned long long acc[V_WORDS];
    RUNNER_CHECK(cudaMemcpyAsync(acc, v->d_acc, sizeof acc, cudaMemcpyDeviceToHost, v->stream));
    RUNNER_CHECK(cudaStreamSynchronize(v->stream));
    float worst;
    unsigned worst_bits = (unsigned)acc[V_WORST_BITS];
    memcpy(&worst, &worst_bits, sizeof worst);
    if (worst > c->worst_ratio) c->worst_ratio = worst;
    if (acc[V_UNWRITTEN] == 0 && acc[V_DISAGREE] == 0) return;
    if (c->rounds_wrong++ > 0) return;
    /* The first wrong round: keep its counts and its first bad element. */
    c->first_wrong_round = round;
    c->unwritten = (int64_t)acc[V_UNWRITTEN];
    c->disagreeing = (int64_t)acc[V_DISAGREE];
    int b = (int)(acc[V_FIRST_KEY] >> 56);
    size_t i = (size_t)(acc[V_FIRST_KEY] & ((1ull << 56) - 1));
    c->first_buffer = b;
    c->first_index = (int64_t)i;
    lab_elem e = LAB_DEVICE.spec->buffers[b].elem;
    size_t size = sub->buf[b].elem_size;
    unsigned char got[8], expected[8];
    const uint64_t poison = proto_poison(e);
    /* cudaMemcpyDefault: an output may be pinned host memory (lab_buffer.pinned_host). */
    RUNNER_CHECK(cudaMemcpy(got, (const unsigned char *)sub->ptr[b] + i * size, size,
                            cudaMemcpyDefault));
    RUNNER_CHECK(cudaMemcpy(expected, (const unsigned char *)base->ptr[b] + i * size, size,
                            cudaMemcpyDefault));
    c->first_unwritten = memcmp(got, &poison, size) == 0;
    c->got = element_value(e, got);
    c->expected = element_value(e, expected);
}

int verify_failed(const verifier *v)
{
    return v->check.rounds_wrong > 0 || v->check.rounds_inputs_changed > 0;
}

proto_timed_check verify_counts(const verifier *v) { return v->check; }

void verify_close(verifier *v, proto_timed_check *out)
{
    *out = v->check;
    cudaFree(v->d_acc);
    free(v);
}

#else /* the CPU emulation never times */

struct verifier {
    proto_timed_check check;
};

verifier *verify_open(const buffer_set *, double, uint64_t, cudaStream_t)
{
    verifier *v = (verifier *)calloc(1, sizeof *v);
    if (!v) rsp_fatal("out of host memory");
    return v;
}
void verify_after_baseline(verifier *, const buffer_set *) {}
void verify_after_submission(verifier *, const buffer_set *, const buffer_set *, int) {}
int verify_failed(const verifier *) { return 0; }
proto_timed_check verify_counts(const verifier *v) { return v->check; }
void verify_close(verifier *v, proto_timed_check *out)
{
    *out = v->check;
    free(v);
}

#endif
