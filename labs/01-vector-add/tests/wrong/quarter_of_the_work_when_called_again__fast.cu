/* WRONG ON PURPOSE: full work on the first call with given buffers, a
 * quarter of it on every call after that with the same ones. A student who
 * knows that the grader times a function by calling it again and again on
 * the same buffers might hope that only the first call is ever checked.
 * Every call of the work and right stages has buffers of its own, so it
 * passes them. The fast stage poisons the outputs before every timed call
 * and compares each timed call with the baseline's answer on the same
 * inputs: three quarters of every repeated call are never written, and it
 * fails with "the timed calls computed a wrong answer".
 * Must first fail the fast stage.
 */
#include <cuda_runtime.h>

__global__ void add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" cudaError_t vector_add(const float *d_a, const float *d_b, float *d_c, int n,
                                  cudaStream_t stream)
{
    static const float *last_a, *last_b;
    static float *last_c;
    static int last_n;
    int again = d_a == last_a && d_b == last_b && d_c == last_c && n == last_n;
    last_a = d_a;
    last_b = d_b;
    last_c = d_c;
    last_n = n;
    int todo = again ? n / 4 : n;
    if (todo == 0) return cudaSuccess;
    add<<<(todo + 255) / 256, 256, 0, stream>>>(d_a, d_b, d_c, todo);
    return cudaGetLastError();
}
