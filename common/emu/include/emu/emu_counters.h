/* Memory counters: what the GPU's own counters would say about each kernel,
 * counted by the CPU emulation.
 *
 * A warp's load or store instruction is one request. A global request
 * touches some 32-byte sectors (one warp reading 32 consecutive floats: 4;
 * 32 floats a row apart: 32); a shared request takes as many passes
 * (wavefronts) as the most distinct 4-byte words any one of the 32 banks
 * must deliver (a column of float[32][32]: 32; of float[32][33]: 1). These
 * are the figures Nsight Compute shows as l1tex__t_sectors / requests and
 * shared-memory wavefronts, and the ones the labs' predictions ask about.
 *
 * Counting needs the kernels' file compiled with -fsanitize=thread, whose
 * hooks (every load and store calls one) the emulation defines itself
 * instead of ThreadSanitizer's runtime (emu_counters_hooks.cpp); code
 * compiled without it is not counted, and costs nothing. */
#ifndef EMU_COUNTERS_H
#define EMU_COUNTERS_H

namespace emu {

struct memory_count {
    unsigned long long requests;
    unsigned long long bytes;     /* asked for by the lanes (shared bytes once), summed over requests */
    unsigned long long sectors;   /* global: distinct 32-byte sectors, summed over requests */
    unsigned long long wavefronts; /* shared: passes, summed over requests */
};

/* The units of a kind of access: sectors for global memory, passes for
 * shared memory. */
inline unsigned long long memory_units(const memory_count &m, bool shared)
{
    return shared ? m.wavefronts : m.sectors;
}

struct kernel_count {
    unsigned long long launches;
    unsigned long long blocks_launched, blocks_run; /* the grid; the blocks emulated */
    unsigned long long threads_run;
    unsigned int grid[3], block[3]; /* of the last launch */
    unsigned long long barriers; /* __syncthreads released, summed over the blocks run */
    memory_count global_load, global_store, shared_load, shared_store;
};

/* One launch, in the order they came. */
struct launch_record {
    char kernel[128];
    unsigned int grid[3], block[3];
};

/* Start counting from zero; run at most max_blocks blocks of every launch
 * (0: all of them; the others are counted as launched, never run, so the
 * outputs are wrong: for measuring only). */
void counters_start(unsigned long long max_blocks);
/* Stop counting (the counts stay readable) and run every block again. */
void counters_stop();
/* While counting: once max_accesses loads and stores of one launch are
 * counted, count no more of them and run no further block of it (the one
 * running goes on, uncounted). For a quick look whose cost does not grow
 * with the kernel's work; 0: no limit. */
void counters_limit_accesses(unsigned long long max_accesses);
/* The counts of every launch of kernels whose name contains `name` (NULL:
 * every kernel), added up; false when none was launched. */
bool counters_of(const char *name, kernel_count *out);
/* How many kernels were launched since counters_start, and the i-th of
 * them (by name) with its counts; false past the end. */
int counters_kernel_count();
bool counters_kernel_at(int i, char *name, unsigned long size, kernel_count *out);
/* How many launches since counters_start, and the i-th of them. */
int counters_launch_count();
launch_record counters_launch_at(int i);

} // namespace emu

#endif
