/* Device description and queries: one device called "CPU emulation" with
 * the limits of a recent GPU (so that launch checks match the hardware). */
#include "emu_internal.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>

namespace emu {
namespace {
/* 16 unless CUDA_EMU_SM_COUNT says otherwise: a program that sizes its
 * grid by the SM count then launches what it would on that GPU (the
 * counters' comparison with a real one sets it). */
int sm_count()
{
    static const int count = [] {
        const char *setting = std::getenv("CUDA_EMU_SM_COUNT");
        int n = setting ? std::atoi(setting) : 0;
        return n >= 1 && n <= 1024 ? n : 16;
    }();
    return count;
}
const int threads_per_sm = 2048;
const int blocks_per_sm = 32;
const int registers_per_sm = 65536;
const int registers_per_thread = 32; /* assumed for occupancy: the CPU has no register file */
const std::size_t shared_per_sm = 228 * 1024;
const std::size_t shared_reserved_per_block = 1024;
const std::size_t shared_optin_per_block = 227 * 1024;
/* The persisting carve-out (cudaLimitPersistingL2CacheSize): only
 * remembered, there is no cache to set aside. Not 0 before anyone sets it:
 * an H100 (driver 13.0) reports 9830400 bytes, 30% of its maximum. */
const std::size_t persisting_l2_default = 1024 * 1024;
std::size_t persisting_l2_bytes = persisting_l2_default;
/* Device-wide hints a GPU keeps and the grader puts back before every
 * call: remembered, they change nothing here. */
const std::size_t l2_fetch_default = 64;
std::size_t l2_fetch_bytes = l2_fetch_default;
cudaFuncCache device_cache_config = cudaFuncCachePreferNone;

std::map<const void *, int> &dynamic_shared_attributes()
{
    static std::map<const void *, int> attributes;
    return attributes;
}

cudaDeviceProp describe_device()
{
    cudaDeviceProp p;
    std::memset(&p, 0, sizeof p);
    std::strcpy(p.name, "CPU emulation");
    std::memcpy(p.uuid.bytes, "cuda-emu-cpu-000", 16);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    std::size_t half_of_ram = pages > 0 && page > 0 ? (std::size_t)pages * (std::size_t)page / 2 : (4ull << 30);
    p.totalGlobalMem = half_of_ram < (16ull << 30) ? half_of_ram : (16ull << 30);
    p.sharedMemPerBlock = 48 * 1024;
    p.regsPerBlock = registers_per_sm;
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024;
    p.maxThreadsDim[1] = 1024;
    p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647;
    p.maxGridSize[1] = 65535;
    p.maxGridSize[2] = 65535;
    p.totalConstMem = 64 * 1024;
    p.major = 9;
    p.minor = 0;
    p.textureAlignment = 512;
    p.texturePitchAlignment = 32;
    p.multiProcessorCount = sm_count();
    p.canMapHostMemory = 1;
    p.concurrentKernels = 1;
    p.asyncEngineCount = 2;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = 256;
    p.l2CacheSize = 4 * 1024 * 1024;
    p.persistingL2CacheMaxSize = 3 * 1024 * 1024; /* three quarters of the L2, as on an A100 */
    p.accessPolicyMaxWindowSize = 128 * 1024 * 1024;
    p.maxThreadsPerMultiProcessor = threads_per_sm;
    p.globalL1CacheSupported = 1;
    p.localL1CacheSupported = 1;
    p.sharedMemPerMultiprocessor = shared_per_sm;
    p.regsPerMultiprocessor = registers_per_sm;
    p.managedMemory = 1;
    p.computePreemptionSupported = 1;
    p.cooperativeLaunch = 1;
    p.sharedMemPerBlockOptin = shared_optin_per_block;
    p.maxBlocksPerMultiProcessor = blocks_per_sm;
    p.reservedSharedMemPerBlock = shared_reserved_per_block;
    return p;
}

/* Blocks of block_size threads that fit on one SM, from threads, blocks,
 * registers and shared memory, like the CUDA occupancy calculator. */
int blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes)
{
    if (block_size <= 0 || block_size > 1024)
        return 0;
    const int warps = (block_size + 31) / 32;
    int blocks = blocks_per_sm;
    blocks = std::min(blocks, threads_per_sm / (warps * 32));
    blocks = std::min(blocks, registers_per_sm / (warps * 32 * registers_per_thread));
    const std::size_t shared = dynamic_shared_bytes + shared_reserved_per_block;
    blocks = std::min(blocks, (int)(shared_per_sm / shared));
    return blocks;
}

cudaError_t check_device(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
} // namespace

const cudaDeviceProp &emulated_device()
{
    static const cudaDeviceProp device = describe_device();
    return device;
}
} // namespace emu

using namespace emu;

