/* SPDX-License-Identifier: MIT */
/*
 * gemm_host.h: GEMM with host matrices, transfers overlapped with the
 * kernels (internal; gemm_host.c). Sits on top of the device GEMM
 * (gemm_launch.h) and the staged copies (pinned_internal.h).
 */
#ifndef GPUTILE_GEMM_HOST_H
#define GPUTILE_GEMM_HOST_H

#include "gemm_plan.h"
#include "pinned_internal.h"

#define GPUTILE__GEMM_HOST_TILE 2048   /* rows/cols of C per tile of the host GEMM */
#define GPUTILE__GEMM_HOST_MAX_SPLIT 8 /* at most this many tiles along m and n */

/* Runs args (m, n >= 1, pointers unset) on host and device operands a, b, c
 * (at[i] says where each lives) with choice's row and split, overlapping
 * transfers with the kernels; ordered after the work on `stream`; returns
 * when c holds the result. */
gputile_status gputile__gemm_host(const gputile__gemm_choice *choice,
                                  const gputile__gemm_args *args, gputile_matrix a,
                                  gputile_matrix b, gputile_matrix c, const gputile__memory at[3],
                                  cudaStream_t stream);
/* Tests only: the tile edge of the host GEMM (0 restores the default). */
void gputile__gemm_host_set_tile(size_t tile);

#endif /* GPUTILE_GEMM_HOST_H */
