/* SPDX-License-Identifier: MIT */
/*
 * staged_copy.c: the STAGED method of copy_policy.h (large pageable copies,
 * and the host GEMM's tiles); gputile_copy() itself is in copy.c.
 *
 * The driver stages pageable memory through its own small pinned buffers
 * with one thread (~10 GB/s host->device on our H200). Here it goes
 * through a ring of GPUTILE__STAGE_BUFFERS pooled pinned buffers of up to
 * GPUTILE__STAGE_CHUNK bytes: for host->device the copy threads pack chunk
 * i + 1 while the DMA of chunk i runs; for device->host the DMAs of the
 * next chunks run while the copy threads unpack chunk i. ANCHORS.md: 3 x 16
 * MiB buffers and 8 threads reached 37.5 GB/s. Each buffer carries an event
 * of its last DMA, waited on before the buffer is written again.
 */
#include "staged_copy.h"

static size_t chunk_cap;   /* tests only; 0: none */
static size_t tuned_chunk; /* gputile__stage_tune(); 0: GPUTILE__STAGE_CHUNK */
static int tuned_buffers;  /* gputile__stage_tune(); 0: GPUTILE__STAGE_BUFFERS */

void gputile__stage_set_chunk_cap(size_t bytes)
{
    __atomic_store_n(&chunk_cap, bytes, __ATOMIC_RELAXED);
}

void gputile__stage_tune(size_t chunk, int buffers, int threads)
{
    if (buffers > GPUTILE__STAGE_MAX_BUFFERS)
        buffers = GPUTILE__STAGE_MAX_BUFFERS;
    __atomic_store_n(&tuned_chunk, chunk, __ATOMIC_RELAXED);
    __atomic_store_n(&tuned_buffers, buffers > 1 ? buffers : 0, __ATOMIC_RELAXED);
    gputile__copy_threads_set(threads); /* the copy engine keeps its own tunable */
}

size_t gputile__stage_chunk_for(size_t bytes)
{
    /* A third of the copy (the largest chunk that leaves room for the
     * ramp's steps up and down), so that mid-sized copies pipeline too,
     * rounded down to a power of two: copies of nearby sizes then ask the
     * pool for the same blocks (its size classes are a quarter-octave). */
    size_t c = bytes / 3;
    if (c > 0)
        c = (size_t)1 << (63 - __builtin_clzll((unsigned long long)c));
    if (c < GPUTILE__STAGE_MIN_CHUNK)
        c = GPUTILE__STAGE_MIN_CHUNK;
    size_t largest = __atomic_load_n(&tuned_chunk, __ATOMIC_RELAXED);
    if (largest == 0)
        largest = GPUTILE__STAGE_CHUNK;
    if (c > largest)
        c = largest;
    size_t cap = __atomic_load_n(&chunk_cap, __ATOMIC_RELAXED);
    return cap != 0 && c > cap ? cap : c;
}

/* ---- chunks ----
 * A contiguous copy (one row) is cut with a ramp: chunks of
 * GPUTILE__STAGE_RAMP_FIRST, twice that, ... up to the ring's chunk, then
 * full chunks, then the same sizes back down. The first DMA (host->device)
 * or the first unpack (device->host) starts after a small chunk instead of
 * a full one, and the last one ends a small chunk after the others: the
 * pipeline fills and drains in a few microseconds rather than a full
 * chunk's time (0.6 ms for 32 MiB at 55 GB/s, 3% of a 1 GiB copy). Copies
 * too short for the ramp, and 2D copies (the host GEMM's tiles), are cut in
 * equal chunks: whole rows when a row fits in a chunk, else pieces of a
 * row. */
typedef struct piece {
    size_t row, nrows, col, len;
} piece;

typedef struct schedule {
    gputile__rect r;
    size_t chunk;
    bool ramp;       /* one row, cut with the ramp */
    int m;           /* ramp steps each way */
    size_t up;       /* bytes of the steps up (= of the steps down) */
    size_t n_middle; /* full chunks between (the last may be shorter) */
} schedule;

