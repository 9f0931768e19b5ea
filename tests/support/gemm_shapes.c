/* SPDX-License-Identifier: MIT */
/*
 * gemm_shapes.c: see gemm_shapes.h.
 */
#include <stdlib.h>

#include <criterion/criterion.h>

#include "gemm_shapes.h"
#include "gpu.h"

#define N GPUTILE_OP_N
#define T GPUTILE_OP_T
#define CASE(m, n, k, ta, tb, al, be, ex, of) \
    {                                         \
        m, n, k, ta, tb, al, be, ex, of       \
    }

struct gemm_case gputest_gemm_cases[] = {
    CASE(1, 1, 1, N, N, 1, 0, 0, 0),
    CASE(1, 1, 1000, N, N, 1, 0, 0, 0),
    CASE(1, 777, 33, N, N, 1, 0, 0, 0),
    CASE(777, 1, 33, N, N, 1, 0, 0, 0),
    CASE(1, 2000, 1, N, N, 1, 0, 1, 1),
    CASE(2000, 1, 2000, N, N, 1, 0, 1, 1),
    CASE(300, 200, 1, N, N, 1, 0, 0, 0),
    CASE(64, 64, 1, T, T, 2, 1, 0, 0),
    CASE(16, 16, 16, N, N, 1, 0, 0, 0),
    CASE(15, 17, 16, N, N, 1, 0, 0, 0),
    CASE(17, 15, 31, N, N, 1, 0, 0, 0),
    CASE(32, 48, 64, N, N, 1, 0, 0, 0),
    CASE(7, 13, 31, N, N, 1, 0, 0, 0),
    CASE(61, 127, 257, N, N, 1, 0, 3, 1),
    CASE(509, 1021, 127, N, N, 1, 0, 5, 7),
    CASE(2003, 1999, 1997, N, N, 1, 0, 0, 0),
    CASE(1021, 509, 2003, N, N, 0.5f, 0, 1, 3),
    CASE(2000, 3, 50, N, N, 1, 0, 0, 0),
    CASE(3, 2000, 50, N, N, 1, 0, 0, 0),
    CASE(2000, 8, 2000, N, N, 1, 0, 9, 2),
    CASE(8, 2000, 2000, N, N, 1, 0, 9, 2),
    CASE(64, 64, 2000, N, N, 1, 0, 0, 0),
    CASE(1000, 1000, 1000, N, N, 1, 0, 0, 0),
    CASE(1024, 1024, 1024, N, N, 1, 0, 0, 0),
    CASE(1025, 1023, 1024, N, N, 1, 0, 1, 1),
    /* transposes */
    CASE(100, 90, 70, T, N, 1, 0, 0, 0),
    CASE(100, 90, 70, N, T, 1, 0, 0, 0),
    CASE(100, 90, 70, T, T, 1, 0, 0, 0),
    CASE(1, 500, 300, T, N, 1, 0, 2, 1),
    CASE(500, 1, 300, N, T, 1, 0, 2, 1),
    CASE(513, 257, 129, T, T, -1, 0, 7, 5),
    CASE(1999, 1001, 333, T, N, 1, 0, 1, 1),
    CASE(1001, 1999, 333, N, T, 1, 0, 1, 1),
    CASE(33, 65, 2001, T, T, 1, 0, 0, 0),
    /* alpha and beta */
    CASE(200, 300, 100, N, N, 2, 1, 0, 0),
    CASE(200, 300, 100, N, N, -1, -2, 1, 1),
    CASE(200, 300, 100, N, N, 0.5f, 0.25f, 0, 3),
    CASE(200, 300, 100, T, N, 3, -1, 2, 0),
    CASE(200, 300, 100, N, T, -0.25f, 2, 0, 2),
    CASE(200, 300, 100, T, T, 1, 1, 4, 4),
    CASE(123, 45, 67, N, N, 0, 2, 1, 1), /* alpha = 0: C = beta C */
    CASE(123, 45, 67, N, N, 0, 0, 1, 1), /* alpha = beta = 0: C = 0 */
    CASE(123, 45, 0, N, N, 1, -1, 1, 1), /* k = 0: C = beta C */
    CASE(123, 45, 0, T, T, 1, 0, 0, 0),  /* k = 0, beta = 0: C = 0 */
    CASE(0, 45, 67, N, N, 1, 1, 1, 1),   /* m = 0: no-op */
    CASE(45, 0, 67, N, N, 1, 1, 1, 1),   /* n = 0: no-op */
    CASE(0, 0, 0, N, N, 1, 1, 0, 0),
    /* strides and odd offsets */
    CASE(129, 131, 137, N, N, 1, 0, 1, 1),
    CASE(129, 131, 137, N, N, 1, 0, 3, 5),
    CASE(129, 131, 137, T, T, 1, 0, 13, 11),
    CASE(250, 250, 250, N, N, 1, 1, 100, 17),
    /* more than 65535 rows of 16-row tiles is too large for a test; rows of
     * tiles beyond gridDim.y are covered by the grid-stride loop at m > 2^20 */
    CASE(4, 4096, 4, N, N, 1, 0, 0, 0),
    CASE(4096, 4, 4, N, N, 1, 0, 0, 0),
    /* rows 16-byte aligned (every stride a multiple of 4) with ragged edges:
     * the paths that load 16 bytes at a time, including partial vectors */
    CASE(132, 258, 70, N, N, 1, 0, 2, 0),
    CASE(130, 258, 70, T, T, 1, 1, 2, 0),
    CASE(130, 258, 70, N, T, -1, 0, 2, 0),
    CASE(130, 258, 70, T, N, 2, 0.5f, 2, 0),
    CASE(512, 384, 1000, T, N, 1, 1, 0, 0),
    /* large, rows not aligned, 1..4 leftover rows and columns: AUTO's
     * 128x256 tiles with the thin-edge kernel (4097^3 in small) */
    CASE(3011, 3074, 301, N, N, 1, 0, 1, 1),
    CASE(3012, 3073, 301, T, T, 2, 0.5f, 3, 5),
    /* random shapes, fresh each run */
    CASE(-1, -1, -1, N, N, 1, 0, 1, 1),
    CASE(-1, -1, -1, T, N, 1, 0, 0, 3),
    CASE(-1, -1, -1, N, T, 2, 1, 2, 0),
    CASE(-1, -1, -1, T, T, -1, 0.5f, 5, 5),
    CASE(-1, -1, -1, N, N, 1, 0, 0, 0),
    CASE(-1, -1, -1, N, N, 0.5f, -1, 7, 1),
};

