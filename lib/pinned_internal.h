/*
 * pinned_internal.h: what the pinned-memory files of lib/ share (internal).
 * The layers have their own headers, each including only what lies below
 * it: pinned_table.h (the table of pinned ranges and the pinned flags),
 * copy_threads.h (the host copy engine), staged_copy.h (the staging rings
 * that move pageable memory through pinned buffers). This header gathers
 * them for the host-matrix GEMM pipeline, whose entry points it declares.
 */
#ifndef GPUTILE_PINNED_INTERNAL_H
#define GPUTILE_PINNED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "pinned_table.h"
#include "copy_threads.h"
#include "staged_copy.h"
#include "../kernels/kernels.h"

/* ---- tunables of the host GEMM ---- */
#define GPUTILE__GEMM_HOST_TILE 2048               /* rows/cols of C per tile of the host GEMM */
#define GPUTILE__GEMM_HOST_MAX_SPLIT 8             /* at most this many tiles along m and n */

/* ---- gemm_host.c ---- */
/* Runs args (m, n >= 1, pointers unset) on host and device operands a, b, c
 * (at[i] says where each lives), overlapping transfers with the kernels of
 * `algorithm`; ordered after the work on `stream`; returns when c holds the
 * result. */
gputile_status gputile__gemm_host(int algorithm, const gputile__gemm_args *args, gputile_matrix a,
                                  gputile_matrix b, gputile_matrix c, const gputile__memory at[3],
                                  cudaStream_t stream);
/* Tests only: the tile edge of the host GEMM (0 restores the default). */
void gputile__gemm_host_set_tile(size_t tile);

/* ---- gemm.c ---- */
/* C = alpha op(A) op(B) + beta C with one planned algorithm on device
 * pointers in args (k = 0 or alpha = 0 scales C). */
gputile_status gputile__gemm_launch(int algorithm, const gputile__gemm_args *args,
                                    cudaStream_t stream);

#endif /* GPUTILE_PINNED_INTERNAL_H */
