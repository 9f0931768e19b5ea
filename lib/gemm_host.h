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

/* Direct flow or overlapped pipeline (issue 21): a cost model in
 * microseconds. The direct flow is what a user writes by hand (copy the
 * host operands into one workspace block, multiply, copy C out) with
 * gputile_copy's methods for the copies: in/COPY + flops/FLOPS + out/COPY.
 * The pipeline pays SETUP (three streams, events, two staging rings, a
 * thread: 236 us for 8^3 on the H200, where the hand-written flow took 32)
 * and then overlaps: SETUP + max(in/STAGED, flops/FLOPS, out/STAGED) plus
 * one tile's share of each as fill and drain. A product of one tile has
 * nothing to overlap: it always goes direct. On the H200 (issue 21) the
 * pipeline lost to the hand-written flow up to 1024^3 and won from 2048^3
 * (3.0 against 4.1 ms): with tiles of GPUTILE__GEMM_HOST_TILE, square
 * products go direct up to 2048^3. Rates in GB/s and TFLOP/s. */
#define GPUTILE__GEMM_HOST_SETUP_US 250.0
/* Within the direct flow, host operands whose compact copies total at
 * most this many bytes are packed: copied by the calling thread into one
 * pinned bounce buffer, uploaded in one DMA into the device buffer kept
 * beside it (copy_policy.h: no workspace request, ~3 us in this flow), C
 * downloaded in one DMA and copied out; instead of a workspace and a
 * driver call per operand. Measured on the H200 (wall clock per call in a
 * loop, 2026-11-24, pageable / pinned, with a workspace): packed 31.3 /
 * 29.2 us against 35.5 / 31.9 unpacked at 8^3 (768 bytes), 34.3 / 34.5
 * against 35.6 / 32.7 at 64^3 (48 KiB), 129 / 120 against 119 / 55 at
 * 256^3 (768 KiB: one thread copies ~10 GB/s, the driver's pageable
 * calls ~14, pinned operands need no copy at all), so the crossover lies
 * between 48 and 768 KiB: the device buffer's size, 256 KiB (128^3, 192
 * KiB, measured 1.04x the hand-written flow unpacked). */
#define GPUTILE__GEMM_HOST_PACKED_BYTES GPUTILE__BOUNCE_DEVICE_BYTES
#define GPUTILE__GEMM_HOST_COPY_GBS 40.0   /* gputile_copy of large pageable operands */
#define GPUTILE__GEMM_HOST_STAGED_GBS 45.0 /* the pipeline's staged tiles */
#define GPUTILE__GEMM_HOST_TFLOPS 40.0     /* the FP32 device GEMM */

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
/* Tests only: the most bytes the direct flow packs (1: never pack; 0
 * restores GPUTILE__GEMM_HOST_PACKED_BYTES). */
void gputile__gemm_host_set_packed(size_t bytes);

#endif /* GPUTILE_GEMM_HOST_H */