const size_t gputest_gemm_ncases = sizeof gputest_gemm_cases / sizeof gputest_gemm_cases[0];

void gputest_place(placed *p, size_t height, size_t width, int off, int extra)
{
    p->height = height;
    p->width = width;
    p->row0 = GUARD + (size_t)off;
    p->col0 = (size_t)off;
    p->stride = p->col0 + width + (size_t)extra;
    if (p->stride == 0)
        p->stride = 1; /* cuBLAS wants ld >= 1 */
    p->parent_height = p->row0 + height + GUARD;
    size_t bytes = p->parent_height * p->stride * sizeof(float);
    p->host = malloc(bytes);
    cr_assert_not_null(p->host);
    GPUTEST_CUDA(gputest_malloc((void **)&p->dev, bytes));
}

void gputest_unplace(placed *p)
{
    free(p->host);
    GPUTEST_CUDA(cudaFree(p->dev));
}

bool gputest_inside(const placed *p, size_t r, size_t c)
{
    return r >= p->row0 && r < p->row0 + p->height && c >= p->col0 && c < p->col0 + p->width;
}

size_t gputest_parent_size(const placed *p)
{
    return p->parent_height * p->stride;
}

gputile_matrix gputest_view_of(const placed *p, float *parent)
{
    gputile_matrix m = {p->width, p->height, p->stride, parent + p->row0 * p->stride + p->col0};
    return m;
}

void gputest_upload(placed *p)
{
    GPUTEST_CUDA(cudaMemcpy(p->dev, p->host, gputest_parent_size(p) * sizeof(float),
                            cudaMemcpyHostToDevice));
}

void gputest_download(const placed *p, float *to)
{
    GPUTEST_CUDA(
        cudaMemcpy(to, p->dev, gputest_parent_size(p) * sizeof(float), cudaMemcpyDeviceToHost));
}
