/* Kernel launches and __shared__ storage, as produced by emu_rewrite.
 *
 *   kernel<<<grid, block, shmem, stream>>>(a, b)
 * becomes
 *   emu::launch("kernel", [&](auto &&...args) { kernel(args...); }, grid, block, shmem, stream)(a, b)
 *
 * The lambda lets the host compiler resolve overloads and deduce template
 * arguments from the launch arguments exactly as nvcc does.  The arguments
 * are copied once at launch (CUDA passes kernel parameters by value) and each
 * emulated thread calls the kernel with its own copies. */
#ifndef EMU_LAUNCH_H
#define EMU_LAUNCH_H

#include <cstddef>
#include <cstdlib>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace emu {
struct launch_request {
    const char *kernel_name;
    dim3 grid;
    dim3 block;
    std::size_t dynamic_shared_bytes;
    cudaStream_t stream;
    const char *file;
    int line;
};
typedef void (*thread_body)(void *context);

/* Validates the configuration (errors go to cudaGetLastError like CUDA's)
 * and runs every thread of every block to completion. */
void run_kernel(const launch_request &request, thread_body body, void *context);

/* Stream capture (emu_api_graph.cpp): whether the stream is capturing,
 * and keeping a launch for its graph instead of running it: run(state)
 * runs it, drop(state) frees it. (No std::function here: this header is
 * compiled into graded code, which may not refer to the C++ type
 * information std::function needs.) */
bool stream_is_capturing(cudaStream_t stream);
void capture_kernel(cudaStream_t stream, void (*run)(void *), void (*drop)(void *), void *state);

template <class Kernel> class pending_launch {
  public:
    pending_launch(const launch_request &request, Kernel kernel) : request_(request), kernel_(kernel) {}

    template <class... Args> void operator()(Args &&...args)
    {
        typedef std::tuple<typename std::decay<Args>::type...> argument_copies;
        argument_copies copies(std::forward<Args>(args)...);
        if (stream_is_capturing(request_.stream)) { /* kept, with its arguments, for the graph */
            struct kept {
                launch_request request;
                Kernel kernel;
                argument_copies copies;
            };
            if (void *memory = std::malloc(sizeof(kept))) {
                kept *k = new (memory) kept{request_, kernel_, copies};
                capture_kernel(
                    request_.stream,
                    [](void *p) {
                        kept *k = static_cast<kept *>(p);
                        run(k->request, k->kernel, k->copies);
                    },
                    [](void *p) {
                        static_cast<kept *>(p)->~kept();
                        std::free(p);
                    },
                    k);
                return;
            }
        }
        run(request_, kernel_, copies);
    }

  private:
    template <class Copies> static void run(const launch_request &request, Kernel &kernel, Copies &copies)
    {
        struct context_type {
            Kernel *kernel;
            Copies *copies;
        } context{&kernel, &copies};
        run_kernel(request,
                   [](void *opaque) {
                       context_type *c = static_cast<context_type *>(opaque);
                       std::apply(*c->kernel, *c->copies);
                   },
                   &context);
    }

    launch_request request_;
    Kernel kernel_;
};

template <class Kernel>
pending_launch<Kernel> launch(const char *kernel_name, Kernel kernel, dim3 grid, dim3 block,
                              std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = 0,
                              const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return pending_launch<Kernel>(launch_request{kernel_name, grid, block, dynamic_shared_bytes, stream, file, line},
                                  kernel);
}

/* Static __shared__ variables.  Each declaration gets its own guarded
 * allocation (its end touches an inaccessible page), made the first time any
 * thread passes the declaration; the Tag (a lambda type unique to the
 * declaration, and to each template instantiation) keeps them apart.  Blocks
 * run one after another, so one allocation serves every block; the scheduler
 * refills it with garbage before each block, as the GPU gives no guarantee
 * about its contents. */
void *allocate_static_shared(std::size_t size, std::size_t alignment, const char *name);

template <class T, class Tag> T &shared_variable(const char *name, Tag)
{
    static T *storage = static_cast<T *>(allocate_static_shared(sizeof(T), alignof(T), name));
    return *storage;
}

/* extern __shared__ T name[]: the dynamic shared memory of the current
 * launch.  Every element type used gets a pointer that the launcher updates. */
bool register_dynamic_shared(void (*set_pointer)(void *));
void *current_dynamic_shared();

template <class T> struct dynamic_shared {
    static T *pointer;
    static const bool registered;
    static void set_pointer(void *p) { pointer = static_cast<T *>(p); }
    static T *const &get()
    {
        (void)registered; /* odr-use, so that every element type registers itself */
        return pointer;
    }
};
template <class T> T *dynamic_shared<T>::pointer = static_cast<T *>(current_dynamic_shared());
template <class T> const bool dynamic_shared<T>::registered = register_dynamic_shared(&dynamic_shared<T>::set_pointer);
} // namespace emu

#endif
