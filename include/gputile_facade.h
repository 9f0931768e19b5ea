/* SPDX-License-Identifier: MIT */
/*
 * gputile_facade.h: header-only helpers built on gputile.h.
 *
 * Everything here is `static inline`: including this header adds no symbol
 * to a program or to libgputile.a. Compiled by nvcc, the element accessors
 * and the unchecked sub-matrix view are also __device__ functions, the
 * Programming Guide's GetElement / SetElement / GetSubMatrix, for use in
 * your own kernels.
 */
#ifndef GPUTILE_FACADE_H
#define GPUTILE_FACADE_H

#include "gputile.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GPUTILE_HD __host__ __device__
#else
#define GPUTILE_HD
#endif

/* Device allocations round each row up to this many elements (128 bytes) so
 * that every row starts aligned for 16-byte vector loads. */
#define GPUTILE_DEVICE_ROW_ALIGN 32u

/* A view of existing memory: width columns, height rows, stride elements
 * between row starts. Checks nothing; gputile_gemm() validates. */
static inline GPUTILE_HD gputile_matrix gputile_matrix_view(float *elements, size_t width,
                                                            size_t height, size_t stride)
{
    gputile_matrix m;
    m.width = width;
    m.height = height;
    m.stride = stride;
    m.elements = elements;
    return m;
}

/* GetElement: element (row, col). Unchecked, like the Programming Guide's. */
static inline GPUTILE_HD float gputile_get_element(gputile_matrix m, size_t row, size_t col)
{
    return m.elements[row * m.stride + col];
}

/* SetElement: element (row, col) = value. Unchecked. */
static inline GPUTILE_HD void gputile_set_element(gputile_matrix m, size_t row, size_t col,
                                                  float value)
{
    m.elements[row * m.stride + col] = value;
}

/* GetSubMatrix for any rectangle: height x width elements starting at
 * (row, col), sharing the parent's memory and stride. Unchecked. An empty
 * view keeps the parent's pointer: at the parent's far corner the offset
 * would point more than one past its end, which C does not allow. */
static inline GPUTILE_HD gputile_matrix gputile_get_submatrix(gputile_matrix m, size_t row,
                                                              size_t col, size_t width,
                                                              size_t height)
{
    if (width == 0 || height == 0)
        return gputile_matrix_view(m.elements, width, height, m.stride);
    return gputile_matrix_view(m.elements + row * m.stride + col, width, height, m.stride);
}

/* Checked sub-matrix: *out = the width x height view at (row, col), or an
 * error and *out untouched. Empty views at the edge (row == height or
 * col == width with a zero size) are allowed. The parent passes the
 * library's own extent rule (below 2^63 bytes, not wrapping the address
 * space), so no view's offset wraps. */
static inline gputile_status gputile_submatrix(gputile_matrix m, size_t row, size_t col,
                                               size_t width, size_t height, gputile_matrix *out)
{
    const size_t most = (size_t)-1 / 2 / sizeof(float); /* elements below 2^63 bytes */

    if (out == NULL || m.elements == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (m.stride < m.width)
        return GPUTILE_ERROR_INVALID_MATRIX;
    if (m.width != 0 && m.height != 0 &&
        (m.width > most || m.height - 1 > (most - m.width) / m.stride ||
         (uintptr_t)m.elements >
             UINTPTR_MAX - ((m.height - 1) * m.stride + m.width) * sizeof(float)))
        return GPUTILE_ERROR_OVERFLOW;
    if (row > m.height || col > m.width || height > m.height - row || width > m.width - col)
        return GPUTILE_ERROR_OUT_OF_BOUNDS;
    *out = gputile_get_submatrix(m, row, col, width, height);
    return GPUTILE_SUCCESS;
}

/* Allocates a width x height device matrix, its stride rounded up to
 * GPUTILE_DEVICE_ROW_ALIGN elements. On error *m is untouched. */
static inline gputile_status gputile_matrix_alloc_device(gputile_matrix *m, size_t width,
                                                         size_t height)
{
    size_t stride, bytes;
    void *p = NULL;
    gputile_status s;

    if (m == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (width > (size_t)-1 - GPUTILE_DEVICE_ROW_ALIGN)
        return GPUTILE_ERROR_OVERFLOW;
    stride = (width + GPUTILE_DEVICE_ROW_ALIGN - 1) / GPUTILE_DEVICE_ROW_ALIGN *
             GPUTILE_DEVICE_ROW_ALIGN;
    if (height != 0 && stride > (size_t)-1 / sizeof(float) / height)
        return GPUTILE_ERROR_OVERFLOW;
    bytes = height * stride * sizeof(float);
    if (bytes != 0) {
        s = gputile_device_alloc(&p, bytes);
        if (s != GPUTILE_SUCCESS)
            return s;
    }
    *m = gputile_matrix_view((float *)p, width, height, stride);
    return GPUTILE_SUCCESS;
}

/* Frees a matrix from gputile_matrix_alloc_device() and clears *m. */
static inline gputile_status gputile_matrix_free_device(gputile_matrix *m)
{
    gputile_status s;

    if (m == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    s = gputile_device_free(m->elements);
    if (s == GPUTILE_SUCCESS)
        *m = gputile_matrix_view(NULL, 0, 0, 0);
    return s;
}

#ifdef __cplusplus
}
#endif

#endif /* GPUTILE_FACADE_H */
