/* cuda_check.h - one way to check every CUDA runtime call.
 *
 * Students may include this in their lab file. CUDA calls report failure
 * through their return value and through a "sticky" error that later calls
 * keep returning; checking every call is how a fault is found where it
 * happens instead of three calls later.
 *
 *   CUDA_CHECK(cudaMalloc(&d_x, bytes));   // prints call, file:line, aborts
 *   CUDA_RETURN_IF_ERROR(cudaGetLastError()); // returns the error instead
 */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

/* Abort with the failing call's text and location: for programs with a main. */
#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t cuda_check_err_ = (call);                                 \
        if (cuda_check_err_ != cudaSuccess) {                                 \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__,          \
                    __LINE__, #call, cudaGetErrorName(cuda_check_err_),       \
                    cudaGetErrorString(cuda_check_err_));                     \
            exit(EXIT_FAILURE);                                               \
        }                                                                     \
    } while (0)

/* Hand the error back to the caller: for lab entry points, which must never
 * exit the grader's process. */
#define CUDA_RETURN_IF_ERROR(call)                                            \
    do {                                                                      \
        cudaError_t cuda_check_err_ = (call);                                 \
        if (cuda_check_err_ != cudaSuccess) return cuda_check_err_;           \
    } while (0)

#endif
