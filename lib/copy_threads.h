/* SPDX-License-Identifier: MIT */
/*
 * copy_threads.h: the host copy engine (copy_threads.c), internal. It copies
 * bytes between host buffers with a pool of threads (and runs other loops
 * over host memory on them: gputile__parallel_for) and calls nothing else
 * in lib/: it is the bottom layer that staged_copy.c (and through it the
 * host-matrix GEMM) builds on, and it holds its own tunables.
 */
#ifndef GPUTILE_COPY_THREADS_H
#define GPUTILE_COPY_THREADS_H

#include <stdbool.h>
#include <stddef.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define GPUTILE__PAUSE() _mm_pause() /* in a spin-wait: let the core's other work run */
#else
#define GPUTILE__PAUSE() ((void)0)
#endif

/* Chosen with the staging tunables (the measurements are in staged_copy.h):
 * 16 threads won in every row of both sweeps. */
#define GPUTILE__COPY_THREADS 16                   /* threads per parallel copy, caller included */
#define GPUTILE__COPY_MAX_THREADS 16               /* the most gputile__copy_threads_set() allows */
#define GPUTILE__COPY_MIN_PART ((size_t)128 << 10) /* smallest piece one copy thread takes */
/* Threads in the pool shared by concurrent copies (callers included), at
 * most the cores online: two devices staging at once (gputile_gemm_devices)
 * each get GPUTILE__COPY_THREADS on a host with the cores for it. */
#define GPUTILE__COPY_POOL_THREADS 32

/* Work on items [lo, hi) of a parallel loop; `part` numbers the ranges
 * from 0 in order. */
typedef void (*gputile__range_fn)(void *ctx, int part, size_t lo, size_t hi);

/* Runs fn over consecutive ranges that cover [0, n): each a multiple of
 * `align` items and at least min_part (the last one excepted), at most
 * GPUTILE__COPY_MAX_THREADS of them, on up to gputile__copy_threads()
 * threads (the caller runs part 0 and helps with the rest); returns the
 * number of parts once every part has run. Never fails: without helper
 * threads the caller runs every part. Thread-safe, as below. */
int gputile__parallel_for(size_t n, size_t min_part, size_t align, gputile__range_fn fn, void *ctx);

/* Copies `height` rows of `width` bytes (row pitches dpitch and spitch),
 * split over up to gputile__copy_threads() threads (the caller is one of
 * them); returns when every byte is copied. Never fails: without helper
 * threads the caller copies alone. Thread-safe: concurrent callers share the
 * helpers. */
void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height);
/* A copy of `width`-byte rows (row pitches dpitch and spitch), for the
 * calling thread alone. `streaming`: long runs are stored with
 * non-temporal stores (fenced before gputile__copy2d_range() returns), for
 * a destination that nothing reads soon: each line is then written once
 * instead of read for ownership first. Without it the bytes stay in the
 * caches, for a destination read soon (a pinned slot a DMA is about to
 * read). */
typedef struct gputile__copy2d_args {
    char *dst;
    const char *src;
    size_t dpitch, spitch, width;
    bool streaming;
} gputile__copy2d_args;
/* Copies bytes [b0, b1) of the rows as if they were packed end to end. */
void gputile__copy2d_range(const gputile__copy2d_args *c, size_t b0, size_t b1);
/* The copy threads a parallel copy uses now: the count last set, else
 * GPUTILE__COPY_THREADS or the cores online if fewer. */
int gputile__copy_threads(void);
/* Tests and gputile-bench only (through gputile__stage_tune()): copy
 * threads for later copies, clamped to GPUTILE__COPY_MAX_THREADS; 0 (or
 * less) restores the default. Not for concurrent use with copies in flight. */
void gputile__copy_threads_set(int threads);

#endif /* GPUTILE_COPY_THREADS_H */
