/* SPDX-License-Identifier: MIT */
/*
 * copy_policy.h: how gputile_copy() moves pageable host memory (internal;
 * copy_policy.c chooses, bounce_copy.c and staged_copy.c run the methods).
 *
 * Three methods, by size:
 *  - DIRECT: the driver's own call (cudaMemcpyAsync from pageable memory):
 *    one driver thread stages through the driver's small pinned buffers;
 *    cheapest for small copies (no thread wake-up, no event).
 *  - BOUNCE: one pinned bounce buffer of the library (bounce_copy.c): the
 *    copy threads fill or drain it, in up to GPUTILE__BOUNCE_MAX_PIECES
 *    pieces so that memcpy and DMA overlap; no pipeline to set up.
 *  - STAGED: the ring of small pooled pinned slots (staged_copy.c), for
 *    large copies.
 * The crossovers are one table, GPUTILE__COPY_POLICY_TABLE, with a row per
 * device kind (compute capability major; the last row is the default).
 * They are stated in gputile_copy(3); `gputile-bench transfer --crossovers`
 * measures them on a device and prints the row to paste here.
 */
#ifndef GPUTILE_COPY_POLICY_H
#define GPUTILE_COPY_POLICY_H

#include <stddef.h>

#include "internal.h"

typedef enum gputile__copy_method {
    GPUTILE__COPY_DIRECT,
    GPUTILE__COPY_BOUNCE,
    GPUTILE__COPY_STAGED
} gputile__copy_method;

typedef enum gputile__copy_dir { GPUTILE__COPY_H2D, GPUTILE__COPY_D2H } gputile__copy_dir;

/* The bounce buffers: each holds the largest copy the BOUNCE method takes
 * (a larger one is STAGED whatever the table says). */
#define GPUTILE__BOUNCE_BYTES ((size_t)16 << 20)
#define GPUTILE__BOUNCE_SLOTS 4                     /* buffers per device (concurrent copies) */
#define GPUTILE__BOUNCE_MAX_PIECES 4                /* pieces of one bounce copy */
#define GPUTILE__BOUNCE_PIECE_MIN ((size_t)1 << 20) /* smallest piece */

#define GPUTILE__KiB(n) ((size_t)(n) << 10)
#define GPUTILE__MiB(n) ((size_t)(n) << 20)

/* X(cc major (0: any device), host->device: BOUNCE from, STAGED from,
 *   device->host: BOUNCE from, STAGED from), bytes; sizes below the BOUNCE
 * crossover go DIRECT. Measured with `gputile-bench transfer --crossovers`
 * (57 sizes per direction, medians of 20): on an H200 on 2026-11-24
 * (bench/results/2026-11-24-crossovers.txt) direct (cudaMemcpy) won below
 * ~1.2 MB both ways, one bounce buffer up to its 4 x 16 MiB pieces (14 MB:
 * 367 us against 592 staged and 760 pageable host->device), the staging
 * ring from ~20 MB. On an H100 on 2026-11-27, after the ring became small
 * cache-resident slots (staged_copy.h) and the copy threads spin a while
 * before they sleep (copy_threads.c), two runs agreed on bounce buffers
 * from 884,736 bytes host->device (1 MiB: 57.5 us against 70.9 direct) and
 * from 315,392-442,368 device->host (the larger taken: direct and bounce
 * tie between), and on the ring from 20 MB host->device; device->host the
 * bounce buffer and the ring tie from 5 MB to the bounce buffer's 16 MiB
 * (bench/results/2026-11-27-crossovers-h100-spin-*.txt). Then the copy
 * threads took their parts without a lock (copy_threads.c: a loop of 16
 * parts of 32 KiB went from 34 to 7 us): four runs on an H100 agreed on
 * bounce buffers from 315,392-442,368 bytes host->device (the larger
 * taken) and 159,744 device->host (one run: direct and bounce tie down to
 * 4 KiB) (bench/results/2026-11-27-crossovers-h100-lockfree-*.txt). Other
 * devices take the same sizes until measured. */