static schedule plan(gputile__rect r, size_t chunk)
{
    schedule s = {.r = r, .chunk = chunk, .ramp = false, .m = 0, .up = 0, .n_middle = 0};
    if (r.height != 1 || r.width < chunk)
        return s;
    const size_t room = (r.width - chunk) / 2; /* for the steps each way */
    for (size_t step = GPUTILE__STAGE_RAMP_FIRST; step < chunk && s.up + step <= room; step *= 2) {
        s.up += step;
        ++s.m;
    }
    if (s.m == 0)
        return s;
    s.ramp = true;
    s.n_middle = (r.width - 2 * s.up + chunk - 1) / chunk;
    return s;
}

static size_t n_pieces(const schedule *s)
{
    const gputile__rect r = s->r;
    if (s->ramp)
        return 2 * (size_t)s->m + s->n_middle;
    if (r.width <= s->chunk) {
        size_t rows = s->chunk / r.width;
        return (r.height + rows - 1) / rows;
    }
    return r.height * ((r.width + s->chunk - 1) / s->chunk);
}

static piece piece_at(const schedule *s, size_t i)
{
    const gputile__rect r = s->r;
    const size_t chunk = s->chunk, m = (size_t)s->m, first = GPUTILE__STAGE_RAMP_FIRST;
    piece p = {0, 1, 0, 0};
    if (s->ramp) {
        if (i < m) { /* up: first << i */
            p.col = first * (((size_t)1 << i) - 1);
            p.len = first << i;
        } else if (i < m + s->n_middle) {
            size_t j = i - m, middle = r.width - 2 * s->up;
            p.col = s->up + j * chunk;
            p.len = middle - j * chunk < chunk ? middle - j * chunk : chunk;
        } else { /* down: first << k, k = m - 1 .. 0 */
            size_t k = m - 1 - (i - m - s->n_middle);
            p.col = r.width - first * (((size_t)2 << k) - 1);
            p.len = first << k;
        }
    } else if (r.width <= chunk) {
        size_t rows = chunk / r.width;
        p.row = i * rows;
        p.nrows = r.height - p.row < rows ? r.height - p.row : rows;
        p.col = 0;
        p.len = r.width;
    } else {
        size_t per_row = (r.width + chunk - 1) / chunk;
        p.row = i / per_row;
        p.nrows = 1;
        p.col = (i % per_row) * chunk;
        p.len = r.width - p.col < chunk ? r.width - p.col : chunk;
    }
    return p;
}

/* The piece's bytes in a rect, as a rect. */
static gputile__rect sub(gputile__rect r, piece p)
{
    return (gputile__rect){r.ptr + p.row * r.pitch + p.col, r.pitch, p.len, p.nrows};
}

/* The packed buffer holding a piece. */
static gputile__rect packed(void *buf, piece p)
{
    return (gputile__rect){buf, p.len, p.len, p.nrows};
}

/* ---- the ring ---- */
gputile_status gputile__ring_init(gputile__ring *r, size_t chunk)
{
    gputile_status s = GPUTILE_SUCCESS;
    r->chunk = chunk;
    r->n = 0;
    r->next = 0;
    int buffers = __atomic_load_n(&tuned_buffers, __ATOMIC_RELAXED);
    if (buffers == 0)
        buffers = GPUTILE__STAGE_BUFFERS;
    for (int i = 0; i < buffers && s == GPUTILE_SUCCESS; ++i) {
        s = gputile_pool_alloc(&r->buf[i], chunk, GPUTILE_PINNED_DEFAULT);
        if (s != GPUTILE_SUCCESS)
            break;
        s = gputile__cuda_status(cudaEventCreateWithFlags(&r->done[i], cudaEventDisableTiming));
        if (s != GPUTILE_SUCCESS) {
            (void)gputile_pool_free(r->buf[i]);
            break;
        }
        r->busy[i] = false;
        r->n = i + 1;
    }
    if (s != GPUTILE_SUCCESS)
        (void)gputile__ring_fini(r);
    return s;
}

