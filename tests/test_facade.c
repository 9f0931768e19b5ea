/* SPDX-License-Identifier: MIT */
/*
 * test_facade.c (CPU): the header-only facade's view arithmetic and checks.
 */
#include <criterion/criterion.h>

#include "gputile.h"
#include "gputile_facade.h"

static float parent[6 * 10]; /* 6 rows, stride 10 */

Test(facade, view_and_elements)
{
    gputile_matrix m = gputile_matrix_view(parent, 8, 6, 10);
    cr_assert_eq(m.width, 8);
    cr_assert_eq(m.height, 6);
    cr_assert_eq(m.stride, 10);
    cr_assert_eq(m.elements, parent);
    for (size_t r = 0; r < 6; ++r)
        for (size_t c = 0; c < 8; ++c)
            gputile_set_element(m, r, c, (float)(r * 100 + c));
    cr_assert_eq(parent[3 * 10 + 7], 307.0f);
    cr_assert_eq(gputile_get_element(m, 5, 2), 502.0f);
}

Test(facade, submatrix_of_any_rectangle)
{
    gputile_matrix m = gputile_matrix_view(parent, 8, 6, 10), s, t;
    for (size_t r = 0; r < 6; ++r)
        for (size_t c = 0; c < 8; ++c)
            gputile_set_element(m, r, c, (float)(r * 100 + c));
    cr_assert_eq(gputile_submatrix(m, 1, 3, 5, 4, &s), GPUTILE_SUCCESS); /* 5 wide, 4 high */
    cr_assert_eq(s.elements, parent + 1 * 10 + 3);
    cr_assert_eq(s.width, 5);
    cr_assert_eq(s.height, 4);
    cr_assert_eq(s.stride, 10);
    cr_assert_eq(gputile_get_element(s, 2, 4), 307.0f);
    /* a view of a view */
    cr_assert_eq(gputile_submatrix(s, 1, 1, 3, 2, &t), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_get_element(t, 0, 0), 204.0f);
    cr_assert_eq(gputile_get_element(t, 1, 2), 306.0f);
    /* the unchecked form is the same arithmetic */
    gputile_matrix u = gputile_get_submatrix(m, 1, 3, 5, 4);
    cr_assert_eq(u.elements, s.elements);
    cr_assert_eq(u.width, s.width);
    cr_assert_eq(u.height, s.height);
}

Test(facade, submatrix_bounds)
{
    gputile_matrix m = gputile_matrix_view(parent, 8, 6, 10), s = {0, 0, 0, NULL};
    const gputile_matrix untouched = s;
    cr_assert_eq(gputile_submatrix(m, 0, 0, 8, 6, &s), GPUTILE_SUCCESS);
    cr_assert_eq(gputile_submatrix(m, 6, 8, 0, 0, &s), GPUTILE_SUCCESS); /* empty, at the corner */
    cr_assert_eq(s.width, 0);
    s = untouched;
    cr_assert_eq(gputile_submatrix(m, 0, 0, 9, 6, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 0, 0, 8, 7, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 7, 0, 0, 0, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 0, 9, 0, 0, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 5, 7, 2, 1, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 1, 1, (size_t)-1, 1, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, (size_t)-1, 0, 1, 2, &s), GPUTILE_ERROR_OUT_OF_BOUNDS);
    cr_assert_eq(gputile_submatrix(m, 0, 0, 1, 1, NULL), GPUTILE_ERROR_NULL_POINTER);
    cr_assert_eq(gputile_submatrix(gputile_matrix_view(NULL, 8, 6, 10), 0, 0, 1, 1, &s),
                 GPUTILE_ERROR_NULL_POINTER);
    cr_assert_eq(gputile_submatrix(gputile_matrix_view(parent, 11, 6, 10), 0, 0, 1, 1, &s),
                 GPUTILE_ERROR_INVALID_MATRIX);
    /* Parents whose extent the library refuses (OVERFLOW): row * stride
     * would wrap, or the extent reaches 2^63 bytes or the address space's
     * end. */
    const size_t most = SIZE_MAX / 2 / sizeof(float);
    cr_assert_eq(
        gputile_submatrix(gputile_matrix_view(parent, 1, SIZE_MAX, 2), SIZE_MAX - 1, 0, 1, 1, &s),
        GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(
        gputile_submatrix(gputile_matrix_view(parent, most + 1, 1, most + 1), 0, 0, 1, 1, &s),
        GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(gputile_submatrix(gputile_matrix_view(parent, 4, 3, most / 2), 0, 0, 1, 1, &s),
                 GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(gputile_submatrix(gputile_matrix_view((float *)(UINTPTR_MAX - 15), 8, 1, 8), 0, 0,
                                   1, 1, &s),
                 GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(s.elements, NULL, "output written on error");
    /* the largest parent the rule allows (one row) and an empty one */
    cr_assert_eq(gputile_submatrix(gputile_matrix_view(parent, most, 1, most), 0, 0, 8, 1, &s),
                 GPUTILE_SUCCESS);
    cr_assert_eq(s.elements, parent);
    cr_assert_eq(gputile_submatrix(gputile_matrix_view(parent, 0, SIZE_MAX, 0), 0, 0, 0, 5, &s),
                 GPUTILE_SUCCESS);
}

Test(facade, device_allocation_checks)
{
    gputile_matrix m = gputile_matrix_view(parent, 1, 1, 1);
    cr_assert_eq(gputile_matrix_alloc_device(NULL, 4, 4), GPUTILE_ERROR_NULL_POINTER);
    cr_assert_eq(gputile_matrix_alloc_device(&m, (size_t)-1, 1), GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(gputile_matrix_alloc_device(&m, (size_t)1 << 40, (size_t)1 << 40),
                 GPUTILE_ERROR_OVERFLOW);
    cr_assert_eq(m.elements, parent, "output written on error");
    cr_assert_eq(gputile_matrix_free_device(NULL), GPUTILE_ERROR_NULL_POINTER);
    /* an empty matrix allocates nothing and needs no device */
    cr_assert_eq(gputile_matrix_alloc_device(&m, 0, 5), GPUTILE_SUCCESS);
    cr_assert_eq(m.elements, NULL);
    cr_assert_eq(m.height, 5);
    cr_assert_eq(gputile_matrix_free_device(&m), GPUTILE_SUCCESS);
}
