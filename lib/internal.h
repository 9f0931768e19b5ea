/*
 * internal.h: what lib/'s files share (never installed).
 */
#ifndef GPUTILE_INTERNAL_H
#define GPUTILE_INTERNAL_H

#include <stdbool.h>
#include <cuda_runtime_api.h>

#include "gputile.h"

/* Records `err` as this thread's last CUDA error and returns the status that
 * stands for it (cudaSuccess -> GPUTILE_SUCCESS). */
gputile_status gputile__cuda_status(cudaError_t err);

/* ---- matrix.c ---- */
/* True when the matrix holds no element. */
static inline bool gputile__is_empty(gputile_matrix m)
{
    return m.width == 0 || m.height == 0;
}

/* Checks one matrix on its own: stride >= width, elements non-NULL and
 * 4-byte aligned unless the matrix is empty, and its extent in bytes fits in
 * size_t. */
gputile_status gputile__check_matrix(gputile_matrix m);

/* True when some element of x and some element of y share memory (exact for
 * views with the same stride; by address ranges otherwise). */
bool gputile__overlap(gputile_matrix x, gputile_matrix y);

/* Where a matrix's memory lives, as the CUDA driver reports it. */
typedef enum gputile__memory {
    GPUTILE__MEMORY_HOST,  /* ordinary or pinned host memory: staged through the device */
    GPUTILE__MEMORY_DEVICE /* device or managed memory of the current device */
} gputile__memory;

/* Classifies m's memory. Fails with GPUTILE_ERROR_NO_DEVICE when there is
 * no driver or device, GPUTILE_ERROR_WRONG_DEVICE for another device's memory. */
gputile_status gputile__memory_of(gputile_matrix m, gputile__memory *where);

/* ---- memory.c ---- */
/* Copies src to dst (checked, same shape) on stream with cudaMemcpyDefault;
 * asynchronous as cudaMemcpy2DAsync is. Rows too far apart for a 2D copy's
 * pitch limit go one cudaMemcpyAsync per row. */
gputile_status gputile__copy_matrix(gputile_matrix dst, gputile_matrix src, cudaStream_t stream);

#endif /* GPUTILE_INTERNAL_H */
