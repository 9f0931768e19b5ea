/* SPDX-License-Identifier: MIT */
/*
 * copy.c: gputile_copy() and its registration cache (gputile_copy_cache(),
 * gputile_copy_uncache()).
 *
 * Copies below every crossover of copy_policy.h take a short path (the
 * driver's own call after the fewest questions: short_copy()). Otherwise
 * pinned host memory and device memory go straight to the copy engines
 * (cudaMemcpyAsync). Pageable memory takes the method copy_policy.c picks
 * for its size and direction: the driver's own call, one bounce buffer
 * (bounce_copy.c) or the staging ring (staged_copy.c).
 *
 * The registration cache: gputile_copy_cache() registers the user's pages
 * (cudaHostRegister) and records them in the pin table (pinned_table.c) as
 * GPUTILE__PIN_COPY_CACHE, the one table of pinned ranges; a copy whose
 * host range lies inside such an entry is one DMA at the pinned rate, and
 * keeps the pageable contract (complete on return) since the user's own
 * buffer is what the DMA reads or writes. The library never sees the
 * user's free(): the entry stays until gputile_copy_uncache(), which must
 * come before the memory is freed (as for gputile_pinned_unregister()).
 * Lookups copy the entry out under the table's lock, so registrations and
 * unregistrations of other ranges (which move the table) may run at any
 * time.
 */
#include "copy_policy.h"
#include "pinned_table.h"
#include "staged_copy.h"

typedef enum where { DEVICE, PINNED, PAGEABLE, CACHED } where;

/* Where [p, p + bytes) lives; *partial: pageable, but its first bytes lie
 * in a cached registration (so the driver would take the range for pinned
 * memory: only the library's own memcpy may read or write it). */
static gputile_status locate(const void *p, size_t bytes, where *at, bool *partial)
{
    gputile__pin e;
    *partial = false;
    if (gputile__pin_lookup(p, &e)) {
        /* A cached registration; or pages the library pinned with the range
         * outside the bytes pinned for their owner: pageable for this copy,
         * yet the driver takes it for pinned (asynchronous), so only the
         * library's memcpy may move it. */
        if (e.kind == GPUTILE__PIN_COPY_CACHE) {
            *partial = bytes > e.hi - (uintptr_t)p;
            *at = *partial ? PAGEABLE : CACHED;
            return GPUTILE_SUCCESS;
        }
        if (gputile__pin_cover_of(&e, p, bytes) == GPUTILE__PIN_ASTRIDE) {
            *partial = true;
            *at = PAGEABLE;
            return GPUTILE_SUCCESS;
        }
    }
    gputile__pointer_kind kind = GPUTILE__POINTER_HOST_PAGEABLE;
    cudaError_t err = gputile__pointer_kind_of(p, bytes, &kind);
    /* Device memory of any device: the copy engines reach it (peer copies). */
    *at = kind == GPUTILE__POINTER_HOST_PINNED     ? PINNED
          : kind == GPUTILE__POINTER_HOST_PAGEABLE ? PAGEABLE
                                                   : DEVICE;
    return gputile__cuda_status(err);
}

/* Host->device returns once the driver has staged the source (the DMA
 * completes in the order of `stream`); device->host returns once the copy
 * is complete (CUDA's rules for pageable memory). */