gputile_status gputile__ring_fini(gputile__ring *r)
{
    gputile_status s = GPUTILE_SUCCESS, t;
    for (int i = 0; i < r->n; ++i) {
        /* The buffer goes back to the pool only when no DMA uses it. */
        if (r->busy[i] &&
            (t = gputile__cuda_status(cudaEventSynchronize(r->done[i]))) != GPUTILE_SUCCESS &&
            s == GPUTILE_SUCCESS)
            s = t;
        if ((t = gputile__cuda_status(cudaEventDestroy(r->done[i]))) != GPUTILE_SUCCESS &&
            s == GPUTILE_SUCCESS)
            s = t;
        if ((t = gputile_pool_free(r->buf[i])) != GPUTILE_SUCCESS && s == GPUTILE_SUCCESS)
            s = t;
    }
    r->n = 0;
    return s;
}

/* Waits until buffer `slot` is free of DMA. */
static cudaError_t claim(gputile__ring *r, int slot)
{
    if (!r->busy[slot])
        return cudaSuccess;
    cudaError_t err = cudaEventSynchronize(r->done[slot]);
    if (err == cudaSuccess)
        r->busy[slot] = false;
    return err;
}

/* Queues the DMA dst <- src through buffer `slot` and marks it busy. */
static cudaError_t dma(gputile__ring *r, int slot, gputile__rect dst, gputile__rect src,
                       cudaStream_t stream)
{
    cudaError_t err = gputile__memcpy2d_async(dst, src, stream);
    if (err == cudaSuccess)
        err = cudaEventRecord(r->done[slot], stream);
    if (err == cudaSuccess)
        r->busy[slot] = true;
    return err;
}

gputile_status gputile__ring_upload(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                    cudaStream_t stream)
{
    if (src.width == 0 || src.height == 0)
        return GPUTILE_SUCCESS;
    const schedule sc = plan(src, r->chunk);
    const size_t n = n_pieces(&sc);
    cudaError_t err = cudaSuccess;
    for (size_t i = 0; i < n && err == cudaSuccess; ++i) {
        piece p = piece_at(&sc, i);
        int slot = r->next;
        r->next = (r->next + 1) % r->n;
        if ((err = claim(r, slot)) != cudaSuccess)
            break;
        gputile__rect s = sub(src, p), b = packed(r->buf[slot], p);
        gputile__parallel_copy2d(b.ptr, b.pitch, s.ptr, s.pitch, p.len, p.nrows);
        err = dma(r, slot, sub(dst, p), b, stream);
    }
    return gputile__cuda_status(err);
}

gputile_status gputile__ring_download(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                      cudaStream_t stream)
{
    if (src.width == 0 || src.height == 0)
        return GPUTILE_SUCCESS;
    const schedule sc = plan(dst, r->chunk);
    const size_t n = n_pieces(&sc), ahead = (size_t)r->n;
    const int base = r->next;
    cudaError_t err = cudaSuccess;
    /* DMAs of the first `ahead` chunks, then: wait for chunk i, unpack it,
     * queue chunk i + ahead into the buffer it freed. */
    for (size_t i = 0; i < n && i < ahead && err == cudaSuccess; ++i) {
        int slot = (int)((base + i) % ahead);
        piece p = piece_at(&sc, i);
        if ((err = claim(r, slot)) == cudaSuccess)
            err = dma(r, slot, packed(r->buf[slot], p), sub(src, p), stream);
    }
    for (size_t i = 0; i < n && err == cudaSuccess; ++i) {
        int slot = (int)((base + i) % ahead);
        piece p = piece_at(&sc, i);
        if ((err = claim(r, slot)) != cudaSuccess)
            break;
        gputile__rect d = sub(dst, p), b = packed(r->buf[slot], p);
        gputile__parallel_copy2d(d.ptr, d.pitch, b.ptr, b.pitch, p.len, p.nrows);
        if (i + ahead < n) {
            piece q = piece_at(&sc, i + ahead);
            err = dma(r, slot, packed(r->buf[slot], q), sub(src, q), stream);
        }
    }
    r->next = (int)((base + n) % ahead);
    return gputile__cuda_status(err);
}
