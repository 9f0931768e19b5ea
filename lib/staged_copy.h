/* SPDX-License-Identifier: MIT */
/*
 * staged_copy.h: copies between pageable host memory and the device through
 * rings of pooled pinned buffers (staged_copy.c), internal. It sits on the
 * copy threads (copy_threads.h), the pinned pool and the one 2D copy
 * (internal.h), and nothing below calls back up into it.
 */
#ifndef GPUTILE_STAGED_COPY_H
#define GPUTILE_STAGED_COPY_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"
#include "copy_threads.h"

/* ---- tunables ----
 * Their values were first chosen from ANCHORS.md (3 x 16 MiB buffers and 8
 * copy threads reached 37.5 GB/s pageable->device on our H200);
 * `gputile-bench transfer` measures them. Chosen from gputile-bench
 * transfer on the H200 (16 cores), 2026-11-21. Sweeps of 256 MiB pageable
 * copies: 32 MiB x 4 buffers x 16 threads best in the first (49.1 GB/s
 * host->device, 50.5 device->host), 16 MiB x 6 x 16 in the second (48.8,
 * 51.9; 32 x 4 x 16 there 45.5, 49.0): run-to-run noise is about 3 GB/s,
 * and 16 threads won in every row of both. In the full tables (256 MiB to
 * 4 GiB) 32 x 4 x 16 with streaming stores (copy_threads.c) gave 42-47 GB/s
 * host->device and 48.7-50.6 device->host, 16 x 6 x 16 with memcpy 32-52
 * and 38-42. The pinned DMA itself runs at 55.4 GB/s. */
#define GPUTILE__STAGE_CHUNK ((size_t)32 << 20)     /* pinned buffer size, largest chunk */
#define GPUTILE__STAGE_MIN_CHUNK ((size_t)1 << 20)  /* smallest chunk of a pipelined copy */
#define GPUTILE__STAGE_BUFFERS 4                    /* pinned buffers per pipelined copy */
#define GPUTILE__STAGE_MAX_BUFFERS 8                /* the most gputile__stage_tune() allows */
#define GPUTILE__STAGE_RAMP_FIRST ((size_t)1 << 20) /* first and last chunk of a long copy */

/* Pinned staging buffers for pipelined copies between pageable host memory
 * and the device on one stream. Not thread-safe: one user at a time. */
typedef struct gputile__ring {
    size_t chunk;                                 /* bytes per buffer */
    int n;                                        /* buffers */
    int next;                                     /* the buffer the next chunk uses */
    void *buf[GPUTILE__STAGE_MAX_BUFFERS];        /* from the pool */
    cudaEvent_t done[GPUTILE__STAGE_MAX_BUFFERS]; /* the last DMA that uses buf[i] */
    bool busy[GPUTILE__STAGE_MAX_BUFFERS];        /* done[i] is recorded and not yet waited on */
} gputile__ring;

/* Takes the ring's buffers (chunk bytes each) from the pool. */
gputile_status gputile__ring_init(gputile__ring *r, size_t chunk);
/* Waits for the ring's DMAs and returns its buffers to the pool. */
gputile_status gputile__ring_fini(gputile__ring *r);
/* Host (pageable) -> device, on `stream` after its earlier work. Returns when
 * every byte of src has been packed into pinned buffers (src may be reused);
 * dst is complete in the order of `stream`. */
gputile_status gputile__ring_upload(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                    cudaStream_t stream);
/* Device -> host (pageable), on `stream` after its earlier work. Returns
 * when dst holds every byte. */
gputile_status gputile__ring_download(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                      cudaStream_t stream);
/* Chunk size of a pipelined copy of `bytes`. */
size_t gputile__stage_chunk_for(size_t bytes);
/* Tests only: caps every chunk at `bytes` (0 restores the default). */
void gputile__stage_set_chunk_cap(size_t bytes);
/* Tests and gputile-bench only: largest chunk, buffers per ring and copy
 * threads for later copies (0 keeps a default; values are clamped to the
 * maxima above). Not for concurrent use with copies in flight. */
void gputile__stage_tune(size_t chunk, int buffers, int threads);

#endif /* GPUTILE_STAGED_COPY_H */
