/* spec.c - lab 10, exclusive prefix scan, as data. Trusted: students do not
 * edit it.
 *
 * out[0] = 0 and out[i] = in[0] + in[1] + ... + in[i-1], all modulo 2^32
 * (unsigned arithmetic). Integer addition is associative, so every order of
 * adding gives the same bits: the comparison is exact, and the lesson is
 * the algorithm (work efficiency, the hierarchy of block sums, the order in
 * which tiles publish their sums), never rounding.
 */
#include "counters.h"
#include "lab_spec.h"
#include "rng.h"

/* The buffers, in the order of the entry point's parameters. */
enum { SC_IN, SC_OUT, SC_SCRATCH };

/* in and out hold n words; the contract promises n + 4096 words of
 * scratch (room for block sums of every level, look-back flags, or a
 * library's temporary storage). */
static size_t sc_count(int buf, const int64_t *dims)
{
    return buf == SC_SCRATCH ? (size_t)dims[0] + 4096 : (size_t)dims[0];
}

/* Input families (variant_names below). The typical values are small
 * (0..255) so that a student can read a failure by hand, and never all
 * zeros; the others are the adversarial ones: every prefix wraps past
 * 2^32, nothing to add, sums that go up and down by one. The runner
 * fills d_scratch with random words before every call, so a kernel that trusts it to start at
 * zero (a flag, a counter, an atomicAdd target) is caught. */
static void sc_generate(int buf, const lab_case *c, uint64_t seed, void *host, size_t count)
{
    (void)buf; /* the only input */
    uint32_t *x = host;
    rng_t r = rng_seeded(seed);
    for (size_t i = 0; i < count; i++) {
        switch (c->variant) {
        case 1: x[i] = 0xFFFFFFFFu; break;                      /* out[i] = -i mod 2^32 */
        case 2: x[i] = 0; break;                                /* out is all zeros */
        case 3: x[i] = (i % 2) ? 0xFFFFFFFFu : 1u; break;       /* out: 0 1 0 1 ... */
        case 4: x[i] = (uint32_t)(rng_next(&r) >> 32); break;   /* any 32-bit value */
        default: x[i] = rng_below(&r, 256);
        }
    }
}

/* The CPU reference: a serial exclusive scan in uint32_t, which wraps
 * modulo 2^32 exactly as the GPU's unsigned adds do. Every value fits a
 * double exactly. */
static void sc_reference(const lab_case *c, const void *const *inputs, lab_expect *out)
{
    const uint32_t *x = inputs[SC_IN];
    uint32_t run = 0;
    for (int64_t i = 0; i < c->dims[0]; i++) {
        out[SC_OUT].value[i] = (double)run;
        run += x[i];
    }
}

/* The fewest bytes a call must move: read in once, write out once. The
 * roofline compares this with the same-run copy bandwidth. */
static double sc_bytes(const int64_t *dims)
{
    return 2.0 * sizeof(uint32_t) * (double)dims[0];
}

