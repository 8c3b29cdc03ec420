/* probe.c - is there a usable GPU, and what is it?
 *
 * A separate small program so that the grader itself never creates a CUDA
 * context (which would keep a GPU in exclusive-process mode busy) and never
 * loads student code. Prints key=value lines; exit 0 = usable GPU.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

static int attr(enum cudaDeviceAttr a, int dev)
{
    int v = 0;
    return cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess ? v : -1;
}

int main(void)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaSuccess && count == 0) e = cudaErrorNoDevice;
    int dev = 0;
    struct cudaDeviceProp p;
    if (e == cudaSuccess) e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&p, dev);
    if (e == cudaSuccess) e = cudaFree(0); /* a context really can be made */
    if (e != cudaSuccess) {
        /* Without a driver the runtime blames the driver's version. */
        if (e == cudaErrorInsufficientDriver && access("/dev/nvidiactl", F_OK) != 0)
            printf("status=error\nerror=no NVIDIA GPU or driver on this machine\n");
        else
            printf("status=error\nerror=%s: %s\n", cudaGetErrorName(e),
                   cudaGetErrorString(e));
        return 1;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    printf("status=ok\n");
    printf("name=%s\n", p.name);
    printf("cc=%d.%d\n", p.major, p.minor);
    printf("sm_count=%d\n", p.multiProcessorCount);
    printf("clock_mhz=%d\n", attr(cudaDevAttrClockRate, dev) / 1000);
    printf("mem_clock_mhz=%d\n", attr(cudaDevAttrMemoryClockRate, dev) / 1000);
    printf("l2_bytes=%d\n", p.l2CacheSize);
    printf("regs_per_sm=%d\n", p.regsPerMultiprocessor);
    printf("max_warps_per_sm=%d\n", p.maxThreadsPerMultiProcessor / p.warpSize);
    printf("mem_bytes=%zu\n", p.totalGlobalMem);
    printf("driver=%d.%d\n", driver / 1000, driver % 1000 / 10);
    printf("runtime=%d.%d\n", runtime / 1000, runtime % 1000 / 10);
    char bus[32];
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, dev) == cudaSuccess) printf("pci_bus_id=%s\n", bus);
    return 0;
}