static gputile_status direct(void *dst, const void *src, size_t bytes, cudaStream_t stream)
{
    return gputile__cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

static gputile_status staged(void *dst, const void *src, size_t bytes, gputile__copy_dir dir,
                             bool partial, cudaStream_t stream)
{
    gputile__ring ring;
    gputile_status st =
        gputile__ring_init(&ring, gputile__stage_chunk(dir == GPUTILE__COPY_H2D), bytes);
    if (st == GPUTILE_ERROR_OUT_OF_MEMORY && !partial)
        return direct(dst, src, bytes, stream); /* no pinned ring: the driver's own staging */
    if (st != GPUTILE_SUCCESS)
        return st;
    gputile__rect to = {dst, bytes, bytes, 1}, from = {(char *)src, bytes, bytes, 1};
    st = dir == GPUTILE__COPY_H2D ? gputile__ring_upload(&ring, to, from, stream)
                                  : gputile__ring_download(&ring, to, from, stream);
    gputile_status r = gputile__ring_fini(&ring); /* waits for the last DMAs */
    return st != GPUTILE_SUCCESS ? st : r;
}

/* The copy on the stream's own device, whose bounce buffers, crossovers
 * and staging events serve it. */
static gputile_status copy_pageable_here(void *dst, const void *src, size_t bytes,
                                         gputile__copy_dir dir, bool partial, cudaStream_t stream)
{
    const gputile__device *dev;
    gputile_status st = gputile__device_current(&dev);
    if (st != GPUTILE_SUCCESS)
        return st;
    gputile__copy_method m = gputile__copy_choose(gputile__copy_policy_for(dev->major), dir, bytes);
    if (m == GPUTILE__COPY_BOUNCE) {
        bool done;
        st = dir == GPUTILE__COPY_H2D ? gputile__bounce_upload(dst, src, bytes, stream, &done)
                                      : gputile__bounce_download(dst, src, bytes, stream, &done);
        if (done || st != GPUTILE_SUCCESS)
            return st;
        m = GPUTILE__COPY_DIRECT; /* every bounce buffer is busy */
    }
    if (m == GPUTILE__COPY_DIRECT && !partial)
        return direct(dst, src, bytes, stream);
    return staged(dst, src, bytes, dir, partial, stream);
}

gputile_status gputile__copy_pageable(void *dst, const void *src, size_t bytes,
                                      gputile__copy_dir dir, bool partial, cudaStream_t stream)
{
    int previous;
    gputile_status st;
    /* a graph would replay the bounce and staging buffers, since reused */
    if ((st = gputile__refuse_capture(stream)) != GPUTILE_SUCCESS ||
        (st = gputile__device_enter(stream, &previous)) != GPUTILE_SUCCESS)
        return st;
    st = copy_pageable_here(dst, src, bytes, dir, partial, stream);
    gputile__device_leave(previous);
    return st;
}

/* What the short path knows of one side of a copy. */
typedef enum side { SIDE_HOST, SIDE_DEVICE, SIDE_UNASKED, SIDE_GENERAL } side;

/* One side for the short path: the pin table first (memory the library
 * pinned is host memory; a cached or half-made registration takes the
 * general path), then, if `ask`, the driver. */
static gputile_status side_of(const void *p, size_t bytes, bool ask, side *out)
{
    gputile__pin e;
    if (gputile__pin_lookup(p, &e)) { /* (the general path: a range astride what was pinned) */
        *out =
            gputile__pin_cover_of(&e, p, bytes) == GPUTILE__PIN_INSIDE ? SIDE_HOST : SIDE_GENERAL;
        return GPUTILE_SUCCESS;
    }
    *out = SIDE_UNASKED;
    if (!ask)
        return GPUTILE_SUCCESS;
    bool device = false;
    gputile_status st = gputile__cuda_status(gputile__pointer_is_device(p, &device));
    *out = device ? SIDE_DEVICE : SIDE_HOST;
    return st;
}

/* Which side the short path asks the driver about first: the side that
 * was device memory in the last short copy that had to ask both (a loop
 * of copies one way then asks once a copy). Only the order of questions
 * depends on it, never the answer; a race costs a question. */
static int ask_src_first;

/* The short path for copies below every crossover (DIRECT whatever the
 * device, direction and kind of host memory: the driver's own call). Each
 * driver question costs ~45 ns for device memory and ~140 ns for pageable
 * memory against the call's ~2.4 us (H200, 4 KiB host->device; the
 * runtime's cudaPointerGetAttributes ~100 and ~175-225 ns), so it asks
 * the fewest that still refuse host to host: one side, and the other only
 * when the first is host memory. *taken is false when the general path
 * must decide (a cached registration on either side). */
static gputile_status short_copy(void *dst, const void *src, size_t bytes, cudaStream_t stream,
                                 bool *taken)
{
    const bool src_first = __atomic_load_n(&ask_src_first, __ATOMIC_RELAXED) != 0;
    const void *first = src_first ? src : dst, *second = src_first ? dst : src;
    side f, s;
    gputile_status st;
    *taken = false;
    if ((st = side_of(first, bytes, true, &f)) != GPUTILE_SUCCESS || f == SIDE_GENERAL ||
        (st = side_of(second, bytes, f == SIDE_HOST, &s)) != GPUTILE_SUCCESS || s == SIDE_GENERAL)
        return st;
    *taken = true;
    if (f == SIDE_HOST && s == SIDE_HOST)
        return GPUTILE_ERROR_INVALID_VALUE; /* host to host: use memcpy */
    if (f == SIDE_HOST) /* the device side was the second: ask it first next time */
        __atomic_store_n(&ask_src_first, !src_first, __ATOMIC_RELAXED);
    return gputile__cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

gputile_status gputile_copy(void *dst, const void *src, size_t bytes, struct CUstream_st *stream)
{
    if (dst == NULL || src == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0)
        return GPUTILE_SUCCESS;
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (bytes > UINTPTR_MAX - d || bytes > UINTPTR_MAX - s)
        return GPUTILE_ERROR_OVERFLOW;
    if (d < s + bytes && s < d + bytes)
        return GPUTILE_ERROR_ALIASING;
    gputile_status st;
    if (bytes < gputile__copy_direct_below()) {
        bool taken;
        st = short_copy(dst, src, bytes, stream, &taken);
        if (taken || st != GPUTILE_SUCCESS)
            return st;
    }

    where dst_at, src_at;
    bool dst_partial, src_partial;
    if ((st = locate(dst, bytes, &dst_at, &dst_partial)) != GPUTILE_SUCCESS ||
        (st = locate(src, bytes, &src_at, &src_partial)) != GPUTILE_SUCCESS)
        return st;
    if (dst_at != DEVICE && src_at != DEVICE)
        return GPUTILE_ERROR_INVALID_VALUE; /* host to host: use memcpy */
    if (dst_at != PAGEABLE && src_at != PAGEABLE) {
        st = gputile__cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
        /* A cached buffer keeps the pageable contract: complete on return
         * (in a graph's capture: when the graph runs, as any captured copy). */
        bool capturing = false;
        if (st == GPUTILE_SUCCESS && (dst_at == CACHED || src_at == CACHED) &&
            (st = gputile__capturing(stream, &capturing)) == GPUTILE_SUCCESS && !capturing)
            st = gputile__cuda_status(cudaStreamSynchronize(stream));
        return st;
    }
    return src_at == PAGEABLE
               ? gputile__copy_pageable(dst, src, bytes, GPUTILE__COPY_H2D, src_partial, stream)
               : gputile__copy_pageable(dst, src, bytes, GPUTILE__COPY_D2H, dst_partial, stream);
}

gputile_status gputile_copy_cache(const void *host, size_t bytes)
{
    if (host == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    const uintptr_t a = (uintptr_t)host;
    if (bytes > UINTPTR_MAX - a)
        return GPUTILE_ERROR_OVERFLOW;
    gputile__pin e; /* cached already at this address, covering the range: nothing to do */
    if (gputile__pin_lookup(host, &e) && e.kind == GPUTILE__PIN_COPY_CACHE && e.key == host &&
        bytes <= e.hi - a)
        return GPUTILE_SUCCESS;
    /* PORTABLE: copies to any device take the DMA path. */
    return gputile__pin_register((void *)(uintptr_t)host, bytes, GPUTILE_PINNED_PORTABLE,
                                 GPUTILE__PIN_COPY_CACHE);
}

gputile_status gputile_copy_uncache(const void *host)
{
    return gputile__pin_unregister(host, GPUTILE__PIN_COPY_CACHE);
}
