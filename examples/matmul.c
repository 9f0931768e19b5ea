/* SPDX-License-Identifier: MIT */
/*
 * matmul.c: multiply two host matrices on the GPU with gputile_matmul() and
 * check the answer on the CPU.
 *
 *   cc matmul.c $(pkg-config --cflags --libs gputile) -o matmul && ./matmul
 *
 * Exits 0 when the product is right, 1 when it is wrong or a call fails, and
 * 77 (the automake code for "skipped") when there is no CUDA device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gputile.h>
#include <gputile_facade.h>

int main(void)
{
    enum { M = 100, K = 70, N = 90 };
    static float a[M * K], b[K * N], c[M * N];
    gputile_matrix A = gputile_matrix_view(a, K, M, K); /* width, height, stride */
    gputile_matrix B = gputile_matrix_view(b, N, K, N);
    gputile_matrix C = gputile_matrix_view(c, N, M, N);

    if (gputile_version() != GPUTILE_VERSION_HEX) {
        fprintf(stderr, "header %s, library %s\n", GPUTILE_VERSION_STRING,
                gputile_version_string());
        return 1;
    }
    for (size_t i = 0; i < M; ++i)
        for (size_t q = 0; q < K; ++q)
            gputile_set_element(A, i, q, (float)((i + 2 * q) % 7) - 3.0f);
    for (size_t q = 0; q < K; ++q)
        for (size_t j = 0; j < N; ++j)
            gputile_set_element(B, q, j, (float)((3 * q + j) % 5) - 2.0f);

    gputile_status s = gputile_matmul(A, B, C); /* host matrices: copied in and out */
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile_matmul: %s (%s)\n", gputile_strerror(s), gputile_status_name(s));
        return s == GPUTILE_ERROR_NO_DEVICE ? 77 : 1;
    }

    for (size_t i = 0; i < M; ++i)
        for (size_t j = 0; j < N; ++j) {
            double want = 0.0;
            for (size_t q = 0; q < K; ++q)
                want += (double)gputile_get_element(A, i, q) * gputile_get_element(B, q, j);
            if (gputile_get_element(C, i, j) != (float)want) { /* small integers: exact */
                fprintf(stderr, "C(%zu, %zu) = %g, expected %g\n", i, j,
                        gputile_get_element(C, i, j), want);
                return 1;
            }
        }
    printf("libgputile %s: C = A * B (%dx%d times %dx%d) is correct; C(0,0) = %g\n",
           gputile_version_string(), M, K, K, N, gputile_get_element(C, 0, 0));
    return 0;
}