#define GPUTILE__COPY_POLICY_TABLE(X)                                        \
    X(9, (size_t)442368, (size_t)19951616, (size_t)159744, (size_t)19951616) \
    X(0, (size_t)442368, (size_t)19951616, (size_t)159744, (size_t)19951616)

/* The crossovers of the current device's row (its compute capability). */
typedef struct gputile__copy_policy {
    size_t bounce_from[2]; /* by gputile__copy_dir */
    size_t staged_from[2];
} gputile__copy_policy;

/* The policy of a device of compute capability major `major`. */
const gputile__copy_policy *gputile__copy_policy_for(int major);
/* The method for a pageable copy of `bytes` in direction `dir` under policy
 * `p` (or the method forced by gputile__copy_force()). */
gputile__copy_method gputile__copy_choose(const gputile__copy_policy *p, gputile__copy_dir dir,
                                          size_t bytes);
/* The size below which every row of the table copies DIRECT, whatever the
 * device and direction (0 while a method is forced): gputile_copy() takes
 * its short path below it. */
size_t gputile__copy_direct_below(void);
/* Tests and gputile-bench only: every later pageable copy uses `method`
 * (-1 restores the policy). BOUNCE above GPUTILE__BOUNCE_BYTES is STAGED. */
void gputile__copy_force(int method);
/* Tests and gputile-bench only: the current device's crossovers
 * (GPUTILE_ERROR_NO_DEVICE without one). */
gputile_status gputile__copy_crossovers(int dir, size_t *bounce_from, size_t *staged_from);

/* ---- copy.c ---- */
/* A copy between pageable host memory and the device (direction `dir`) by
 * the method the policy picks for the current device; partial: the host
 * range starts inside a cached registration but does not lie inside it (the
 * driver's own call cannot take it). Host->device returns when src may be
 * reused and dst is complete in the order of `stream`; device->host when
 * dst holds the data. */
gputile_status gputile__copy_pageable(void *dst, const void *src, size_t bytes,
                                      gputile__copy_dir dir, bool partial, cudaStream_t stream);

/* ---- bounce_copy.c ---- */
/* Pageable host -> device of `bytes` (<= GPUTILE__BOUNCE_BYTES) through a
 * bounce buffer, on `stream` after its earlier work: returns when src may
 * be reused; dst is complete in the order of `stream`. *done is false (and
 * nothing was queued) when every bounce buffer of the device is in use:
 * the caller copies another way. */
gputile_status gputile__bounce_upload(void *dst, const void *src, size_t bytes, cudaStream_t stream,
                                      bool *done);
/* Device -> pageable host, the same way; returns when dst holds the data. */
gputile_status gputile__bounce_download(void *dst, const void *src, size_t bytes,
                                        cudaStream_t stream, bool *done);
/* A bounce buffer of the current device (GPUTILE__BOUNCE_BYTES, pinned,
 * no DMA pending on it) for the caller's own use, or NULL when every slot
 * is taken, none can be pinned or the free ones wait for DMAs of a stream
 * other than `stream`; with dev, also the slot's device buffer
 * of GPUTILE__BOUNCE_DEVICE_BYTES (made on first request and kept with the
 * slot; *dev NULL when it cannot be). The caller gives both back with
 * gputile__bounce_release() once none of its DMAs and kernels is pending. */
#define GPUTILE__BOUNCE_DEVICE_BYTES ((size_t)256 << 10)
char *gputile__bounce_acquire(void **dev, cudaStream_t stream);
void gputile__bounce_release(char *buf);
/* Frees every bounce buffer not in use, on every device (after waiting for
 * its DMAs): gputile_pool_release() and the end of the process. */
void gputile__bounce_release_idle(void);
/* Pieces of a bounce copy of `bytes`. */
int gputile__bounce_pieces(size_t bytes);

#endif /* GPUTILE_COPY_POLICY_H */