extern "C" cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return record_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return record_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device) { return record_error(check_device(device)); }

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device)
{
    if (!prop)
        return record_error(cudaErrorInvalidValue);
    if (check_device(device) != cudaSuccess)
        return record_error(cudaErrorInvalidDevice);
    *prop = emulated_device();
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    if (!value)
        return record_error(cudaErrorInvalidValue);
    if (check_device(device) != cudaSuccess)
        return record_error(cudaErrorInvalidDevice);
    const cudaDeviceProp &p = emulated_device();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = 1500000; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = p.integrated; break;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; break;
    case cudaDevAttrMemoryClockRate: *value = 1750000; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; break;
    default: return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSynchronize(void)
{
    EMU_RETURN_IF_STICKY();
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceReset(void)
{
    release_all_device_allocations();
    clear_errors();
    persisting_l2_bytes = persisting_l2_default;
    l2_fetch_bytes = l2_fetch_default;
    device_cache_config = cudaFuncCachePreferNone;
    return cudaSuccess;
}

/* The persisting size and the L2 fetch granularity are remembered; more
 * than the device's maximum carve-out is refused, as the H100's driver
 * does (it also rounds to its own granularity, which is not emulated), and
 * so is a fetch granularity past 128 bytes. */
extern "C" cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    EMU_RETURN_IF_STICKY();
    if (limit == cudaLimitMaxL2FetchGranularity) {
        if (value > 128)
            return record_error(cudaErrorInvalidValue);
        l2_fetch_bytes = value;
    }
    if (limit == cudaLimitPersistingL2CacheSize) {
        if (value > (std::size_t)emulated_device().persistingL2CacheMaxSize)
            return record_error(cudaErrorInvalidValue);
        persisting_l2_bytes = value;
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    EMU_RETURN_IF_STICKY();
    if (!value)
        return record_error(cudaErrorInvalidValue);
    if (limit == cudaLimitPersistingL2CacheSize)
        *value = persisting_l2_bytes;
    else if (limit == cudaLimitMaxL2FetchGranularity)
        *value = l2_fetch_bytes;
    else
        *value = limit == cudaLimitStackSize ? 1024 : (8u << 20);
    return cudaSuccess;
}

/* Nothing persists in a cache that does not exist; the carve-out and the
 * streams' windows stay as they are, as on a GPU. */
extern "C" cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    EMU_RETURN_IF_STICKY();
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config)
{
    EMU_RETURN_IF_STICKY();
    device_cache_config = config;
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config)
{
    EMU_RETURN_IF_STICKY();
    if (!config)
        return record_error(cudaErrorInvalidValue);
    *config = device_cache_config;
    return cudaSuccess;
}
extern "C" cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
extern "C" cudaError_t cudaFuncSetCacheConfig(const void *, cudaFuncCache) { return cudaSuccess; }

extern "C" cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return record_error(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

extern "C" cudaError_t cudaRuntimeGetVersion(int *version) { return cudaDriverGetVersion(version); }

extern "C" cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attributes, const void *function)
{
    EMU_RETURN_IF_STICKY();
    if (!attributes || !function)
        return record_error(cudaErrorInvalidDeviceFunction);
    std::memset(attributes, 0, sizeof *attributes);
    attributes->maxThreadsPerBlock = 1024;
    attributes->numRegs = registers_per_thread;
    attributes->ptxVersion = 90;
    attributes->binaryVersion = 90;
    auto found = dynamic_shared_attributes().find(function);
    attributes->maxDynamicSharedSizeBytes =
        found != dynamic_shared_attributes().end() ? found->second : (int)emulated_device().sharedMemPerBlock;
    attributes->preferredShmemCarveout = -1;
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetAttribute(const void *function, cudaFuncAttribute attribute, int value)
{
    EMU_RETURN_IF_STICKY();
    if (!function)
        return record_error(cudaErrorInvalidDeviceFunction);
    if (attribute == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (std::size_t)value > emulated_device().sharedMemPerBlockOptin)
            return record_error(cudaErrorInvalidValue);
        dynamic_shared_attributes()[function] = value;
        note_dynamic_shared_attribute(value);
    } else if (attribute == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100)
            return record_error(cudaErrorInvalidValue);
    } else {
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *function,
                                                                     int block_size, size_t dynamic_shared_bytes)
{
    EMU_RETURN_IF_STICKY();
    if (!blocks || !function)
        return record_error(cudaErrorInvalidValue);
    *blocks = blocks_per_multiprocessor(block_size, dynamic_shared_bytes);
    return cudaSuccess;
}

/* The largest block size reaching the best occupancy, as CUDA's helper picks. */
cudaError_t emu_occupancy_max_potential_block_size(int *min_grid_size, int *block_size, const void *function,
                                                   size_t dynamic_shared_bytes, int block_size_limit)
{
    EMU_RETURN_IF_STICKY();
    if (!min_grid_size || !block_size || !function)
        return record_error(cudaErrorInvalidValue);
    int limit = block_size_limit > 0 && block_size_limit < 1024 ? block_size_limit : 1024;
    int best_size = 0, best_threads = -1;
    for (int size = limit / 32 * 32; size >= 32; size -= 32) {
        int threads = blocks_per_multiprocessor(size, dynamic_shared_bytes) * size;
        if (threads > best_threads) {
            best_threads = threads;
            best_size = size;
        }
    }
    if (best_size == 0) /* a limit below one warp */
        best_size = limit;
    *block_size = best_size;
    *min_grid_size = blocks_per_multiprocessor(best_size, dynamic_shared_bytes) * sm_count();
    return cudaSuccess;
}
