/* SPDX-License-Identifier: MIT */
/*
 * gemm_launch.h: running a planned GEMM on device pointers (internal).
 * What gputile_gemm() does for device matrices and the host-matrix
 * pipeline (gemm_host.c) does for each tile.
 */
#ifndef GPUTILE_GEMM_LAUNCH_H
#define GPUTILE_GEMM_LAUNCH_H

#include "gemm_plan.h"

/* C = alpha op(A) op(B) + beta C with choice's row on the device pointers
 * of args (m, n >= 1; k = 0 or alpha = 0 scales C): plans the launch,
 * takes its workspace, launches the row, the split-K reduction and the
 * thin edges, and returns the workspace, all in the order of `stream`. */
gputile_status gputile__gemm_execute(const gputile__gemm_choice *choice,
                                     const gputile__gemm_args *args, cudaStream_t stream);

/* gputile_gemm()'s checks, shared with the batched and multi-GPU calls
 * (gemm.c), which must reject bad input before they queue anything: the
 * caller's options (NULL: defaults), and one product's transposes, matrices
 * (each on its own), shapes and aliasing of C with A or B. */
gputile_status gputile__gemm_read_options(const gputile_gemm_options *o, int *algorithm,
                                          int *split_k, int *precision);
/* The same for the batched calls, which never split k: split_k is range
 * checked but not matched against the algorithm (the man page: not used). */
gputile_status gputile__gemm_read_batch_options(const gputile_gemm_options *o, int *algorithm,
                                                int *precision);
gputile_status gputile__gemm_check(gputile_op ta, gputile_op tb, gputile_matrix a, gputile_matrix b,
                                   gputile_matrix c);

#endif /* GPUTILE_GEMM_LAUNCH_H */
