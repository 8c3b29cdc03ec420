/* WRONG ON PURPOSE: C is written with float4 stores, one per thread, four
 * outputs in memory order (they may run on into the next row). d_c is
 * only 4-byte aligned, so the float4 slots start at the 16-byte boundary
 * at or below d_c; each output is its own dot product, computed only for
 * the lanes inside C (0 <= e < m*n, no reads outside A or B), and the last
 * slot, which may reach past the end of C, is stored float by float. But
 * only the end was checked: the first slot is stored whole, so when d_c is
 * not 16-byte aligned up to 3 zeros land in front of C. Every element of
 * C is right. Work's pointers are aligned, so it passes; right offsets
 * d_c by 4, 8 or 12 bytes, and the first slot writes into the guard bytes
 * in front of it.
 * REPORT-SAYS: a vector store rounded below C's start
 */
#include <stdint.h>

#include <cuda_runtime.h>

#define THREADS 256

/* C[e / n][e % n] = sum over p of A[e / n][p] * B[p][e % n]. */
__device__ float output(const float *a, const float *b, long long e, int n, int k)
{
    long long row = e / n, col = e % n;
    float sum = 0.0f;
    for (int p = 0; p < k; p++) sum += a[row * k + p] * b[(long long)p * n + col];
    return sum;
}

/* Thread s owns the s-th aligned float4 slot from the 16-byte boundary at
 * or below c: the outputs e = 4 s - lead .. 4 s - lead + 3 (lead: the
 * floats between that boundary and c, 0 to 3). */
__global__ void matmul_float4_slots(const float *a, const float *b, float *c, int n, int k,
                                    long long total, int lead)
{
    long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long first = 4 * s - lead; /* negative in slot 0 when lead > 0 */
    if (first >= total) return;
    float v[4];
    for (int q = 0; q < 4; q++) {
        long long e = first + q;
        v[q] = e >= 0 && e < total ? output(a, b, e, n, k) : 0.0f;
    }
    if (first + 4 <= total) {
        /* The mistake: "the slot is aligned, so it may be stored whole";
         * only its end was checked, and slot 0 begins in front of c. */
        reinterpret_cast<float4 *>(c - lead)[s] = make_float4(v[0], v[1], v[2], v[3]);
    } else {
        for (int q = 0; q < 4; q++) /* the last slot, float by float up to the end */
            if (first + q < total) c[first + q] = v[q];
    }
}

extern "C" cudaError_t matmul(const float *d_a, const float *d_b, float *d_c, int m, int n,
                              int k, cudaStream_t stream)
{
    if (m == 0 || n == 0) return cudaSuccess;
    long long total = (long long)m * n;
    int lead = (int)(((uintptr_t)d_c & 15) / sizeof(float));
    long long slots = (lead + total + 3) / 4;
    matmul_float4_slots<<<(unsigned)((slots + THREADS - 1) / THREADS), THREADS, 0, stream>>>(
        d_a, d_b, d_c, n, k, total, lead);
    return cudaGetLastError();
}
