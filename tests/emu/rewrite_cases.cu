// Launch and __shared__ forms the rewriter must handle.  Lines whose final
// comment is the letter R are rewritten; every other line must come out byte
// for byte.
#include <cstdio>
#include <cuda_runtime.h>
#include <utility>
#include <vector>

/* a block comment: kernel<<<1, 1>>>(x); __shared__ float fake[4]; */
// a line comment: other<<<2, 2>>>(y); extern __shared__ int no[];
static const char *text = "k<<<1, 1>>>(z) and __shared__ int s[3];";
static const char *raw = R"delim(raw<<<1,1>>>(q) "__shared__" )delim";
static const char quote = '"';
static const int big = 1'000'000;
static std::vector<std::vector<std::pair<int, int>>> nested_templates;
static const bool shifted = (big >> 3) > (1 << 2) && (big >> 1) >= 0;

namespace ns {
template <class T, int N> __global__ void scaled(T *out, T base)
{
    out[threadIdx.x] = base * N + (T)threadIdx.x;
}
} // namespace ns

__global__ void sum_pair(int *out, std::pair<int, int> p, int extra) { out[threadIdx.x] = p.first + p.second + extra; }

static int f(int a, int b) { return a + b; }

template <int W> __global__ void tiles(int *out)
{
    __shared__ int tile[W][W + 1], count; // R
    extern __shared__ double dynamic_part[]; // R
    static __shared__ volatile int flags[2]; // R
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    tile[threadIdx.x % W][threadIdx.x / W] = (int)threadIdx.x;
    dynamic_part[threadIdx.x] = 0.5;
    flags[threadIdx.x % 2] = 1;
    atomicAdd(&count, 1);
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x % W][threadIdx.x / W] + count + (int)(2 * dynamic_part[0]) + flags[0];
}

int main()
{
    int *d;
    float *fd;
    cudaMalloc(&d, 64 * sizeof(int));
    cudaMalloc(&fd, 64 * sizeof(float));
    ns::scaled<int, 3><<<dim3(f(0, 1), 1), 4>>>(d, 10); // R
    int h[16];
    cudaMemcpy(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("scaled %d %d\n", h[0], h[3]);
    sum_pair<<<1, (2 * (1 + 1)), 0, 0>>>(d, std::pair<int, int>(1, 2), f(f(1, 2), 3)); // R
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("pair %d\n", h[0]);
    ns::scaled<float, 2> // R
        <<<1, // R
           2>>>(fd, // R
                1.5f);
    float g[2];
    cudaMemcpy(g, fd, sizeof g, cudaMemcpyDeviceToHost);
    std::printf("multiline %g %g\n", g[0], g[1]);
    tiles<4><<<1, 16, 16 * sizeof(double)>>>(d); // R
    cudaMemcpy(h, d, 16 * sizeof(int), cudaMemcpyDeviceToHost);
    std::printf("tiles %d %d %s\n", h[0], h[15], cudaGetErrorName(cudaGetLastError()));
    std::printf("%s %s %c %d %zu %d\n", text, raw, quote, big, nested_templates.size(), (int)shifted);
    return 0;
}
