/* Stream capture and graphs.  The emulation runs every operation the moment
 * it is queued; a capturing stream instead keeps what it is given (kernel
 * launches with copies of their arguments, copies, memsets, graph launches),
 * in the order it was given, in the graph being captured, and a launch of
 * the instantiated graph runs it all then, in that order.  Program order is
 * an order every dependency of the graph allows, so the results are what a
 * GPU computes.
 *
 * Other streams join a capture the way they do on a GPU: by waiting for an
 * event recorded on a capturing stream; they leave it when the stream that
 * began it ends it.  Not checked, where a GPU would refuse: work left on a
 * joined stream that never joined back (cudaErrorStreamCaptureUnjoined), and
 * synchronous calls during a capture other than a capturing stream's own
 * cudaStreamSynchronize. */
/* The standard headers first: emu_keywords.h defines __noinline__, which
 * libstdc++'s <memory> uses as an attribute name. */
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "emu_internal.h"

struct CUgraph_st {
    std::vector<std::function<void()>> operations;
};

struct CUgraphExec_st {
    std::vector<std::function<void()>> operations;
};

namespace emu {
namespace {
std::map<cudaStream_t, cudaGraph_t> &capturing()
{
    static std::map<cudaStream_t, cudaGraph_t> streams;
    return streams;
}
/* The stream that began each capture. */
std::map<cudaGraph_t, cudaStream_t> &origins()
{
    static std::map<cudaGraph_t, cudaStream_t> streams;
    return streams;
}
/* Events last recorded on a capturing stream, and the capture. */
std::map<cudaEvent_t, cudaGraph_t> &captured_events()
{
    static std::map<cudaEvent_t, cudaGraph_t> events;
    return events;
}
std::set<cudaGraph_t> &graphs()
{
    static std::set<cudaGraph_t> live;
    return live;
}
std::set<cudaGraphExec_t> &execs()
{
    static std::set<cudaGraphExec_t> live;
    return live;
}
} // namespace

bool stream_is_capturing(cudaStream_t stream)
{
    return stream && capturing().count(stream) != 0;
}

void capture_operation(cudaStream_t stream, std::function<void()> operation)
{
    capturing().at(stream)->operations.push_back(std::move(operation));
}

void capture_kernel(cudaStream_t stream, void (*run)(void *), void (*drop)(void *), void *state)
{
    std::shared_ptr<void> kept(state, drop); /* freed with the last graph that holds it */
    capture_operation(stream, [run, kept] { run(kept.get()); });
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream)
{
    if (!stream_is_capturing(stream)) {
        captured_events().erase(event);
        return false;
    }
    captured_events()[event] = capturing().at(stream);
    return true;
}

bool capture_event_wait(cudaStream_t stream, cudaEvent_t event)
{
    auto captured = captured_events().find(event);
    if (captured == captured_events().end())
        return false;
    if (stream && stream != cudaStreamLegacy && stream != cudaStreamPerThread)
        capturing()[stream] = captured->second;
    return true;
}

void forget_captured_event(cudaEvent_t event) { captured_events().erase(event); }
} // namespace emu

using namespace emu;

extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    EMU_RETURN_IF_STICKY();
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (mode > cudaStreamCaptureModeRelaxed)
        return record_error(cudaErrorInvalidValue);
    /* The legacy default stream cannot capture; a stream captures once at a time. */
    if (!stream || stream == cudaStreamLegacy || stream_is_capturing(stream))
        return record_error(cudaErrorStreamCaptureUnsupported);
    cudaGraph_t graph = new CUgraph_st;
    graphs().insert(graph);
    capturing()[stream] = graph;
    origins()[graph] = stream;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    EMU_RETURN_IF_STICKY();
    if (!graph)
        return record_error(cudaErrorInvalidValue);
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (!stream_is_capturing(stream))
        return record_error(cudaErrorIllegalState);
    cudaGraph_t captured = capturing().at(stream);
    if (origins().at(captured) != stream)
        return record_error(cudaErrorStreamCaptureUnmatched);
    for (auto s = capturing().begin(); s != capturing().end();)
        s = s->second == captured ? capturing().erase(s) : std::next(s);
    for (auto e = captured_events().begin(); e != captured_events().end();)
        e = e->second == captured ? captured_events().erase(e) : std::next(e);
    origins().erase(captured);
    *graph = captured;
    return cudaSuccess;
}

extern "C" cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
    EMU_RETURN_IF_STICKY();
    if (!status)
        return record_error(cudaErrorInvalidValue);
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    *status = stream_is_capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long)
{
    EMU_RETURN_IF_STICKY();
    if (!exec || !graphs().count(graph))
        return record_error(cudaErrorInvalidValue);
    *exec = new CUgraphExec_st{graph->operations};
    execs().insert(*exec);
    return cudaSuccess;
}

extern "C" cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    EMU_RETURN_IF_STICKY();
    if (!execs().count(exec))
        return record_error(cudaErrorInvalidValue);
    if (!is_valid_stream(stream))
        return record_error(cudaErrorInvalidResourceHandle);
    if (stream_is_capturing(stream)) { /* a graph launched into a capture: a child graph */
        std::vector<std::function<void()>> operations = exec->operations;
        capture_operation(stream, [operations] {
            for (const std::function<void()> &operation : operations)
                operation();
        });
        return cudaSuccess;
    }
    for (const std::function<void()> &operation : exec->operations) {
        operation();
        if (sticky_error() != cudaSuccess)
            return record_error(sticky_error());
    }
    return cudaSuccess;
}

extern "C" cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    EMU_RETURN_IF_STICKY();
    if (!execs().erase(exec))
        return record_error(cudaErrorInvalidValue);
    delete exec;
    return cudaSuccess;
}

extern "C" cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    EMU_RETURN_IF_STICKY();
    if (!graphs().count(graph) || origins().count(graph))
        return record_error(cudaErrorInvalidValue);
    graphs().erase(graph);
    delete graph;
    return cudaSuccess;
}
