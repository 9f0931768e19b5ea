/* SPDX-License-Identifier: MIT */
/*
 * matrix.c: checks on gputile_matrix values, overlap, and where their
 * memory lives (through pointer.c's classifier).
 */
#include <stdint.h>

#include "internal.h"

/* Elements from (0, 0) to (height - 1, width - 1), or 0 on overflow. */
static size_t extent_elements(gputile_matrix m)
{
    size_t n; /* no division: a batch of views checks three matrices a problem */
    if (__builtin_mul_overflow(m.height - 1, m.stride, &n) ||
        __builtin_add_overflow(n, m.width, &n))
        return 0;
    return n;
}

gputile_status gputile__check_matrix(gputile_matrix m)
{
    if (m.stride < m.width)
        return GPUTILE_ERROR_INVALID_MATRIX;
    if (gputile__is_empty(m))
        return GPUTILE_SUCCESS;
    if (m.elements == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    /* A float pointer off a 4-byte boundary would stop a kernel with a
     * misaligned-address error, which is sticky: reject it here. */
    if ((uintptr_t)m.elements % sizeof(float) != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    size_t n = extent_elements(m);
    /* Kernels index with int64_t: keep byte offsets below 2^63 as well. */
    if (n == 0 || n > (SIZE_MAX / 2) / sizeof(float))
        return GPUTILE_ERROR_OVERFLOW;
    if ((uintptr_t)m.elements > UINTPTR_MAX - n * sizeof(float))
        return GPUTILE_ERROR_OVERFLOW;
    return GPUTILE_SUCCESS;
}

/* Is delta = row_delta * stride + col_delta solvable with row_delta in
 * (-y.height, x.height) and col_delta in (-y.width, x.width)? Since every
 * |col_delta| < stride, only two row deltas can work. */
static bool same_stride_overlap(gputile_matrix x, gputile_matrix y, int64_t delta)
{
    const int64_t s = (int64_t)x.stride;
    int64_t q = delta / s, r = delta % s;
    if (r < 0) {
        r += s;
        q -= 1;
    }
    for (int i = 0; i < 2; ++i, ++q, r -= s) {
        bool rows = q > -(int64_t)y.height && q < (int64_t)x.height;
        bool cols = r > -(int64_t)y.width && r < (int64_t)x.width;
        if (rows && cols)
            return true;
    }
    return false;
}

/* floor(a / b) for b > 0 */
static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Rows of x that meet y's extent, each checked against the rows of y it
 * could meet, where the strides differ: x's first element is d elements
 * past y's (d may be negative; the extents meet). Row i of x covers
 * [d + i sx, d + i sx + wx) of y's elements, and meets row j of y when
 * j sy < d + i sx + wx and j sy + wy > d + i sx. More than ROWS_CHECKED
 * such rows: reported as overlapping (conservative, the man pages). */
#define ROWS_CHECKED 4096
static bool rows_overlap(gputile_matrix x, gputile_matrix y, int64_t d)
{
    const int64_t sx = (int64_t)x.stride, sy = (int64_t)y.stride, wx = (int64_t)x.width;
    const int64_t wy = (int64_t)y.width, ly = (int64_t)extent_elements(y);
    int64_t i_lo = floor_div(-d - wx, sx) + 1; /* d + i sx + wx > 0 */
    int64_t i_hi = floor_div(ly - 1 - d, sx);  /* d + i sx < ly */
    i_lo = i_lo < 0 ? 0 : i_lo;
    i_hi = i_hi > (int64_t)x.height - 1 ? (int64_t)x.height - 1 : i_hi;
    if (i_hi - i_lo >= ROWS_CHECKED)
        return true;
    for (int64_t i = i_lo; i <= i_hi; ++i) {
        const int64_t a = d + i * sx;
        const int64_t j_lo = floor_div(a - wy, sy) + 1, j_hi = floor_div(a + wx - 1, sy);
        if (j_lo <= j_hi && j_hi >= 0 && j_lo <= (int64_t)y.height - 1)
            return true;
    }
    return false;
}

bool gputile__overlap(gputile_matrix x, gputile_matrix y)
{
    if (gputile__is_empty(x) || gputile__is_empty(y))
        return false;
    uintptr_t x0 = (uintptr_t)x.elements, y0 = (uintptr_t)y.elements;
    uintptr_t x1 = x0 + extent_elements(x) * sizeof(float);
    uintptr_t y1 = y0 + extent_elements(y) * sizeof(float);
    if (x1 <= y0 || y1 <= x0)
        return false;
    /* The ranges overlap (so the distance fits in int64_t). */
    intptr_t bytes = (intptr_t)(y0 - x0);
    if (bytes % (intptr_t)sizeof(float) != 0)
        return true; /* (never for checked matrices: elements are 4-byte aligned) */
    const int64_t delta = (int64_t)(bytes / (intptr_t)sizeof(float));
    /* A one-row matrix never steps a row: any stride of at least its width
     * describes it; take the other's, or its width. (This also covers a
     * stride past INT64_MAX, which only one row can have.) */
    if (x.height == 1)
        x.stride = y.height > 1 && x.width <= y.stride ? y.stride : x.width;
    if (y.height == 1)
        y.stride = x.height > 1 && y.width <= x.stride ? x.stride : y.width;
    if (x.stride == y.stride) /* the exact answer is cheap */
        return same_stride_overlap(x, y, delta);
    /* Different strides: row by row, from the matrix with fewer rows. */
    return x.height <= y.height ? rows_overlap(x, y, -delta) : rows_overlap(y, x, delta);
}

gputile_status gputile__memory_of(gputile_matrix m, gputile__memory *where)
{
    gputile__pointer_kind kind;
    cudaError_t err = gputile__pointer_kind_of(m.elements, 0, &kind);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    switch (kind) {
    case GPUTILE__POINTER_DEVICE_OTHER:
        return GPUTILE_ERROR_WRONG_DEVICE;
    case GPUTILE__POINTER_DEVICE:
    case GPUTILE__POINTER_MANAGED:
        *where = GPUTILE__MEMORY_DEVICE;
        return GPUTILE_SUCCESS;
    default: /* pinned or pageable host memory */
        *where = GPUTILE__MEMORY_HOST;
        return GPUTILE_SUCCESS;
    }
}
