/* Streams and events.  Work runs synchronously when it is enqueued, so a
 * stream is only a handle to validate (and the access-policy window set on
 * it, kept to be read back) and an event only a timestamp. */
#include "emu_internal.h"

#include <chrono>
#include <cstring>
#include <set>

struct CUstream_st {
    unsigned int flags;
    cudaAccessPolicyWindow window;
};

struct CUevent_st {
    unsigned int flags;
    bool recorded;
    double milliseconds; /* wall clock when recorded */
};

namespace emu {
namespace {
std::set<cudaStream_t> &streams()
{
    static std::set<cudaStream_t> live;
    return live;
}
std::set<cudaEvent_t> &events()
{
    static std::set<cudaEvent_t> live;
    return live;
}
/* The built-in streams have windows too: 0 and cudaStreamLegacy name one stream. */
cudaAccessPolicyWindow legacy_window, per_thread_window;
cudaAccessPolicyWindow *window_of(cudaStream_t stream)
{
    if (stream == nullptr || stream == cudaStreamLegacy)
        return &legacy_window;
    if (stream == cudaStreamPerThread)
        return &per_thread_window;
    return streams().count(stream) ? &stream->window : nullptr;
}
double now_milliseconds()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}
} // namespace

bool is_valid_stream(cudaStream_t stream)
{
    return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
           streams().count(stream) != 0;
}
} // namespace emu

using namespace emu;

extern "C" cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    EMU_RETURN_IF_STICKY();
    if (!stream || flags > cudaStreamNonBlocking)
        return record_error(cudaErrorInvalidValue);
    *stream = new CUstream_st{flags, {}};
    streams().insert(*stream);
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamCreate(cudaStream_t *stream) { return cudaStreamCreateWithFlags(stream, 0); }

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!stream || streams().erase(stream) == 0)
        return record_error(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    return stream_is_capturing(stream) ? record_error(cudaErrorStreamCaptureUnsupported) : cudaSuccess;
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) { return cudaStreamSynchronize(stream); }

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream) || !events().count(event))
        return record_error(cudaErrorInvalidResourceHandle);
    capture_event_wait(stream, event);
    return cudaSuccess;
}

/* The window of a stream the two attribute calls name, or why not. */
static cudaError_t window_named(cudaStream_t stream, cudaStreamAttrID attr, const void *value,
                                cudaAccessPolicyWindow **window)
{
    *window = window_of(stream);
    if (!*window)
        return cudaErrorInvalidResourceHandle;
    if (!value || attr != cudaStreamAttributeAccessPolicyWindow)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                              cudaStreamAttrValue *value)
{
    EMU_RETURN_IF_STICKY();
    cudaAccessPolicyWindow *window;
    if (cudaError_t e = window_named(stream, attr, value, &window))
        return record_error(e);
    std::memset(value, 0, sizeof *value);
    value->accessPolicyWindow = *window;
    return cudaSuccess;
}

/* A window is checked as the driver checks it (its size, a ratio in [0, 1])
 * and kept; it changes nothing else here. */
extern "C" cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                              const cudaStreamAttrValue *value)
{
    EMU_RETURN_IF_STICKY();
    cudaAccessPolicyWindow *window;
    if (cudaError_t e = window_named(stream, attr, value, &window))
        return record_error(e);
    const cudaAccessPolicyWindow &w = value->accessPolicyWindow;
    if (w.num_bytes > (std::size_t)emulated_device().accessPolicyMaxWindowSize || !(w.hitRatio >= 0.0f) ||
        w.hitRatio > 1.0f)
        return record_error(cudaErrorInvalidValue);
    *window = w;
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    EMU_RETURN_IF_STICKY();
    if (!event || flags > (cudaEventBlockingSync | cudaEventDisableTiming))
        return record_error(cudaErrorInvalidValue);
    *event = new CUevent_st{flags, false, 0.0};
    events().insert(*event);
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!events().count(event) || !is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (capture_event_record(event, stream))
        return cudaSuccess; /* a node of the graph: no time */
    event->recorded = true;
    event->milliseconds = now_milliseconds();
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event)
{
    EMU_RETURN_IF_STICKY();
    return events().count(event) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) { return cudaEventQuery(event); }

extern "C" cudaError_t cudaEventElapsedTime(float *milliseconds, cudaEvent_t start, cudaEvent_t end)
{
    EMU_RETURN_IF_STICKY();
    if (!milliseconds)
        return record_error(cudaErrorInvalidValue);
    if (!events().count(start) || !events().count(end))
        return record_error(cudaErrorInvalidResourceHandle);
    if ((start->flags | end->flags) & cudaEventDisableTiming)
        return record_error(cudaErrorInvalidResourceHandle);
    if (!start->recorded || !end->recorded)
        return record_error(cudaErrorInvalidResourceHandle);
    *milliseconds = (float)(end->milliseconds - start->milliseconds);
    return cudaSuccess;
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    EMU_RETURN_IF_STICKY();
    if (!event || events().erase(event) == 0)
        return record_error(cudaErrorInvalidResourceHandle);
    forget_captured_event(event);
    delete event;
    return cudaSuccess;
}
