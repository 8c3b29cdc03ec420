// self_test.h - what the emulation's self-tests (semantics.cu,
// cooperative_groups.cu) share: one "PASS name" or "FAIL name: reason" line
// per case, a count of the failures for the exit code, and a device buffer
// copied back to the host.
#ifndef EMU_SELF_TEST_H
#define EMU_SELF_TEST_H

#include <cstdarg>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok, const char *format = "", ...)
{
    if (ok) {
        std::printf("PASS %s\n", name);
        return;
    }
    ++failures;
    std::printf("FAIL %s: ", name);
    va_list args;
    va_start(args, format);
    std::vprintf(format, args);
    va_end(args);
    std::printf("\n");
}

template <class T> static std::vector<T> download(const T *device, size_t count)
{
    std::vector<T> host(count);
    cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
}

#endif
