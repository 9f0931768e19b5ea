/* SPDX-License-Identifier: MIT */
/*
 * memory.c: device allocation, strided matrix copies, and the one 2D copy
 * (cudaMemcpy2DAsync within its pitch limit) that every copy of lib/ uses.
 */
#include <limits.h>

#include "internal.h"

gputile_status gputile_device_alloc(void **ptr, size_t bytes)
{
    if (ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    void *p = NULL;
    gputile_status s = gputile__cuda_status(cudaMalloc(&p, bytes));
    if (s == GPUTILE_SUCCESS) /* a failure is cleared by gputile__cuda_status(): not sticky */
        *ptr = p;
    return s;
}

gputile_status gputile_device_free(void *ptr)
{
    if (ptr == NULL)
        return GPUTILE_SUCCESS;
    return gputile__cuda_status(cudaFree(ptr));
}

/* cudaMemcpy2D rejects pitches above the device's memPitch (2^31 - 1 bytes
 * on current GPUs); this bound keeps well inside it. */
#define PITCH_LIMIT ((size_t)INT_MAX)

cudaError_t gputile__memcpy2d_async(gputile__rect dst, gputile__rect src, cudaStream_t stream)
{
    cudaError_t err = cudaSuccess;
    if (src.width == 0 || src.height == 0)
        return cudaSuccess;
    if (src.height == 1)
        return cudaMemcpyAsync(dst.ptr, src.ptr, src.width, cudaMemcpyDefault, stream);
    if (dst.pitch <= PITCH_LIMIT && src.pitch <= PITCH_LIMIT)
        return cudaMemcpy2DAsync(dst.ptr, dst.pitch, src.ptr, src.pitch, src.width, src.height,
                                 cudaMemcpyDefault, stream);
    for (size_t r = 0; r < src.height && err == cudaSuccess; ++r)
        err = cudaMemcpyAsync(dst.ptr + r * dst.pitch, src.ptr + r * src.pitch, src.width,
                              cudaMemcpyDefault, stream);
    return err;
}

gputile_status gputile_matrix_copy(gputile_matrix dst, gputile_matrix src,
                                   struct CUstream_st *stream)
{
    gputile__memory dst_at, src_at;
    gputile_status s;

    if ((s = gputile__check_matrix(dst)) != GPUTILE_SUCCESS ||
        (s = gputile__check_matrix(src)) != GPUTILE_SUCCESS)
        return s;
    if (dst.width != src.width || dst.height != src.height)
        return GPUTILE_ERROR_SHAPE_MISMATCH;
    if (gputile__is_empty(src))
        return GPUTILE_SUCCESS;
    if (gputile__overlap(dst, src))
        return GPUTILE_ERROR_ALIASING;
    if ((s = gputile__memory_of(dst, &dst_at)) != GPUTILE_SUCCESS ||
        (s = gputile__memory_of(src, &src_at)) != GPUTILE_SUCCESS)
        return s;
    const bool host = dst_at == GPUTILE__MEMORY_HOST || src_at == GPUTILE__MEMORY_HOST;
    if (host && (s = gputile__refuse_capture(stream)) != GPUTILE_SUCCESS)
        return s; /* complete on return: no graph can promise that */
    if ((s = gputile__cuda_status(gputile__memcpy2d_async(
             gputile__matrix_rect(dst), gputile__matrix_rect(src), stream))) != GPUTILE_SUCCESS)
        return s;
    if (host)
        s = gputile__cuda_status(cudaStreamSynchronize(stream));
    return s;
}
