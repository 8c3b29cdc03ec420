/* Memory API: allocation, copies and memset.  "Device" memory is guarded
 * host memory; copies check that device ranges lie inside one allocation,
 * as the GPU's copy engines would refuse to leave it. */
#include "emu_internal.h"

#include <cstdlib>
#include <cstring>
#include <set>

namespace emu {
namespace {
const std::size_t device_alignment = 256; /* cudaMalloc's guarantee */

std::set<void *> &pinned_host_blocks()
{
    static std::set<void *> blocks;
    return blocks;
}

cudaError_t allocate_device(void **pointer, std::size_t size, const char *label)
{
    EMU_RETURN_IF_STICKY();
    if (!pointer)
        return record_error(cudaErrorInvalidValue);
    *pointer = nullptr;
    if (size == 0)
        return cudaSuccess;
    if (size > emulated_device().totalGlobalMem - device_bytes_in_use())
        return record_error(cudaErrorMemoryAllocation);
    guarded_region *region = create_guarded_region(size, device_alignment, region_kind::device, label);
    if (!region)
        return record_error(cudaErrorMemoryAllocation);
    fill_canary(region);
    poison(region);
    *pointer = region->user;
    return cudaSuccess;
}

/* Where a pointer claims to be device memory, count bytes from it must lie in one live allocation. */
bool device_range_is_valid(const void *pointer, std::size_t count)
{
    const guarded_region *region = find_device_allocation(pointer);
    return region && (const char *)pointer + count <= region->user + region->size;
}

/* A pointer into device memory (or its guards) must respect the allocation;
 * other pointers are host memory. */
bool range_is_consistent(const void *pointer, std::size_t count)
{
    const guarded_region *region = find_region(pointer);
    if (!region || region->kind == region_kind::fiber_stack || region->kind == region_kind::static_shared ||
        region->kind == region_kind::dynamic_shared)
        return true;
    return device_range_is_valid(pointer, count);
}

/* dst_count and src_count: the extent touched on each side. */
cudaError_t check_copy(void *dst, std::size_t dst_count, const void *src, std::size_t src_count, cudaMemcpyKind kind)
{
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    if (dst_count == 0 && src_count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return cudaErrorInvalidValue;
    const bool dst_on_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool src_on_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (dst_on_device ? !device_range_is_valid(dst, dst_count) : !range_is_consistent(dst, dst_count))
        return cudaErrorInvalidValue;
    if (src_on_device ? !device_range_is_valid(src, src_count) : !range_is_consistent(src, src_count))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}
} // namespace
} // namespace emu

using namespace emu;

extern "C" cudaError_t cudaMalloc(void **pointer, size_t size)
{
    return allocate_device(pointer, size, "cudaMalloc");
}

extern "C" cudaError_t cudaMallocManaged(void **pointer, size_t size, unsigned int)
{
    return allocate_device(pointer, size, "cudaMallocManaged");
}

extern "C" cudaError_t cudaMallocPitch(void **pointer, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return record_error(cudaErrorInvalidValue);
    *pitch = (width + 511) / 512 * 512;
    return allocate_device(pointer, *pitch * height, "cudaMallocPitch");
}

extern "C" cudaError_t cudaFree(void *pointer)
{
    EMU_RETURN_IF_STICKY();
    if (!pointer)
        return cudaSuccess;
    guarded_region *region = find_device_allocation(pointer);
    if (!region || region->user != pointer)
        return record_error(cudaErrorInvalidValue);
    release_device_allocation(region);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMallocAsync(void **pointer, size_t size, cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    return allocate_device(pointer, size, "cudaMallocAsync");
}

extern "C" cudaError_t cudaFreeAsync(void *pointer, cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    return cudaFree(pointer);
}

extern "C" cudaError_t cudaMallocHost(void **pointer, size_t size)
{
    EMU_RETURN_IF_STICKY();
    if (!pointer)
        return record_error(cudaErrorInvalidValue);
    *pointer = nullptr;
    if (size == 0)
        return cudaSuccess;
    if (posix_memalign(pointer, 4096, size) != 0) {
        *pointer = nullptr;
        return record_error(cudaErrorMemoryAllocation);
    }
    pinned_host_blocks().insert(*pointer);
    return cudaSuccess;
}

extern "C" cudaError_t cudaHostAlloc(void **pointer, size_t size, unsigned int)
{
    return cudaMallocHost(pointer, size);
}

extern "C" cudaError_t cudaFreeHost(void *pointer)
{
    EMU_RETURN_IF_STICKY();
    if (!pointer)
        return cudaSuccess;
    if (pinned_host_blocks().erase(pointer) == 0)
        return record_error(cudaErrorInvalidValue);
    std::free(pointer);
    return cudaSuccess;
}

/* Pinned memory is mapped at the same address, as with unified addressing
 * on a GPU: the device pointer of an allocation is its host pointer. */
extern "C" cudaError_t cudaHostGetDevicePointer(void **device_pointer, void *host_pointer, unsigned int flags)
{
    EMU_RETURN_IF_STICKY();
    if (!device_pointer || flags != 0 || !pinned_host_blocks().count(host_pointer))
        return record_error(cudaErrorInvalidValue);
    *device_pointer = host_pointer;
    return cudaSuccess;
}

extern "C" cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attributes, const void *pointer)
{
    EMU_RETURN_IF_STICKY();
    if (!attributes)
        return record_error(cudaErrorInvalidValue);
    std::memset(attributes, 0, sizeof *attributes);
    if (find_device_allocation(pointer)) {
        attributes->type = cudaMemoryTypeDevice;
        attributes->devicePointer = const_cast<void *>(pointer);
    } else if (pinned_host_blocks().count(const_cast<void *>(pointer))) {
        attributes->type = cudaMemoryTypeHost;
        attributes->hostPointer = const_cast<void *>(pointer);
        attributes->devicePointer = const_cast<void *>(pointer);
    } else {
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->hostPointer = const_cast<void *>(pointer);
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    EMU_RETURN_IF_STICKY();
    cudaError_t error = check_copy(dst, count, src, count, kind);
    if (error != cudaSuccess)
        return record_error(error);
    if (count != 0)
        std::memmove(dst, src, count);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                       cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (stream_is_capturing(stream)) {
        cudaError_t error = check_copy(dst, count, src, count, kind);
        if (error != cudaSuccess)
            return record_error(error);
        capture_operation(stream, [=] { cudaMemcpy(dst, src, count, kind); });
        return cudaSuccess;
    }
    return cudaMemcpy(dst, src, count, kind);
}

extern "C" cudaError_t cudaMemcpy2D(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                                    size_t height, cudaMemcpyKind kind)
{
    EMU_RETURN_IF_STICKY();
    if (width > dst_pitch || width > src_pitch)
        return record_error(cudaErrorInvalidPitchValue);
    if (height == 0 || width == 0)
        return cudaSuccess;
    cudaError_t error =
        check_copy(dst, dst_pitch * (height - 1) + width, src, src_pitch * (height - 1) + width, kind);
    if (error != cudaSuccess)
        return record_error(error);
    for (size_t row = 0; row < height; ++row)
        std::memmove((char *)dst + row * dst_pitch, (const char *)src + row * src_pitch, width);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemset(void *pointer, int value, size_t count)
{
    EMU_RETURN_IF_STICKY();
    if (count == 0)
        return cudaSuccess;
    if (!device_range_is_valid(pointer, count))
        return record_error(cudaErrorInvalidValue);
    std::memset(pointer, value, count);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemsetAsync(void *pointer, int value, size_t count, cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (stream_is_capturing(stream)) {
        if (count != 0 && !device_range_is_valid(pointer, count))
            return record_error(cudaErrorInvalidValue);
        capture_operation(stream, [=] { cudaMemset(pointer, value, count); });
        return cudaSuccess;
    }
    return cudaMemset(pointer, value, count);
}

extern "C" cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    EMU_RETURN_IF_STICKY();
    if (!free_bytes || !total_bytes)
        return record_error(cudaErrorInvalidValue);
    *total_bytes = emulated_device().totalGlobalMem;
    *free_bytes = *total_bytes - device_bytes_in_use();
    return cudaSuccess;
}
