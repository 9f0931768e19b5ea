/*
 * pinned_internal.h: what the pinned-memory files of lib/ share (internal):
 * the table of pinned ranges, the pool's internal entry points, the host
 * copy threads, the staging ring that moves pageable memory through pinned
 * buffers, and the host-matrix GEMM pipeline.
 *
 * Tunable constants are here, in one place. Their values are first choices
 * from ANCHORS.md (3 x 16 MiB buffers and 8 copy threads reached 37.5 GB/s
 * pageable->device on our H200); `gputile-bench transfer` measures them.
 */
#ifndef GPUTILE_PINNED_INTERNAL_H
#define GPUTILE_PINNED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "../kernels/kernels.h"

/* ---- tunables ----
 * Chosen from gputile-bench transfer on the H200 (16 cores), 2026-11-21.
 * Sweeps of 256 MiB pageable copies: 32 MiB x 4 buffers x 16 threads best
 * in the first (49.1 GB/s host->device, 50.5 device->host), 16 MiB x 6 x
 * 16 in the second (48.8, 51.9; 32 x 4 x 16 there 45.5, 49.0): run-to-run
 * noise is about 3 GB/s, and 16 threads won in every row of both. In the
 * full tables (256 MiB to 4 GiB) 32 x 4 x 16 with streaming stores
 * (copy_threads.c) gave 42-47 GB/s host->device and 48.7-50.6
 * device->host, 16 x 6 x 16 with memcpy 32-52 and 38-42. The pinned DMA
 * itself runs at 55.4 GB/s. */
#define GPUTILE__STAGE_CHUNK ((size_t)32 << 20)    /* pinned buffer size, largest chunk */
#define GPUTILE__STAGE_MIN_CHUNK ((size_t)1 << 20) /* smallest chunk of a pipelined copy */
#define GPUTILE__STAGE_BUFFERS 4                   /* pinned buffers per pipelined copy */
#define GPUTILE__STAGE_MAX_BUFFERS 8               /* the most gputile__stage_tune() allows */
#define GPUTILE__STAGE_MIN_BYTES ((size_t)4 << 20) /* smaller pageable copies: cudaMemcpyAsync */
#define GPUTILE__COPY_THREADS 16                   /* host threads per parallel memcpy (caller included) */
#define GPUTILE__COPY_MAX_THREADS 16               /* the most gputile__stage_tune() allows */
#define GPUTILE__COPY_MIN_PART ((size_t)256 << 10) /* smallest piece one copy thread takes */
#define GPUTILE__GEMM_HOST_TILE 2048               /* rows/cols of C per tile of the host GEMM */
#define GPUTILE__GEMM_HOST_MAX_SPLIT 8             /* at most this many tiles along m and n */

#define GPUTILE__PINNED_FLAGS \
    (GPUTILE_PINNED_PORTABLE | GPUTILE_PINNED_MAPPED | GPUTILE_PINNED_WRITE_COMBINED)

/* ---- pinned_table.c: every range of pinned memory libgputile made ----
 * Sorted by address, never overlapping, one mutex. */
typedef enum gputile__pin_kind {
    GPUTILE__PIN_ALLOC,            /* gputile_pinned_alloc() */
    GPUTILE__PIN_REGISTER_PENDING, /* gputile_pinned_register() under way */
    GPUTILE__PIN_REGISTER,         /* gputile_pinned_register() */
    GPUTILE__PIN_POOL_USED,        /* a pool block handed out */
    GPUTILE__PIN_POOL_CACHED       /* a pool block kept idle */
} gputile__pin_kind;

typedef struct gputile__pin {
    uintptr_t lo, hi; /* the pinned bytes [lo, hi) (whole pages for registrations) */
    void *key;        /* the pointer the user holds (lo, or the registered address) */
    size_t bytes;     /* the bytes the user asked for */
    unsigned flags;   /* GPUTILE_PINNED_* */
    int kind;         /* gputile__pin_kind */
} gputile__pin;

void gputile__pin_lock(void);
void gputile__pin_unlock(void);
/* With the lock held: */
/* The entry holding address p, or NULL. */
gputile__pin *gputile__pin_find(uintptr_t p);
/* True when [lo, hi) shares a byte with some entry. */
bool gputile__pin_overlaps(uintptr_t lo, uintptr_t hi);
/* Adds an entry (must not overlap); false when out of memory. */
bool gputile__pin_insert(const gputile__pin *e);
/* Removes the entry whose lo is e->lo (e may point into the table). */
void gputile__pin_remove(const gputile__pin *e);
/* Without the lock: true when [p, p + n) lies inside one live pinned entry
 * (used, not cached or pending). */
bool gputile__pin_covers(const void *p, size_t n);

/* cudaHostAlloc flags of GPUTILE_PINNED_* flags. */
unsigned gputile__host_alloc_flags(unsigned flags);
/* Checks flags against the current device: INVALID_VALUE for unknown bits,
 * UNSUPPORTED when the device cannot map host memory and MAPPED is set. */
gputile_status gputile__check_pinned_flags(unsigned flags);

/* ---- copy_threads.c: the host copy threads ----
 * Copies `height` rows of `width` bytes (row pitches dpitch and spitch),
 * split over up to GPUTILE__COPY_THREADS threads (the caller is one of them);
 * returns when every byte is copied. Never fails: without helper threads the
 * caller copies alone. Thread-safe: concurrent callers share the helpers. */
void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height);

/* ---- staged_copy.c ---- */
/* Pinned staging buffers for pipelined copies between pageable host memory
 * and the device on one stream. Not thread-safe: one user at a time. */
typedef struct gputile__ring {
    size_t chunk;                            /* bytes per buffer */
    int n;                                   /* buffers */
    int next;                                /* the buffer the next chunk uses */
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
/* The copy threads a parallel copy uses now. */
int gputile__copy_threads(void);

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
