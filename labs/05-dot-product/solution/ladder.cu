/* Lab 05's ladder: the dot product from one atomic per element to the
 * reference, with the vendor libraries beside it. `make ladder LAB=05`
 * checks every rung on fresh inputs, then times them all, alternating, on
 * n = 2^26 (512 MiB read per call), with a copy for the roof.
 *
 * The lesson: a sum over many threads needs a place where the threads'
 * numbers meet. One address in global memory (v1) serialises every
 * addition; a block reduction in shared memory (v2) sends one number per
 * block; a grid that just fills the GPU and sums in registers first (v3)
 * sends about a thousand; wide loads (v4) keep enough bytes in flight to
 * reach the memory's roof.
 *
 * Vendor rungs, and what they cost. Each is measured exactly as a caller of
 * this entry point would pay for it, between two events on the stream:
 *   thrust::inner_product returns its result to the host, so every call
 *   allocates temporary storage (cudaMalloc, then cudaFree, which waits for
 *   the whole device), synchronises the stream, and the value travels back
 *   to d_result: fixed costs of tens of microseconds on top of the reduction.
 *   cublasSdot with the pointer mode set to device writes d_result itself,
 *   asynchronously, on the stream set with cublasSetStream; the handle
 *   (cublasCreate: milliseconds, and device memory) is made once, on the
 *   first call, which is a check call and never timed.
 * Both are left out of the CPU emulation, which has neither library.
 */
#include "dot.cu" /* the reference solution: the last rung */

#include "lab_spec.h"

#ifndef CUDA_EMU
#include <cublas_v2.h>
#include <new>

#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/inner_product.h>
#endif

static int threads_fill(int n, int threads) { return (n + threads - 1) / threads; }

/* v1: thread i adds x[i] * y[i] to the result with its own atomicAdd. The
 * L2 cache performs atomics on one address one after another, so 2^26 of
 * them take far longer than reading the 512 MiB they come from. (The same
 * kernel is the fast stage's baseline, in labs/05-dot-product/trusted/lab.cu.) */
__global__ void dot_v1_atomic_per_element(const float *x, const float *y, int n, float *result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, x[i] * y[i]);
}

static int v1_atomic_per_element(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0];
    cudaStream_t stream = (cudaStream_t)s;
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d[2], 0, sizeof(float), stream));
    if (n == 0) return cudaSuccess;
    dot_v1_atomic_per_element<<<threads_fill(n, 256), 256, 0, stream>>>(
        (const float *)d[0], (const float *)d[1], n, (float *)d[2]);
    return cudaGetLastError();
}

/* v2: the lecture slides' kernel. Thread t of a block puts one product into shared
 * memory; the block halves the active threads at every step (sequential
 * addressing, a barrier between steps) until s[0] holds the block's sum,
 * which thread 0 adds to the result. 256 times fewer atomics than v1, but
 * 2^18 blocks that each load 2 KiB and then spend eight barriers with
 * fewer and fewer threads busy: the SMs start and retire blocks more than
 * they move data. */
__global__ void dot_v2_shared_tree(const float *x, const float *y, int n, float *result)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] * y[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, s[0]);
}

static int v2_shared_tree(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0];
    cudaStream_t stream = (cudaStream_t)s;
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d[2], 0, sizeof(float), stream));
    if (n == 0) return cudaSuccess;
    dot_v2_shared_tree<<<threads_fill(n, 256), 256, 0, stream>>>(
        (const float *)d[0], (const float *)d[1], n, (float *)d[2]);
    return cudaGetLastError();
}

/* v3: as many blocks as the GPU holds at once; thread t sums elements t,
 * t + stride, ... in a register (many independent loads in flight, no
 * shared memory in the loop), then the block adds up with shuffles
 * (block_sum_to, from the reference) and sends one atomicAdd. Scalar
 * loads: one 4-byte load per element and vector. */
__global__ void __launch_bounds__(256)
dot_v3_grid_stride(const float *__restrict__ x, const float *__restrict__ y, int n,
                   float *result)
{
    float acc = 0.0f;
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        acc += __ldg(x + i) * __ldg(y + i);
    block_sum_to(acc, result);
}

