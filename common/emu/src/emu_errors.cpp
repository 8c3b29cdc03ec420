/* Error names, messages and the last-error / sticky-error bookkeeping. */
#include "emu_internal.h"

namespace emu {
namespace {
cudaError_t last_error = cudaSuccess;
cudaError_t sticky = cudaSuccess;

struct error_text {
    cudaError_t code;
    const char *name;
    const char *message;
};

/* Messages are CUDA's own, so that output matches the hardware's. */
const error_text error_texts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHardwareStackError, "cudaErrorHardwareStackError", "hardware stack error"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorInvalidAddressSpace, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
    {cudaErrorInvalidPc, "cudaErrorInvalidPc", "invalid program counter"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched", "operation would make the legacy stream depend on a capturing blocking stream"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const error_text *find_text(cudaError_t error)
{
    for (const error_text &text : error_texts)
        if (text.code == error)
            return &text;
    return nullptr;
}
} // namespace

cudaError_t record_error(cudaError_t error)
{
    if (error != cudaSuccess)
        last_error = error;
    return error;
}
cudaError_t sticky_error() { return sticky; }
void set_sticky_error(cudaError_t error)
{
    sticky = error;
    last_error = error;
}
void clear_errors()
{
    sticky = cudaSuccess;
    last_error = cudaSuccess;
}
} // namespace emu

extern "C" const char *cudaGetErrorName(cudaError_t error)
{
    const emu::error_text *text = emu::find_text(error);
    return text ? text->name : "cudaErrorUnknown";
}

extern "C" const char *cudaGetErrorString(cudaError_t error)
{
    const emu::error_text *text = emu::find_text(error);
    return text ? text->message : "unknown error";
}

/* Returns and clears the last error, except that a sticky error stays. */
extern "C" cudaError_t cudaGetLastError(void)
{
    cudaError_t error = emu::sticky != cudaSuccess ? emu::sticky : emu::last_error;
    emu::last_error = cudaSuccess;
    return error;
}

extern "C" cudaError_t cudaPeekAtLastError(void)
{
    return emu::sticky != cudaSuccess ? emu::sticky : emu::last_error;
}
