/* SPDX-License-Identifier: MIT */
/*
 * counts_add.h: dst[i] += src[i] over 64-bit counts (internal; issue 22:
 * the distributed histogram's ACCUMULATE mode adds the reduced total to
 * the caller's counts).
 */
#ifndef GPUTILE_KERNELS_COUNTS_ADD_H
#define GPUTILE_KERNELS_COUNTS_ADD_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] += src[i] for i < n (n >= 1), device memory, on stream. */
cudaError_t gputile__counts_add(uint64_t *dst, const uint64_t *src, size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_KERNELS_COUNTS_ADD_H */