static int v3_grid_stride_shuffles(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0];
    cudaStream_t stream = (cudaStream_t)s;
    int blocks;
    CUDA_RETURN_IF_ERROR(resident_blocks((const void *)dot_v3_grid_stride, &blocks));
    if (threads_fill(n, THREADS) < blocks) blocks = threads_fill(n, THREADS);
    CUDA_RETURN_IF_ERROR(cudaMemsetAsync(d[2], 0, sizeof(float), stream));
    if (n == 0) return cudaSuccess;
    dot_v3_grid_stride<<<blocks, THREADS, 0, stream>>>((const float *)d[0], (const float *)d[1],
                                                       n, (float *)d[2]);
    return cudaGetLastError();
}

/* v4: the reference (dot.cu): v3 with float4 loads and alignment handling. */
static int v4_vector_loads(void *const *d, const int64_t *dims, void *s)
{
    return dot((const float *)d[0], (const float *)d[1], (int)dims[0], (float *)d[2],
               (cudaStream_t)s);
}

#ifndef CUDA_EMU
/* thrust::inner_product on the raw pointers, on our stream. The initial
 * value's type is the accumulator's: 0.0f sums in float like the other
 * rungs (the seed's 0.0, a double, would sum in double). The float comes
 * back to the host and is copied to d_result; from pageable memory the
 * copy is staged before cudaMemcpyAsync returns, so the local is safe. */
/* Thrust's temporary storage, kept from one call to the next. Its default
 * allocator gives the storage back with cudaFree, which waits for the
 * whole device, the legacy default stream included, which the grader holds
 * during every call (grader/runner/call.cu): each call then waited out the
 * hold's 5 ms. An allocation asked for while the kept one is in use gets
 * storage of its own. */
struct kept_storage {
    typedef char value_type;
    char *kept = nullptr;
    std::ptrdiff_t size = 0;
    bool in_use = false;
    char *allocate(std::ptrdiff_t bytes)
    {
        char *p = nullptr;
        if (in_use) {
            if (cudaMalloc(&p, bytes) != cudaSuccess) throw std::bad_alloc();
            return p;
        }
        if (bytes > size) {
            cudaFree(kept); /* only while the storage grows: the warm-up calls */
            kept = nullptr;
            size = 0;
            if (cudaMalloc(&kept, bytes) != cudaSuccess) throw std::bad_alloc();
            size = bytes;
        }
        in_use = true;
        return kept;
    }
    void deallocate(char *p, size_t)
    {
        if (p == kept) in_use = false;
        else cudaFree(p);
    }
};
static kept_storage thrust_storage;

static int vendor_thrust_inner_product(void *const *d, const int64_t *dims, void *s)
{
    int n = (int)dims[0];
    cudaStream_t stream = (cudaStream_t)s;
    thrust::device_ptr<const float> x((const float *)d[0]), y((const float *)d[1]);
    float sum = thrust::inner_product(thrust::cuda::par(thrust_storage).on(stream), x, x + n, y,
                                      0.0f);
    CUDA_RETURN_IF_ERROR(
        cudaMemcpyAsync(d[2], &sum, sizeof(float), cudaMemcpyHostToDevice, stream));
    return cudaGetLastError();
}

/* cublasSdot writing straight into d_result (pointer mode device). */
static int vendor_cublas_sdot(void *const *d, const int64_t *dims, void *s)
{
    static cublasHandle_t handle; /* made once; lives as long as the process */
    int n = (int)dims[0];
    cudaStream_t stream = (cudaStream_t)s;
    if (!handle) {
        if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
        if (cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) != CUBLAS_STATUS_SUCCESS)
            return cudaErrorUnknown;
    }
    if (cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS) return cudaErrorUnknown;
    if (n == 0) /* cuBLAS may leave the result alone for n <= 0 */
        return cudaMemsetAsync(d[2], 0, sizeof(float), stream);
    if (cublasSdot(handle, n, (const float *)d[0], 1, (const float *)d[1], 1, (float *)d[2]) !=
        CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
#endif

static const lab_rung RUNGS[] = {
    {"v1_atomic_per_element", v1_atomic_per_element},
    {"v2_shared_tree", v2_shared_tree},
    {"v3_grid_stride_shuffles", v3_grid_stride_shuffles},
#ifndef CUDA_EMU
    {"vendor_thrust_inner_product", vendor_thrust_inner_product},
    {"vendor_cublas_sdot", vendor_cublas_sdot},
#endif
    {"v4_vector_loads", v4_vector_loads},
};

extern "C" const lab_ladder LAB_LADDER = {sizeof RUNGS / sizeof RUNGS[0], RUNGS};
