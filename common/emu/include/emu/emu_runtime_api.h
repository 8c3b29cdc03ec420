/* The CUDA runtime API subset the emulator provides, with CUDA's names,
 * signatures and error codes, so that code written for the real runtime
 * compiles unchanged.  Work is executed synchronously on the calling thread;
 * streams and events only order and time it. */
#ifndef EMU_RUNTIME_API_H
#define EMU_RUNTIME_API_H

#include <cstddef>

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrIntegrated = 18,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrEccEnabled = 32,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrManagedMemory = 83,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    cudaDevAttrMaxAccessPolicyWindowSize = 109
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaFuncCache {
    cudaFuncCachePreferNone = 0,
    cudaFuncCachePreferShared = 1,
    cudaFuncCachePreferL1 = 2,
    cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2
};

enum cudaLimit {
    cudaLimitStackSize = 0,
    cudaLimitPrintfFifoSize = 1,
    cudaLimitMallocHeapSize = 2,
    cudaLimitMaxL2FetchGranularity = 0x05,
    cudaLimitPersistingL2CacheSize = 0x06
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

struct CUuuid_st { char bytes[16]; };
typedef struct CUuuid_st cudaUUID_t;

/* Field names and order follow CUDA 13's cudaDeviceProp (texture and
 * interop fields that make no sense on the CPU are left out). */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int reserved[64];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int reserved[16];
};

/* Persisting-L2 hints. There is no cache here: the emulation only keeps
 * what was set, so that code can read back its own (or another call's)
 * settings as on the GPU. Names as in CUDA's driver_types.h, where the
 * stream attribute names are macros over the launch attribute ones. */
enum cudaAccessProperty {
    cudaAccessPropertyNormal = 0,
    cudaAccessPropertyStreaming = 1,
    cudaAccessPropertyPersisting = 2
};

struct cudaAccessPolicyWindow {
    void *base_ptr;
    size_t num_bytes;
    float hitRatio;
    enum cudaAccessProperty hitProp;
    enum cudaAccessProperty missProp;
};

typedef enum cudaLaunchAttributeID { cudaLaunchAttributeAccessPolicyWindow = 1 } cudaLaunchAttributeID;

typedef union cudaLaunchAttributeValue {
    char pad[64];
    struct cudaAccessPolicyWindow accessPolicyWindow;
} cudaLaunchAttributeValue;

#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttrValue cudaLaunchAttributeValue

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;

enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaMemAttachGlobal 0x01

#define CUDART_VERSION 13000

extern "C" {
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDriverGetVersion(int *version);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaCtxResetPersistingL2Cache(void);

cudaError_t cudaMalloc(void **pointer, size_t size);
cudaError_t cudaMallocManaged(void **pointer, size_t size, unsigned int flags);
cudaError_t cudaMallocPitch(void **pointer, size_t *pitch, size_t width, size_t height);
cudaError_t cudaFree(void *pointer);
/* Stream-ordered: every stream runs in order here, so the allocation is
 * ready at once and the free happens when the stream reaches it. */
cudaError_t cudaMallocAsync(void **pointer, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *pointer, cudaStream_t stream);
cudaError_t cudaMallocHost(void **pointer, size_t size);
cudaError_t cudaHostAlloc(void **pointer, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *pointer);
cudaError_t cudaHostGetDevicePointer(void **device_pointer, void *host_pointer, unsigned int flags);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *pointer);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *pointer, int value, size_t count);
cudaError_t cudaMemsetAsync(void *pointer, int value, size_t count, cudaStream_t stream);

cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue *value);
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue *value);

cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
/* Stream capture and graphs (emu_api_graph.cpp): what a capturing stream
 * is given is kept, in order, instead of run, and a graph launch runs it. */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attributes, const void *function);
cudaError_t cudaFuncSetAttribute(const void *function, enum cudaFuncAttribute attribute, int value);
cudaError_t cudaFuncSetCacheConfig(const void *function, enum cudaFuncCache config);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *function, int block_size,
                                                          size_t dynamic_shared_bytes);
}

/* C++ conveniences of the real cuda_runtime.h: typed pointers and kernels. */
template <class T> cudaError_t cudaMalloc(T **pointer, size_t size)
{
    return cudaMalloc(reinterpret_cast<void **>(pointer), size);
}
template <class T> cudaError_t cudaMallocAsync(T **pointer, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(reinterpret_cast<void **>(pointer), size, stream);
}
template <class T> cudaError_t cudaMallocHost(T **pointer, size_t size)
{
    return cudaMallocHost(reinterpret_cast<void **>(pointer), size);
}
template <class T> cudaError_t cudaHostAlloc(T **pointer, size_t size, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(pointer), size, flags);
}
template <class T> cudaError_t cudaHostGetDevicePointer(T **device_pointer, void *host_pointer, unsigned int flags)
{
    return cudaHostGetDevicePointer(reinterpret_cast<void **>(device_pointer), host_pointer, flags);
}
template <class T> cudaError_t cudaMallocManaged(T **pointer, size_t size, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged(reinterpret_cast<void **>(pointer), size, flags);
}
template <class T> cudaError_t cudaMallocPitch(T **pointer, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch(reinterpret_cast<void **>(pointer), pitch, width, height);
}
template <class T> cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attributes, T *function)
{
    return cudaFuncGetAttributes(attributes, reinterpret_cast<const void *>(function));
}
template <class T> cudaError_t cudaFuncSetAttribute(T *function, enum cudaFuncAttribute attribute, int value)
{
    return cudaFuncSetAttribute(reinterpret_cast<const void *>(function), attribute, value);
}
template <class T> cudaError_t cudaFuncSetCacheConfig(T *function, enum cudaFuncCache config)
{
    return cudaFuncSetCacheConfig(reinterpret_cast<const void *>(function), config);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T *function, int block_size,
                                                          size_t dynamic_shared_bytes)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void *>(function),
                                                         block_size, dynamic_shared_bytes);
}

