/* SPDX-License-Identifier: MIT */
/*
 * gemm_shapes.h: what the GEMM suites share: the foundation suite's table
 * of shapes (sizes, primes, 1 x n, k = 1, strides, offsets, transposes,
 * alpha and beta), and matrices placed as views inside larger parents
 * with guard rows and columns around them.
 */
#ifndef GPUTILE_TEST_GEMM_SHAPES_H
#define GPUTILE_TEST_GEMM_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include "gputile.h"

#define GUARD 3 /* rows above and below every view */

struct gemm_case {
    int m, n, k; /* -1: drawn in [1, 2000] each run */
    int ta, tb;
    float alpha, beta;
    int extra; /* stride - (offset + width): columns right of the view */
    int off;   /* rows and columns before the view in its parent */
};

extern struct gemm_case gputest_gemm_cases[];
extern const size_t gputest_gemm_ncases;

/* A view of height x width at (GUARD + off, off) of a parent with `extra`
 * spare columns on the right and GUARD spare rows below. */
typedef struct placed {
    size_t parent_height, stride, row0, col0, height, width;
    float *host; /* parent, host copy */
    float *dev;  /* parent, device copy */
} placed;

void gputest_place(placed *p, size_t height, size_t width, int off, int extra);
void gputest_unplace(placed *p);
bool gputest_inside(const placed *p, size_t r, size_t c);
size_t gputest_parent_size(const placed *p);
gputile_matrix gputest_view_of(const placed *p, float *parent);
void gputest_upload(placed *p);
void gputest_download(const placed *p, float *to);

#endif