const lab_spec LAB_10_SCAN = {
    .id = "10-scan",
    .title = "exclusive prefix scan",
    .student_file = "scan.cu",
    .entry = "exclusive_scan",
    .signature = "cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n, "
                 "unsigned *d_scratch, cudaStream_t stream)",
    .n_dims = 1,
    .dim_names = {"n"},
    .shrink_dims = 1u << 0,
    .n_buffers = 3,
    .buffers = {
        {"d_in", BUF_INPUT, ELEM_U32},
        {"d_out", BUF_OUTPUT, ELEM_U32},
        {"d_scratch", BUF_SCRATCH, ELEM_U32},
    },
    .variant_names = {"small values 0..255", "all 0xFFFFFFFF (every prefix wraps)",
                      "all zeros", "alternating 1 and 0xFFFFFFFF",
                      "any 32-bit value"},
    .buffer_count = sc_count,
    .generate = sc_generate,
    .reference = sc_reference,
    .tolerance = {
        .kind = TOL_EXACT,
        .why = "unsigned addition modulo 2^32 is associative, so every order of adding "
               "gives the same bits: every element must match",
    },
    /* work: friendly sizes, multiples of 1024 (every block size divides
     * them); 65536 needs a second level of block sums for blocks of 256,
     * and 2^22 for blocks of up to 2048 elements. */
    .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 22}}),
    /* right: empty, one element, sizes just below and above a warp, a
     * block (256, 1024) and a tile (4096), primes, sizes that need a
     * second level of block sums (above 256 x 256 and 1024 x 1024) and a
     * third (above 256^3), each adversarial family. */
    .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {2}, .variant = 1},
                       {.dims = {31}}, {.dims = {33}, .variant = 3},
                       {.dims = {255}, .variant = 1}, {.dims = {257}},
                       {.dims = {1000}, .variant = 4}, {.dims = {1023}, .variant = 2},
                       {.dims = {1025}, .variant = 1}, {.dims = {4095}, .variant = 3},
                       {.dims = {4097}}, {.dims = {65537}, .variant = 1},
                       {.dims = {100003}, .variant = 4}, {.dims = {(1 << 20) + 1}, .variant = 3},
                       {.dims = {(1 << 22) + 3}, .variant = 1},
                       {.dims = {(1 << 24) + 5}, .variant = 4}),
    /* Small sizes for compute-sanitizer, which is slow; 70001 needs a
     * second level of block sums for blocks of 256. */
    .sanitize = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {33}, .variant = 1},
                          {.dims = {1000}, .variant = 4}, {.dims = {4097}, .variant = 3},
                          {.dims = {70001}}),
    /* The CPU emulation runs every CUDA thread as a fiber on one core: the
     * same odd sizes and families without the 2^24 one, so that the right
     * stage stays near 10 s there for one thread per element (the
     * reference takes under 2 s). 65537 and 100003 still need a second
     * level of block sums for blocks of 256, (1 << 20) + 1 for blocks of
     * 1024 and (1 << 22) + 3 for blocks of 4096 elements; all are above
     * 16 SMs x 2048 threads = 32768, the GPU the emulation models, so a
     * grid sized to the GPU must loop. Work stops at 2^20. */
    .emulated = {
        .work = LAB_CASES({.dims = {1024}}, {.dims = {65536}}, {.dims = {1 << 20}}),
        .right = LAB_CASES({.dims = {0}}, {.dims = {1}}, {.dims = {2}, .variant = 1},
                           {.dims = {31}}, {.dims = {33}, .variant = 3},
                           {.dims = {255}, .variant = 1}, {.dims = {257}},
                           {.dims = {1000}, .variant = 4}, {.dims = {1023}, .variant = 2},
                           {.dims = {1025}, .variant = 1}, {.dims = {4095}, .variant = 3},
                           {.dims = {4097}}, {.dims = {65537}, .variant = 1},
                           {.dims = {100003}, .variant = 4},
                           {.dims = {(1 << 20) + 1}, .variant = 3},
                           {.dims = {(1 << 22) + 3}, .variant = 1}),
    },
    .sanitizers = SAN_RACECHECK | SAN_SYNCCHECK,
    /* Offset every pointer by 0, 4, 8 or 12 bytes in right, so that a
     * kernel assuming 16-byte alignment (uint4 loads) is caught. */
    .misalign = 1,
    /* The scan is the lesson; CUB and Thrust would do it for you. */
    .forbidden = {{"cub::", "CUB", "/cub/"}, {"thrust::", "Thrust", "/thrust/"}},
    .fast = {
        .timed = {.dims = {1 << 26}}, /* 512 MiB moved per call: 10x the H100's L2 */
        /* Every timed call is checked against the baseline on the GPU; the
         * re-check on fresh inputs runs at an odd size that needs a third
         * level of block sums for blocks of 256. */
        .recheck = {.dims = {(1 << 24) + 5}, .variant = 4},
        .baseline = "Hillis-Steele in shared memory, 256 threads per block, block sums "
                    "scanned recursively",
        .vendor = "CUB's DeviceScan::ExclusiveSum",
        .bytes = sc_bytes,
        .roof = ROOF_COPY,
        /* Measured on the H100 (2026-11-27, make ladder LAB=10 and
         * tests/calibrate.sh 10 3; INSTRUCTOR.md has the tables): the
         * reference (one pass, 8192 elements a tile) 72% of copy, 2.55x
         * (CUB's ExclusiveSum: 79.5-80.0%, 2.81-2.83x); one pass with 4096
         * a tile 69.5-70.8%, 2.47-2.50x; reduce-then-scan with uint4 64.4%,
         * 2.28x. Must fail: the baseline 28%, 1.00x; warp shuffles in three
         * passes 29.8%, 1.06x, the best multi-pass rung 30.7%, 1.09x. A
         * two-pass design with uint4 passes, as it should: the bars ask for
         * moving each element a few times, not for one exact design. Each
         * bar keeps a margin both ways: 55% is 1.31x below the reference
         * and 1.79x above the best rung that must fail; 2.0x is 1.28x below
         * the reference and 1.83x above it. The reference has since become
         * the polite look-back (3072-element tiles that sleep between
         * polls): on an H200 (2026-12-02) 72.3-73.0% of copy and 3.43-3.44x
         * in two gradings, CUB 71.1-71.4%, the earlier reference (ladder
         * v7) 62.5%; not yet measured on an H100. */
        .min_roofline = 0.55,
        .min_speedup = 2.0,
        .max_speedup = 25, /* about ten times the reference's */
        .calibration = "H100, 2026-11-27: reference 72% of copy and 2.55x, CUB 80%, "
                       "three passes 30% and 1.06x (labs/10-scan/INSTRUCTOR.md)",
    },
    .counters = {
        COUNTER_DRAM("a scan reads and writes each element once in the best case: a single pass with look-back moves 2n elements, the hierarchical scan more"),
        COUNTER_SHARED_LOAD_PASSES("the tree steps of a block scan in shared memory conflict on banks at power-of-two strides"),
        COUNTER_WARP_INSTRUCTIONS("a work-efficient scan does O(n) additions; the naive one O(n log n): the count shows which one runs"),
    },
    .hints = {
        .never_written = "d_out was never written (in full): the grid must cover all n "
                         "elements, including the last partial block, and out[0] = 0 "
                         "must be written too",
        .wrong_value = "a prefix is wrong: exclusive means out[i] sums in[0..i-1], not "
                       "in[i] itself; past the first block every element needs the sum of "
                       "ALL the blocks before it (scan the block sums, then add them "
                       "back, at every level); unsigned adds must wrap modulo 2^32 (no "
                       "float, no signed overflow); d_scratch holds garbage on entry; "
                       "a missing __syncthreads between scan steps races",
        .write_after = "wrote past the end of d_out: it has exactly n words (no out[n]); "
                       "block sums belong in d_scratch",
        .input_changed = "d_in is read-only: scan in shared memory, registers or "
                         "d_scratch, never in place in the input",
        .launch_error = "a launch was refused: at most 1024 threads per block, at most "
                        "48 KiB of shared memory without opting in, at least one block, "
                        "and no kernel at all when n == 0",
        .crash = "a fault in a kernel: an index past n, a tile index or flag read from "
                 "d_scratch before it was set (it is garbage), or a uint4 access on a "
                 "pointer that is not 16-byte aligned",
        .timeout = "the kernel never finished: a look-back that spins on a flag must read "
                   "it through a volatile pointer (or atomically), the flags must be "
                   "reset on every call (d_scratch is garbage), and a block may only "
                   "wait for tiles that started before it (take the tile index from an "
                   "atomic counter, not blockIdx.x)",
        .too_slow = "a scan can move each element once in and once out: scan a tile of "
                    "several elements per thread (uint4 loads) with warp shuffles "
                    "(__shfl_up_sync), then either scan the tile sums in a small second "
                    "pass or chain tiles in one pass with decoupled look-back; see the "
                    "ladder in the README",
    },
};
