/* SPDX-License-Identifier: MIT */
/*
 * staged_copy.c: copies between host memory and the device.
 *
 * Pinned host memory goes straight to the copy engines (cudaMemcpyAsync).
 * Pageable memory cannot: the driver stages it through its own small pinned
 * buffers with one thread (~10 GB/s host->device on our H200). Here it goes
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
    /* A quarter of the copy, so that even mid-sized copies pipeline. */
    size_t c = ((bytes / 4) + 0xffff) & ~(size_t)0xffff;
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

/* ---- chunks: whole rows when a row fits in a chunk, else pieces of a row ---- */
typedef struct piece {
    size_t row, nrows, col, len;
} piece;

static size_t n_pieces(gputile__rect r, size_t chunk)
{
    if (r.width <= chunk) {
        size_t rows = chunk / r.width;
        return (r.height + rows - 1) / rows;
    }
    return r.height * ((r.width + chunk - 1) / chunk);
}

static piece piece_at(gputile__rect r, size_t chunk, size_t i)
{
    piece p;
    if (r.width <= chunk) {
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
    const size_t n = n_pieces(src, r->chunk);
    cudaError_t err = cudaSuccess;
    for (size_t i = 0; i < n && err == cudaSuccess; ++i) {
        piece p = piece_at(src, r->chunk, i);
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
    const size_t n = n_pieces(dst, r->chunk), ahead = (size_t)r->n;
    const int base = r->next;
    cudaError_t err = cudaSuccess;
    /* DMAs of the first `ahead` chunks, then: wait for chunk i, unpack it,
     * queue chunk i + ahead into the buffer it freed. */
    for (size_t i = 0; i < n && i < ahead && err == cudaSuccess; ++i) {
        int slot = (int)((base + i) % ahead);
        piece p = piece_at(dst, r->chunk, i);
        if ((err = claim(r, slot)) == cudaSuccess)
            err = dma(r, slot, packed(r->buf[slot], p), sub(src, p), stream);
    }
    for (size_t i = 0; i < n && err == cudaSuccess; ++i) {
        int slot = (int)((base + i) % ahead);
        piece p = piece_at(dst, r->chunk, i);
        if ((err = claim(r, slot)) != cudaSuccess)
            break;
        gputile__rect d = sub(dst, p), b = packed(r->buf[slot], p);
        gputile__parallel_copy2d(d.ptr, d.pitch, b.ptr, b.pitch, p.len, p.nrows);
        if (i + ahead < n) {
            piece q = piece_at(dst, r->chunk, i + ahead);
            err = dma(r, slot, packed(r->buf[slot], q), sub(src, q), stream);
        }
    }
    r->next = (int)((base + n) % ahead);
    return gputile__cuda_status(err);
}

/* ---- gputile_copy ---- */
typedef enum where { DEVICE, PINNED, PAGEABLE } where;

static gputile_status locate(const void *p, size_t bytes, where *at)
{
    gputile__pointer_kind kind = GPUTILE__POINTER_HOST_PAGEABLE;
    cudaError_t err = gputile__pointer_kind_of(p, bytes, &kind);
    /* Device memory of any device: the copy engines reach it (peer copies). */
    *at = kind == GPUTILE__POINTER_HOST_PINNED     ? PINNED
          : kind == GPUTILE__POINTER_HOST_PAGEABLE ? PAGEABLE
                                                   : DEVICE;
    return gputile__cuda_status(err);
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

    where dst_at, src_at;
    gputile_status st;
    if ((st = locate(dst, bytes, &dst_at)) != GPUTILE_SUCCESS ||
        (st = locate(src, bytes, &src_at)) != GPUTILE_SUCCESS)
        return st;
    if (dst_at != DEVICE && src_at != DEVICE)
        return GPUTILE_ERROR_INVALID_VALUE; /* host to host: use memcpy */
    if (dst_at != PAGEABLE && src_at != PAGEABLE)
        return gputile__cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));

    if (bytes < GPUTILE__STAGE_MIN_BYTES) { /* small: the driver's own staging is as good */
        st = gputile__cuda_status(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
        if (st == GPUTILE_SUCCESS)
            st = gputile__cuda_status(cudaStreamSynchronize(stream));
        return st;
    }
    gputile__ring ring;
    if ((st = gputile__ring_init(&ring, gputile__stage_chunk_for(bytes))) != GPUTILE_SUCCESS)
        return st;
    gputile__rect to = {dst, bytes, bytes, 1}, from = {(char *)src, bytes, bytes, 1};
    st = src_at == PAGEABLE ? gputile__ring_upload(&ring, to, from, stream)
                            : gputile__ring_download(&ring, to, from, stream);
    gputile_status r = gputile__ring_fini(&ring); /* waits for the last DMAs */
    return st != GPUTILE_SUCCESS ? st : r;
}
