/* shuffle_test.cu - the fast stage's rearranging of inputs before every
 * timed round (grader/runner/shuffle.cu), run in the CPU emulation: each
 * field of each buffer must come back as the same elements in another
 * order (nothing lost, nothing doubled), with hardly any element where it
 * was, a new order in every round, and the fields of a record from
 * different records. Prints one line per case: PASS name, or FAIL name:
 * what was seen.
 *
 * Built by tests/run.sh with common/emu/emucc, beside shuffle.cu.
 */
#include <algorithm>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "../../grader/runner/runner.h"

static lab_spec spec;
extern "C" const lab_device LAB_DEVICE = {&spec, NULL, NULL, NULL, NULL, 0};

static int failures;

static void report(const char *name, bool ok, const char *format, ...)
{
    if (ok) {
        printf("PASS shuffle/%s\n", name);
        return;
    }
    failures++;
    printf("FAIL shuffle/%s: ", name);
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    printf("\n");
}

void rsp_fatal(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    printf("FAIL shuffle/runner: ");
    vprintf(fmt, args);
    printf("\n");
    va_end(args);
    exit(1);
}

/* A buffer of `count` 32-bit elements numbered 0, 1, 2 ..., so every
 * element names the place it started from. */
static guarded_buffer numbered(size_t count)
{
    guarded_buffer g;
    memset(&g, 0, sizeof g);
    g.role = BUF_INPUT;
    g.elem_size = sizeof(unsigned);
    g.count = count;
    g.bytes = count * sizeof(unsigned);
    std::vector<unsigned> start(count);
    for (size_t i = 0; i < count; i++) start[i] = (unsigned)i;
    if (cudaMalloc(&g.device, g.bytes + 1) != cudaSuccess) rsp_fatal("cudaMalloc");
    cudaMemcpy(g.device, start.data(), g.bytes, cudaMemcpyHostToDevice);
    return g;
}

static std::vector<unsigned> contents(const guarded_buffer &g)
{
    std::vector<unsigned> now(g.count);
    cudaMemcpy(now.data(), g.device, g.bytes, cudaMemcpyDeviceToHost);
    return now;
}

/* One buffer of `records` records of `fields` fields, through three
 * rounds: one line per property, for all three. */
static void one_buffer(const char *name, size_t records, int fields)
{
    size_t f = fields > 1 ? (size_t)fields : 1, count = records * f;
    spec.n_buffers = 1;
    spec.buffers[0].role = BUF_INPUT;
    spec.buffers[0].fields = fields;
    buffer_set set;
    memset(&set, 0, sizeof set);
    set.n = 1;
    set.buf[0] = numbered(count);
    shuffled_inputs s;
    shuffle_open(&s, &set);
    std::vector<unsigned> last;
    /* Blocks trade places and the 32 places of a block are drawn afresh,
     * so about 1 in 32 elements stays put by chance; a buffer under 64
     * records is mostly its partial block, which only turns. */
    size_t allowed = records >= 64 ? count / 8 : count;
    char kept[160] = "", moved[160] = "", apart[160] = "", mixed[160] = "";
    for (int round = 0; round < 3; round++) {
        shuffle_round(&s, &set, 0x5eedull, (uint64_t)round, 0);
        std::vector<unsigned> now = contents(set.buf[0]);
        std::vector<unsigned> sorted = now;
        std::sort(sorted.begin(), sorted.end());
        size_t lost = 0, other_field = 0, stayed = 0, as_before = 0, neighbours = 0, together = 0;
        for (size_t i = 0; i < count; i++) {
            lost += sorted[i] != i;
            other_field += now[i] % f != i % f;
            stayed += now[i] == i;
            as_before += !last.empty() && now[i] == last[i];
            neighbours += i + f < count && now[i + f] == now[i] + f;
        }
        for (size_t r = 0; f > 1 && r < records; r++) together += now[r * f] / f == now[r * f + 1] / f;
        if ((lost || other_field) && !kept[0])
            snprintf(kept, sizeof kept, "round %d: %zu elements lost or doubled, %zu in another field",
                     round, lost, other_field);
        if ((stayed > allowed || as_before > allowed) && !moved[0])
            snprintf(moved, sizeof moved, "round %d: %zu of %zu in their first place, %zu where the "
                     "round before had them", round, stayed, count, as_before);
        if (records >= 64 && neighbours > allowed && !apart[0])
            snprintf(apart, sizeof apart, "round %d: %zu of %zu still beside their neighbour", round,
                     neighbours, count);
        if (records >= 64 && together > records / 8 && !mixed[0])
            snprintf(mixed, sizeof mixed, "round %d: %zu of %zu records kept x and y together", round,
                     together, records);
        last = now;
    }
    shuffle_close(&s);
    cudaFree(set.buf[0].device);
    char what[160];
    snprintf(what, sizeof what, "%s_keeps_every_element_in_its_field", name);
    report(what, !kept[0], "%s", kept);
    snprintf(what, sizeof what, "%s_moves_nearly_every_element_every_round", name);
    report(what, !moved[0], "%s", moved);
    if (records < 64) return;
    snprintf(what, sizeof what, "%s_parts_neighbours", name);
    report(what, !apart[0], "%s", apart);
    if (f < 2) return;
    snprintf(what, sizeof what, "%s_rearranges_each_field_its_own_way", name);
    report(what, !mixed[0], "%s", mixed);
}

