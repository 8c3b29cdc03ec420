/* gpu_clock.h - was the GPU quiet and at its normal clocks while it was
 * timed?
 *
 * The fast stage reads the GPU's clocks, temperature, the reasons the
 * driver gives for holding the clocks down, and the other processes using
 * it, before and after the timing run (NVML from the driver, loaded at run
 * time so the grader needs no library to build). A GPU that was throttled by
 * heat or power braking, or shared with another process, gives times that
 * say nothing about the code: the stage runs once more, then reports
 * "unreliable timing" rather than a verdict. Where NVML cannot be read the
 * report says so and the timing stands.
 */
#ifndef GPU_CLOCK_H
#define GPU_CLOCK_H

#include <stddef.h>

typedef struct {
    int ok;             /* the figures below were read */
    char why[128];      /* when not: why */
    unsigned sm_mhz, max_sm_mhz, mem_mhz, temperature_c;
    unsigned long long reasons; /* NVML clock event (throttle) reasons */
    unsigned other_processes;   /* compute processes on the GPU (ours has ended) */
} gpu_clock;

/* The GPU with this PCI bus id ("0000:41:00.0"), or the first one. */
void gpu_clock_read(const char *pci_bus_id, gpu_clock *out);

/* Non-zero when the GPU was throttled or shared in either reading; says why
 * in one phrase. Unread figures never count as disturbed. */
int gpu_clock_disturbed(const gpu_clock *before, const gpu_clock *after, char *why,
                        size_t size);

/* "SM 1980 of 1980 MHz, memory 2619 MHz, 36 C, no throttling, no other
 * process", or why the clocks were not read. */
void gpu_clock_describe(const gpu_clock *c, char *buf, size_t size);

#endif