cudaError_t emu_occupancy_max_potential_block_size(int *min_grid_size, int *block_size, const void *function,
                                                   size_t dynamic_shared_bytes, int block_size_limit);
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid_size, int *block_size, T function,
                                               size_t dynamic_shared_bytes = 0, int block_size_limit = 0)
{
    return emu_occupancy_max_potential_block_size(min_grid_size, block_size,
                                                  reinterpret_cast<const void *>(function),
                                                  dynamic_shared_bytes, block_size_limit);
}

/* What the emulation cannot do is declared anyway, so that using it is a
 * compile error whose message carries a mark ("CUDA_EMU_LACKS_..."): the
 * grader (grader/build.c, EMULATION_LACKS) finds the mark in g++'s messages
 * and sends the file to a GPU instead of failing it. The static_assert sits
 * in a template on a condition that depends on it, so only a use fires it. */
namespace emu {
template <class...> struct unsupported {
    static constexpr bool value = false;
};
} // namespace emu
#define EMU_LACKS_GRID_SYNC                                                                          \
    "CUDA_EMU_LACKS_GRID_SYNC: grid-wide synchronisation (grid.sync(), cudaLaunchCooperativeKernel) " \
    "needs a GPU: the CPU emulation runs one block after another, so no block could wait for the others"

/* A cooperative launch exists for grid.sync(), see above. */
template <class Kernel>
cudaError_t cudaLaunchCooperativeKernel(Kernel, dim3, dim3, void **, size_t = 0, cudaStream_t = 0)
{
    static_assert(emu::unsupported<Kernel>::value, EMU_LACKS_GRID_SYNC);
    return cudaErrorNotSupported;
}

#define EMU_LACKS_LAUNCH_API                                                                    \
    "CUDA_EMU_LACKS_LAUNCH_API: cudaLaunchKernel and cudaLaunchKernelEx need a GPU: the CPU "     \
    "emulation runs kernels launched with <<< >>>, whose arguments it sees with their types"

/* A launch through the runtime API hands over the arguments as untyped
 * pointers, which the emulation cannot call a kernel with. */
template <class Kernel>
cudaError_t cudaLaunchKernel(Kernel, dim3, dim3, void **, size_t = 0, cudaStream_t = 0)
{
    static_assert(emu::unsupported<Kernel>::value, EMU_LACKS_LAUNCH_API);
    return cudaErrorNotSupported;
}

template <class... Args>
cudaError_t cudaLaunchKernelEx(Args...)
{
    static_assert(emu::unsupported<Args...>::value, EMU_LACKS_LAUNCH_API);
    return cudaErrorNotSupported;
}

/* __constant__ and __device__ variables are ordinary globals here. */
template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                               enum cudaMemcpyKind = cudaMemcpyHostToDevice)
{
    if (offset + count > sizeof(T))
        return cudaErrorInvalidValue;
    return cudaMemcpy(reinterpret_cast<char *>(const_cast<T *>(&symbol)) + offset, src, count,
                      cudaMemcpyDefault);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                 enum cudaMemcpyKind = cudaMemcpyDeviceToHost)
{
    if (offset + count > sizeof(T))
        return cudaErrorInvalidValue;
    return cudaMemcpy(dst, reinterpret_cast<const char *>(&symbol) + offset, count,
                      cudaMemcpyDefault);
}
/* The stream-ordered forms. Emulated streams run their work when it is
 * enqueued, so these copy at once, like cudaMemcpyAsync; a range past the
 * symbol's end is refused as by the synchronous forms (and by the GPU). */
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                    enum cudaMemcpyKind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    if (offset > sizeof(T) || count > sizeof(T) - offset)
        return cudaErrorInvalidValue;
    return cudaMemcpyAsync(reinterpret_cast<char *>(const_cast<T *>(&symbol)) + offset, src, count,
                           cudaMemcpyDefault, stream);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                      enum cudaMemcpyKind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0)
{
    if (offset > sizeof(T) || count > sizeof(T) - offset)
        return cudaErrorInvalidValue;
    return cudaMemcpyAsync(dst, reinterpret_cast<const char *>(&symbol) + offset, count,
                           cudaMemcpyDefault, stream);
}

#endif
