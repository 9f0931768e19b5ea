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
 * Measured on the H100's host (16 cores, 2026-11-27; BENCHMARKS.md,
 * fifteenth session). Host memory is the limit: 16 threads copy pageable
 * to pageable memory at 42-53 GB/s with no DMA running, against a pinned
 * DMA rate of 55 GB/s. Small slots that stay in the last-level cache take
 * a trip through DRAM off each byte: in a probe alternating the settings
 * 15 times, host->device 2 MiB slots written through the cache (the DMA
 * reads them from the cache) gave 0.84-0.90 of the pinned rate at 1-4 GiB
 * where 32 MiB buffers written with streaming stores gave 0.79-0.81;
 * device->host 4 MiB slots, unpacked with streaming stores into the user's
 * memory, 0.90-0.97 against 0.81-0.96. A DMA costs ~3 us besides its bytes
 * (1 MiB DMAs back to back ran at 35-47 GB/s, 4 MiB at 51-53), so slots
 * are no smaller. The library with these slots against the previous ring
 * (4 x 32 MiB, ramped chunks, all threads on one chunk), two runs each:
 * host->device 0.81-0.84 / 0.75 / 0.66-0.74 of the pinned rate at 1 GiB /
 * 256 MiB / 64 MiB against 0.69-0.71 / 0.67-0.68 / 0.57-0.62, device->host
 * 0.95 / 0.91 / 0.84-0.86 against 0.67-0.75 / 0.65-0.66 / 0.59-0.66. */
#define GPUTILE__STAGE_UP_CHUNK ((size_t)2 << 20)   /* host->device slot */
#define GPUTILE__STAGE_DOWN_CHUNK ((size_t)4 << 20) /* device->host slot */
#define GPUTILE__STAGE_SLOTS 32                     /* slots per ring (fewer for a short copy) */
#define GPUTILE__STAGE_MAX_SLOTS 64                 /* the most gputile__stage_tune() allows */

/* Pinned staging slots for pipelined copies between pageable host memory
 * and the device on one stream. Not thread-safe: one user at a time (the
 * copy threads it drives are its own business). */
typedef struct gputile__ring {
    size_t chunk;                               /* bytes per slot */
    int n;                                      /* slots */
    int next;                                   /* the slot the next chunk uses */
    char *mem;                                  /* n * chunk bytes from the pool */
    cudaEvent_t done[GPUTILE__STAGE_MAX_SLOTS]; /* the last DMA that uses slot i */
    bool busy[GPUTILE__STAGE_MAX_SLOTS];        /* done[i] is recorded and not yet seen complete */
} gputile__ring;

/* Takes the ring's slots (chunk bytes each, as many as a copy of `bytes`
 * can use, up to GPUTILE__STAGE_SLOTS) from the pool. */
gputile_status gputile__ring_init(gputile__ring *r, size_t chunk, size_t bytes);
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
/* Slot size of a pipelined copy host->device (up) or device->host. */
size_t gputile__stage_chunk(bool up);
/* Tests only: caps every chunk at `bytes` (0 restores the default). */
void gputile__stage_set_chunk_cap(size_t bytes);
/* Tests and gputile-bench only: slot size (both directions), slots per ring
 * and copy threads for later copies (0 keeps a default; values are clamped
 * to the maxima above). Not for concurrent use with copies in flight. */
void gputile__stage_tune(size_t chunk, int buffers, int threads);

#endif /* GPUTILE_STAGED_COPY_H */