/* A buffer of 32-bit elements whose bits are given, on the device. */
static guarded_buffer holding(const std::vector<unsigned> &start)
{
    guarded_buffer g = numbered(start.size());
    cudaMemcpy(g.device, start.data(), g.bytes, cudaMemcpyHostToDevice);
    return g;
}

/* An input of `elem` with `bits` low bits redrawn (lab_buffer.redrawn_bits),
 * through three rounds: above the redrawn bits every element must be one
 * of the start's, in its field's multiset; nearly every element that may
 * change must get new low bits, and new ones each round; a float's zeros,
 * subnormals, infinities and NaNs must come back bit for bit. */
static void redrawn(const char *name, lab_elem elem, int bits)
{
    const size_t count = 4096;
    const unsigned keep = ~((1u << bits) - 1);
    const bool is_float = elem == ELEM_F32;
    std::vector<unsigned> start(count);
    for (size_t i = 0; i < count; i++) {
        unsigned h = (unsigned)(i * 2654435761u) ^ (unsigned)(i >> 3);
        static const unsigned special[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                           0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fc00001u};
        if (is_float)
            start[i] = i % 16 == 0 ? special[(i / 16) % 8] : (h & 0x807fffffu) | ((1 + h % 250) << 23);
        else
            start[i] = h;
    }
    spec.n_buffers = 1;
    spec.buffers[0].role = BUF_INPUT;
    spec.buffers[0].elem = elem;
    spec.buffers[0].fields = 0;
    spec.buffers[0].redrawn_bits = bits;
    buffer_set set;
    memset(&set, 0, sizeof set);
    set.n = 1;
    set.buf[0] = holding(start);
    shuffled_inputs s;
    shuffle_open(&s, &set);
    std::vector<unsigned> high(count), specials;
    size_t may_change = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned e = start[i] & 0x7f800000u;
        bool fixed = is_float && (e == 0 || e == 0x7f800000u);
        high[i] = fixed ? start[i] : start[i] & keep;
        if (fixed) specials.push_back(start[i]);
        may_change += !fixed;
    }
    std::sort(high.begin(), high.end());
    std::sort(specials.begin(), specials.end());
    std::vector<unsigned> first;
    char kept[160] = "", fresh[160] = "";
    for (int round = 0; round < 3; round++) {
        shuffle_round(&s, &set, 0x5eedull, (uint64_t)round, 0);
        std::vector<unsigned> now = contents(set.buf[0]), now_high(count), now_specials;
        for (size_t i = 0; i < count; i++) {
            unsigned e = now[i] & 0x7f800000u;
            bool fixed = is_float && (e == 0 || e == 0x7f800000u);
            now_high[i] = fixed ? now[i] : now[i] & keep;
            if (fixed) now_specials.push_back(now[i]);
        }
        std::sort(now_high.begin(), now_high.end());
        std::sort(now_specials.begin(), now_specials.end());
        if ((now_high != high || now_specials != specials) && !kept[0])
            snprintf(kept, sizeof kept, "round %d: the bits above the low %d are not the start's "
                     "(or a special value changed)", round, bits);
        std::vector<unsigned> values = now, seen = start, before = first;
        std::sort(values.begin(), values.end());
        std::sort(seen.begin(), seen.end());
        std::sort(before.begin(), before.end());
        size_t old_values = 0, last_values = 0;
        for (unsigned v : values) {
            old_values += std::binary_search(seen.begin(), seen.end(), v);
            last_values += !before.empty() && std::binary_search(before.begin(), before.end(), v);
        }
        size_t allowed = (count - may_change) + may_change / 16;
        if ((old_values > allowed || last_values > allowed) && !fresh[0])
            snprintf(fresh, sizeof fresh, "round %d: %zu of %zu values were in the start, %zu in "
                     "the round before", round, old_values, count, last_values);
        if (round == 0) first = now;
    }
    shuffle_close(&s);
    cudaFree(set.buf[0].device);
    spec.buffers[0].redrawn_bits = 0;
    char what[160];
    snprintf(what, sizeof what, "%s_keeps_every_value_above_the_redrawn_bits", name);
    report(what, !kept[0], "%s", kept);
    snprintf(what, sizeof what, "%s_draws_new_values_every_round", name);
    report(what, !fresh[0], "%s", fresh);
}

int main(void)
{
    redrawn("float_12_bits", ELEM_F32, 12);
    redrawn("int_12_bits", ELEM_I32, 12);

    one_buffer("1000_plain", 1000, 0); /* 31 blocks and a tail of 8 */
    one_buffer("4096_plain", 4096, 1);
    one_buffer("777_records_of_4", 777, 4);
    one_buffer("31_plain", 31, 0);     /* a tail alone */
    one_buffer("1_plain", 1, 0);
    return failures ? 1 : 0;
}
