// Faults the emulator must catch.  Each mode is run as its own process by
// run.sh, which checks the exit status and the emulator's message.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void write_at(float *p, int index, unsigned block, unsigned thread)
{
    if (blockIdx.x == block && threadIdx.x == thread)
        p[index] = 1.0f;
}

__global__ void read_at(const float *p, int index, float *sink)
{
    if (threadIdx.x == 0)
        *sink = p[index];
}

__global__ void shared_overflow(float *out)
{
    __shared__ float tile[64];
    tile[threadIdx.x] = (float)threadIdx.x; // 65 threads: thread 64 writes past the end
    __syncthreads();
    out[0] = tile[0];
}

__global__ void dynamic_overflow(float *out)
{
    extern __shared__ float buffer[];
    buffer[threadIdx.x] = 1.0f; // the launch asks for 32 floats, 33 threads write
    out[0] = buffer[0];
}

__global__ void misaligned_vector(const float *p, float *out)
{
    const float4 *vectors = reinterpret_cast<const float4 *>(p + 1); // 4 bytes past a 16-byte boundary
    float4 v = vectors[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

__global__ void divergent_barrier(int *out)
{
    if (threadIdx.x < 16) {
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[threadIdx.x] = 1;
}

// A tree sum with the barrier inside the shrinking branch: thread 16
// waits at it for step 32, then skips it for step 16 and ends.
__global__ void barrier_in_shrinking_branch(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = 1;
    __syncthreads();
    for (unsigned int step = 32; step > 0; step /= 2) {
        if (threadIdx.x < step) {
            s[threadIdx.x] += s[threadIdx.x + step];
            __syncthreads();
        }
    }
    if (threadIdx.x == 0) out[0] = s[0];
}

// The usual bounds check before barriers: the threads that returned never
// reached a barrier, so the others pass it; nothing to report.
__global__ void early_return_then_barriers(int *out)
{
    __shared__ int s[64];
    if (threadIdx.x >= 40) return;
    for (int k = 0; k < 3; k++) {
        s[threadIdx.x] = k + (int)threadIdx.x;
        __syncthreads();
    }
    out[threadIdx.x] = s[(threadIdx.x + 1) % 40];
}

__global__ void warp_deadlock(int *out)
{
    int v = (int)threadIdx.x;
    if (threadIdx.x < 16)
        v = __shfl_down_sync(0xffffffffu, v, 1); // lanes 16..31 never come: they wait at the barrier
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void small_block_warp_sum(int *out)
{
    int v = (int)threadIdx.x;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset); // a block of 16: lanes 16..31 do not exist
    out[threadIdx.x] = v;
}

// Lanes 16..31 return while lanes 0..15 read them in a full-warp shuffle.
// Whichever comes last completes the shuffle: a reader's arrival or the
// exit of a lane it reads; the read is reported either way.
__global__ void shuffle_from_an_exited_lane(int *out)
{
    int v = (int)threadIdx.x;
    if (threadIdx.x >= 16) return;
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 16);
}

__global__ void trap_kernel() { __trap(); }

__global__ void divide(int *out, int by) { out[threadIdx.x] = 100 / by; }

/* *to = *from: on the GPU a vector load and a vector store, each of which
 * must be aligned; only the load is misaligned here. */
__global__ void misaligned_vector_assigned(const float *p, float *out)
{
    const float4 *from = reinterpret_cast<const float4 *>(p + 1);
    float4 *to = reinterpret_cast<float4 *>(out);
    to[threadIdx.x] = from[threadIdx.x];
}

static int run(const char *mode)
{
    float *d, *sink;
    cudaMalloc(&d, 64 * sizeof(float)); // 256 bytes: its end touches the guard page
    cudaMalloc(&sink, 64 * sizeof(float));
    if (!std::strcmp(mode, "global_write_past_end")) {
        write_at<<<2, 64>>>(d, 64, 1, 32);
    } else if (!std::strcmp(mode, "global_read_far_past_end")) {
        read_at<<<1, 32>>>(d, 64 + 4000, sink); // 16000 bytes past the end
    } else if (!std::strcmp(mode, "global_write_in_slack")) {
        float *odd;
        cudaMalloc(&odd, 100 * sizeof(float)); // 400 bytes: 112 bytes of slack to the next 256
        write_at<<<1, 32>>>(odd, 101, 0, 5);
    } else if (!std::strcmp(mode, "global_write_before_start")) {
        write_at<<<1, 32>>>(d, -1, 0, 3);
    } else if (!std::strcmp(mode, "shared_write_past_end")) {
        shared_overflow<<<1, 65>>>(sink);
    } else if (!std::strcmp(mode, "dynamic_shared_past_end")) {
        dynamic_overflow<<<1, 33, 32 * sizeof(float)>>>(sink);
    } else if (!std::strcmp(mode, "misaligned_float4")) {
        misaligned_vector<<<1, 4>>>(d, sink);
    } else if (!std::strcmp(mode, "misaligned_float4_assigned")) {
        misaligned_vector_assigned<<<1, 4>>>(d, sink);
    } else if (!std::strcmp(mode, "use_after_free")) {
        cudaFree(d);
        read_at<<<1, 1>>>(d, 0, sink);
    } else if (!std::strcmp(mode, "null_pointer")) {
        write_at<<<1, 1>>>(nullptr, 0, 0, 0);
    } else if (!std::strcmp(mode, "trap")) {
        trap_kernel<<<1, 1>>>();
    } else if (!std::strcmp(mode, "integer_division_by_zero")) {
        divide<<<1, 1>>>((int *)d, 0);
    } else if (!std::strcmp(mode, "host_segfault")) {
        volatile int *nowhere = nullptr;
        *nowhere = 1; // host code: an ordinary crash, not an emulator report
    } else if (!std::strcmp(mode, "divergent_barrier") || !std::strcmp(mode, "warp_deadlock") ||
               !std::strcmp(mode, "shuffle_from_a_missing_lane") ||
               !std::strcmp(mode, "shuffle_from_an_exited_lane") ||
               !std::strcmp(mode, "barrier_left_behind") ||
               !std::strcmp(mode, "early_return_then_barriers")) {
        if (!std::strcmp(mode, "divergent_barrier"))
            divergent_barrier<<<1, 32>>>((int *)d);
        else if (!std::strcmp(mode, "barrier_left_behind"))
            barrier_in_shrinking_branch<<<1, 64>>>((int *)d);
        else if (!std::strcmp(mode, "early_return_then_barriers"))
            early_return_then_barriers<<<1, 64>>>((int *)d);
        else if (!std::strcmp(mode, "warp_deadlock"))
            warp_deadlock<<<1, 32>>>((int *)d);
        else if (!std::strcmp(mode, "shuffle_from_an_exited_lane"))
            shuffle_from_an_exited_lane<<<1, 32>>>((int *)d);
        else
            small_block_warp_sum<<<1, 16>>>((int *)d);
        // The error is sticky, as after a fault on the GPU.
        cudaError_t sync = cudaDeviceSynchronize();
        cudaError_t first = cudaGetLastError();
        cudaError_t second = cudaGetLastError();
        void *more = nullptr;
        cudaError_t malloc_after = cudaMalloc(&more, 16);
        write_at<<<1, 1>>>(d, 0, 0, 0);
        cudaError_t launch_after = cudaGetLastError();
        cudaError_t reset = cudaDeviceReset();
        cudaError_t after_reset = cudaMalloc(&more, 16);
        std::printf("sync=%s first=%s second=%s malloc=%s launch=%s reset=%s after_reset=%s\n",
                    cudaGetErrorName(sync), cudaGetErrorName(first), cudaGetErrorName(second),
                    cudaGetErrorName(malloc_after), cudaGetErrorName(launch_after), cudaGetErrorName(reset),
                    cudaGetErrorName(after_reset));
        return 0;
    } else {
        std::fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    cudaError_t error = cudaDeviceSynchronize();
    std::printf("kernel finished: %s\n", cudaGetErrorName(error));
    return 0;
}

int main(int argc, char **argv) { return argc == 2 ? run(argv[1]) : 2; }
