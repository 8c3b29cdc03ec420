/* gpu_clock.c - see gpu_clock.h. */
#define _POSIX_C_SOURCE 200809L
#include "gpu_clock.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The few NVML declarations used here (nvml.h, from the driver's
 * development files, is not needed to build). */
typedef int nvml_return;
typedef struct nvml_device *nvml_device;
enum { NVML_SUCCESS = 0, NVML_INSUFFICIENT_SIZE = 7 };
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

/* Clock event reasons that mean the GPU ran slower than it could for a
 * reason outside the code: hardware slowdown, thermal limits, power
 * braking. (Idle, a software power cap under full load and sync boost are
 * normal.) */
static const struct {
    unsigned long long bit;
    const char *name;
} BAD_REASONS[] = {{0x8ull, "hardware slowdown"},
                   {0x20ull, "software thermal slowdown"},
                   {0x40ull, "hardware thermal slowdown"},
                   {0x80ull, "power brake"}};
enum { N_BAD = sizeof BAD_REASONS / sizeof BAD_REASONS[0] };

typedef struct {
    nvml_return (*init)(void);
    nvml_return (*by_bus_id)(const char *, nvml_device *);
    nvml_return (*by_index)(unsigned, nvml_device *);
    nvml_return (*clock)(nvml_device, int, unsigned *);
    nvml_return (*max_clock)(nvml_device, int, unsigned *);
    nvml_return (*temperature)(nvml_device, int, unsigned *);
    nvml_return (*reasons)(nvml_device, unsigned long long *);
    nvml_return (*processes)(nvml_device, unsigned *, void *);
} nvml_api;

static const char *load(nvml_api *api)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "the NVIDIA management library (libnvidia-ml.so.1) is not installed";
    *(void **)&api->init = dlsym(lib, "nvmlInit_v2");
    *(void **)&api->by_bus_id = dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&api->by_index = dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&api->clock = dlsym(lib, "nvmlDeviceGetClockInfo");
    *(void **)&api->max_clock = dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    *(void **)&api->temperature = dlsym(lib, "nvmlDeviceGetTemperature");
    *(void **)&api->reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!api->reasons)
        *(void **)&api->reasons = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    *(void **)&api->processes = dlsym(lib, "nvmlDeviceGetComputeRunningProcesses_v3");
    if (!api->init || !api->by_bus_id || !api->by_index || !api->clock || !api->max_clock ||
        !api->temperature || !api->reasons || !api->processes)
        return "the NVIDIA management library lacks a function the grader reads";
    if (api->init() != NVML_SUCCESS) return "the NVIDIA management library did not start";
    return NULL;
}

void gpu_clock_read(const char *pci_bus_id, gpu_clock *out)
{
    static nvml_api api;
    static const char *load_error;
    static int loaded;
    memset(out, 0, sizeof *out);
    if (!loaded) {
        load_error = load(&api);
        loaded = 1;
    }
    if (load_error) {
        snprintf(out->why, sizeof out->why, "%s", load_error);
        return;
    }
    nvml_device dev;
    nvml_return e = pci_bus_id && *pci_bus_id ? api.by_bus_id(pci_bus_id, &dev)
                                              : api.by_index(0, &dev);
    if (e != NVML_SUCCESS) {
        snprintf(out->why, sizeof out->why, "the GPU %s is not known to NVML (error %d)",
                 pci_bus_id ? pci_bus_id : "0", e);
        return;
    }
    unsigned count = 0;
    nvml_return p = api.processes(dev, &count, NULL);
    if (api.clock(dev, NVML_CLOCK_SM, &out->sm_mhz) != NVML_SUCCESS ||
        api.max_clock(dev, NVML_CLOCK_SM, &out->max_sm_mhz) != NVML_SUCCESS ||
        api.clock(dev, NVML_CLOCK_MEM, &out->mem_mhz) != NVML_SUCCESS ||
        api.temperature(dev, NVML_TEMPERATURE_GPU, &out->temperature_c) != NVML_SUCCESS ||
        api.reasons(dev, &out->reasons) != NVML_SUCCESS ||
        (p != NVML_SUCCESS && p != NVML_INSUFFICIENT_SIZE)) {
        snprintf(out->why, sizeof out->why, "NVML would not give the clocks of this GPU");
        return;
    }
    out->other_processes = count;
    out->ok = 1;
}

static int bad_reasons(unsigned long long reasons, char *buf, size_t size)
{
    int found = 0;
    size_t at = strlen(buf);
    for (int i = 0; i < N_BAD; i++) {
        if (!(reasons & BAD_REASONS[i].bit) || strstr(buf, BAD_REASONS[i].name)) continue;
        at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s", at ? ", " : "",
                               BAD_REASONS[i].name);
        found = 1;
    }
    return found;
}

int gpu_clock_disturbed(const gpu_clock *before, const gpu_clock *after, char *why,
                        size_t size)
{
    why[0] = 0;
    int disturbed = 0;
    const gpu_clock *reading[2] = {before, after};
    for (int r = 0; r < 2; r++) {
        if (!reading[r]->ok) continue;
        disturbed |= bad_reasons(reading[r]->reasons, why, size);
    }
    unsigned others = 0;
    for (int r = 0; r < 2; r++)
        if (reading[r]->ok && reading[r]->other_processes > others)
            others = reading[r]->other_processes;
    if (others) {
        size_t at = strlen(why);
        snprintf(why + at, at < size ? size - at : 0, "%s%u other process%s on the GPU",
                 at ? ", " : "", others, others == 1 ? "" : "es");
        disturbed = 1;
    }
    return disturbed;
}

void gpu_clock_describe(const gpu_clock *c, char *buf, size_t size)
{
    if (!c->ok) {
        snprintf(buf, size, "clocks not read: %s", c->why);
        return;
    }
    char reasons[160] = "";
    bad_reasons(c->reasons, reasons, sizeof reasons);
    snprintf(buf, size, "SM %u of %u MHz, memory %u MHz, %u C, %s, %s", c->sm_mhz,
             c->max_sm_mhz, c->mem_mhz, c->temperature_c,
             reasons[0] ? reasons : "no throttling",
             c->other_processes ? "other processes on the GPU" : "no other process");
}
