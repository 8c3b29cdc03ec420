/* WRONG ON PURPOSE: the reference's look-back reads the flags through a
 * plain pointer instead of a volatile one. On a GPU the compiler may keep
 * the first value it loaded in a register for the whole spin, and even
 * when it reloads, a plain load may be served by this SM's L1 cache, which
 * never sees another SM's store: a tile that finds its predecessor not yet
 * published spins forever. At 2^22 elements (1024 tiles) some tile always
 * does, so the work stage hangs and the grader stops it ("the kernel never
 * finished"). Must first fail the work stage, on a GPU.
 * EMULATION: pass pass: blocks run one after another there, so every flag a tile looks at was published before it started, and the first load already sees it
 * BUILDS-ON: the reference
 * EDIT: s/volatile unsigned \*flags = scratch + 1;/unsigned *flags = scratch + 1;/
 * EDIT: s/volatile unsigned \*aggregates = flags + ntiles;/volatile unsigned *aggregates = (volatile unsigned *)flags + ntiles;/
 * REPORT-SAYS: a look-back that spins on a flag
 */
extern "C" cudaError_t exclusive_scan(const unsigned *d_in, unsigned *d_out, int n,
                                      unsigned *d_scratch, cudaStream_t stream)
{
    return reference_exclusive_scan(d_in, d_out, n, d_scratch, stream);
}
