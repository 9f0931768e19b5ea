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
/* Blocks of A and B come in at most this many panels along k, each of at
 * least PANEL_K elements (rows of 4 KiB where the panel cuts the rows), so
 * that a tile starts once its first panels land (gemm_host.c). */
#define GPUTILE__GEMM_HOST_PANELS 4
#define GPUTILE__GEMM_HOST_PANEL_K 1024
/* The staging chunk of C's downloads (pageable C): 16 MiB tiles of 4 MiB
 * chunks came home 885 us after their kernel, of 1 MiB 394 us (4096^3,
 * H200, bench/results/2026-12-02-host-gemm-stage-chunk-probe-h200.txt). */
#define GPUTILE__GEMM_HOST_DOWN_CHUNK ((size_t)1 << 20)

/* Direct flow or overlapped pipeline (issue 21): a cost model in
 * microseconds. The direct flow is what a user writes by hand (copy the
 * host operands into one workspace block, multiply, copy C out) with
 * gputile_copy's methods for the copies: in/COPY + flops/FLOPS + out/COPY.
 * The pipeline pays SETUP (three streams, events, two staging rings, and a
 * thread when this was measured: 236 us for 8^3 on the H200, where the
 * hand-written flow took 32) and then overlaps: SETUP + max(in/STAGED,
 * flops/FLOPS, out/STAGED) plus one tile's share of each as fill and
 * drain. A product of one tile has nothing to overlap: it always goes
 * direct. On the H200 (issue 21) the
 * pipeline lost to the hand-written flow up to 1024^3 and won from 2048^3
 * (3.0 against 4.1 ms): with tiles of GPUTILE__GEMM_HOST_TILE, square
 * products go direct up to 2048^3. Rates in GB/s and TFLOP/s. */
#define GPUTILE__GEMM_HOST_SETUP_US 250.0
/* Within the direct flow, host operands whose compact copies total at
 * most this many bytes are packed: copied by the copy threads into one
 * pinned bounce buffer and uploaded in one DMA per operand of 64 KiB or
 * more (or one for all of them), each under the packing of the next,
 * into the device buffer kept beside the bounce buffer when they fit
 * (256 KiB: no workspace request) or a workspace; C downloaded in one DMA
 * and copied out. Otherwise each operand moves by gputile_copy's methods
 * (a driver call, or a bounce copy that overlaps its own pieces).
 * gputile-bench transfer --gemm-packed, H100, 2026-11-27, two rounds,
 * gputile / the hand-written pageable flow (bench/results/
 * 2026-11-27-host-gemm-packed-h100.txt): never packed 1.31-1.45 at 8^3-64^3;
 * packed up to 256 KiB (the old limit) 1.05-1.17 at 256^3 and 0.66-0.74
 * at 512^3; packed up to 16 MiB 0.89-0.91 at 256^3 (768 KiB), 0.54-0.56 at
 * 512^3 (3 MiB), but 0.44 at 1024^3 (12 MiB: there the per-operand bounce
 * copies, 0.36-0.40, overlap packing and DMA in 1 MiB pieces). */
#define GPUTILE__GEMM_HOST_PACKED_BYTES ((size_t)4 << 20)
/* Packed operands of at least this many bytes (with any smaller ones
 * packed before them) are uploaded as soon as they are packed, under the
 * packing of the next. */
#define GPUTILE__GEMM_HOST_PACKED_DMA_BYTES ((size_t)64 << 10)
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
/* Tests only: the least panel length along k (0 restores
 * GPUTILE__GEMM_HOST_PANEL_K). */
void gputile__gemm_host_set_panel(size_t k);
/* Tests only: the most bytes the direct flow packs (1: never pack; 0
 * restores GPUTILE__GEMM_HOST_PACKED_BYTES). */
void gputile__gemm_host_set_packed(size_t bytes);

#endif /* GPUTILE_GEMM_HOST_H */
