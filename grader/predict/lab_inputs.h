/* lab_inputs.h - a lab's buffers on the device for one case: inputs made
 * by the lab's generator from the public seed 1, outputs zeroed before
 * each call. What rungs.cu (the ladder's rungs) and profile.cu (the
 * baseline and the student's file) call the lab's functions on. */
#ifndef LAB_INPUTS_H
#define LAB_INPUTS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "lab_spec.h"

struct lab_inputs {
    const lab_spec *spec;
    lab_case c;
    const char *tool; /* names the program in its messages */
    std::vector<void *> ptr = std::vector<void *>(LAB_MAX_BUFFERS, nullptr);

    bool checked(cudaError_t e, const char *what) const
    {
        if (e == cudaSuccess) return true;
        std::fprintf(stderr, "%s: %s: %s\n", tool, what, cudaGetErrorString(e));
        return false;
    }

    std::size_t bytes(int b) const
    {
        return spec->buffer_count(b, c.dims) * lab_elem_size(spec->buffers[b].elem);
    }

    /* Every buffer allocated, every input generated and uploaded. */
    bool make()
    {
        for (int b = 0; b < spec->n_buffers; b++) {
            std::size_t n = bytes(b);
            if (!checked(cudaMalloc(&ptr[b], n ? n : 1), "cudaMalloc")) return false;
            if (spec->buffers[b].role == BUF_OUTPUT || !n || !spec->generate) continue;
            std::vector<unsigned char> host(n);
            spec->generate(b, &c, 1, host.data(), spec->buffer_count(b, c.dims));
            if (!checked(cudaMemcpy(ptr[b], host.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy"))
                return false;
        }
        return true;
    }

    /* Outputs start as zeros for every call: an accumulating kernel (an
     * atomicAdd into the sum) then does the same work each time. */
    bool zero_outputs() const
    {
        for (int b = 0; b < spec->n_buffers; b++)
            if (spec->buffers[b].role == BUF_OUTPUT &&
                !checked(cudaMemset(ptr[b], 0, bytes(b)), "cudaMemset"))
                return false;
        return true;
    }

    ~lab_inputs()
    {
        for (void *p : ptr) cudaFree(p);
    }
};

/* The case's sizes as "n = 1024, k = 4", after `before`. */
inline void lab_print_sizes(const lab_spec *spec, const lab_case &c, const char *before)
{
    std::printf("%s", before);
    for (int d = 0; d < spec->n_dims; d++)
        std::printf("%s %s = %lld", d ? "," : "", spec->dim_names[d], (long long)c.dims[d]);
}

/* The sizes given on the command line (argv[first] ...), in the spec's
 * order, into c; returns false, with a message, if they are not. */
inline bool lab_sizes_from(const lab_spec *spec, int argc, char **argv, int first, lab_case *c,
                           const char *tool)
{
    if (argc - first != spec->n_dims) {
        std::fprintf(stderr, "%s: lab %s takes %d sizes, got %d\n", tool, spec->id, spec->n_dims,
                     argc - first);
        return false;
    }
    for (int d = 0; d < spec->n_dims; d++) {
        char *end = nullptr;
        c->dims[d] = std::strtoll(argv[first + d], &end, 10);
        if (!end || *end || c->dims[d] < 0) {
            std::fprintf(stderr, "%s: '%s' is not a size\n", tool, argv[first + d]);
            return false;
        }
    }
    return true;
}

#endif
