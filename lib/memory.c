/*
 * memory.c: device allocation and strided matrix copies.
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
    if (s == GPUTILE_SUCCESS)
        *ptr = p;
    else
        (void)cudaGetLastError(); /* allocation failures are not sticky */
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

gputile_status gputile__copy_matrix(gputile_matrix dst, gputile_matrix src, cudaStream_t stream)
{
    const size_t row_bytes = src.width * sizeof(float);
    const size_t dpitch = dst.stride * sizeof(float), spitch = src.stride * sizeof(float);
    cudaError_t err = cudaSuccess;

    if (gputile__is_empty(src))
        return GPUTILE_SUCCESS;
    if (src.height == 1)
        err = cudaMemcpyAsync(dst.elements, src.elements, row_bytes, cudaMemcpyDefault, stream);
    else if (dpitch <= PITCH_LIMIT && spitch <= PITCH_LIMIT)
        err = cudaMemcpy2DAsync(dst.elements, dpitch, src.elements, spitch, row_bytes, src.height,
                                cudaMemcpyDefault, stream);
    else
        for (size_t r = 0; r < src.height && err == cudaSuccess; ++r)
            err = cudaMemcpyAsync(dst.elements + r * dst.stride, src.elements + r * src.stride,
                                  row_bytes, cudaMemcpyDefault, stream);
    return gputile__cuda_status(err);
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
    if ((s = gputile__copy_matrix(dst, src, stream)) != GPUTILE_SUCCESS)
        return s;
    if (dst_at == GPUTILE__MEMORY_HOST || src_at == GPUTILE__MEMORY_HOST)
        s = gputile__cuda_status(cudaStreamSynchronize(stream));
    return s;
}
