/* SPDX-License-Identifier: MIT */
/*
 * gemm_host.c: GEMM on host matrices, transfers overlapped with compute.
 *
 * The seed's flow copies A and B in, multiplies, copies C out: the GPU idles
 * during the copies and the copy engines during the multiply. Here C is cut
 * into tiles of about GPUTILE__GEMM_HOST_TILE^2 (row blocks of op(A) x
 * column blocks of op(B), at most GPUTILE__GEMM_HOST_MAX_SPLIT each way) and
 * three streams work at once:
 *
 *   h2d:     A_0, B_0, B_1, ..., B_S-1, A_1, ..., A_R-1 (and C tiles when
 *            beta != 0), each followed by an event;
 *   compute: tile (i, j), row by row, after the events of A_i and B_j;
 *   d2h:     tile (i, j) of C after its compute event.
 *
 * So the multiply of tile (0, 0) starts once A_0 and B_0 are on the device,
 * uploads of later blocks run under earlier tiles' kernels, and tiles go
 * home while later ones compute (the two copy engines run both directions
 * at once). Host operands get compact device copies (as the seed's flow
 * does); device operands are used in place. Pinned host operands go straight
 * to the copy engines; pageable ones through the staging rings of
 * staged_copy.c: the calling thread packs uploads, a second thread unpacks
 * C's tiles, both helped by the copy threads. Every tile runs through
 * gputile__gemm_execute() (gemm_launch.c), the path device matrices take,
 * with the row and split chosen for the whole shape; each tile's launch is
 * planned for its own shape and pointers.
 *
 * Small products skip all of that (issue 21): the pipeline's setup alone
 * cost 7x the hand-written flow at 8^3. A cost model (gemm_host.h) sends
 * them, and every product of one tile, to the direct flow: one workspace
 * block for the compact copies, copies in, the device GEMM, C out.
 */
#include <pthread.h>
#include <stdlib.h>

#include "gemm_host.h"
#include "gemm_launch.h"

static size_t tile_override; /* tests only; 0: GPUTILE__GEMM_HOST_TILE */

void gputile__gemm_host_set_tile(size_t tile)
{
    __atomic_store_n(&tile_override, tile, __ATOMIC_RELAXED);
}

static size_t packed_override; /* tests only; 0: GPUTILE__GEMM_HOST_PACKED_BYTES */

void gputile__gemm_host_set_packed(size_t bytes)
{
    __atomic_store_n(&packed_override, bytes, __ATOMIC_RELAXED);
}

static size_t packed_max(void)
{
    size_t b = __atomic_load_n(&packed_override, __ATOMIC_RELAXED);
    b = b != 0 ? b : GPUTILE__GEMM_HOST_PACKED_BYTES;
    return b < GPUTILE__BOUNCE_BYTES ? b : GPUTILE__BOUNCE_BYTES; /* the bounce buffer's size */
}

typedef struct operand {
    gputile_matrix user; /* the caller's matrix, as stored */
    bool host;           /* in host memory and used: transferred */
    bool pinned;         /* host memory the copy engines can reach */
    gputile_matrix dev;  /* what kernels use: a compact copy, or user */
    bool owned;          /* dev was allocated here */
} operand;

typedef struct pipeline {
    gputile__gemm_choice choice;
    gputile__gemm_args args;
    operand a, b, c;
    bool reads_ab, reads_c;
    size_t mb, nb, rows, cols; /* tile shape; tiles along m and n */
    int device;
    cudaStream_t user, h2d, comp, d2h;
    cudaEvent_t start, *ev_a, *ev_b, *ev_cin, *ev_done;
    size_t n_events;
    cudaEvent_t *events; /* every event above, for cleanup */
    gputile__ring up, down;
    bool up_ready, down_ready;
    /* the downloader thread (pageable C) */
    pthread_t thread;
    bool thread_started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t published; /* tiles whose compute event is recorded */
    bool abort;
    gputile_status down_status;
} pipeline;

/* A rectangle of a matrix, in bytes. */
static gputile__rect rect(gputile_matrix m, size_t row, size_t col, size_t w, size_t h)
{
    return (gputile__rect){(char *)(m.elements + row * m.stride + col), m.stride * sizeof(float),
                           w * sizeof(float), h};
}

static size_t extent_bytes(gputile_matrix m)
{
    return ((m.height - 1) * m.stride + m.width) * sizeof(float);
}

static bool is_pinned(gputile_matrix m)
{
    gputile__pointer_kind kind;
    return gputile__pointer_kind_of(m.elements, extent_bytes(m), &kind) == cudaSuccess &&
           kind == GPUTILE__POINTER_HOST_PINNED;
}

/* op(A)'s row block [r0, r0 + h) as a rectangle of the stored A. */
static void a_block(const pipeline *p, size_t r0, size_t h, size_t *row, size_t *col, size_t *w,
                    size_t *hh)
{
    if (p->args.trans_a) {
        *row = 0, *col = r0, *w = h, *hh = p->a.user.height;
    } else {
        *row = r0, *col = 0, *w = p->a.user.width, *hh = h;
    }
}

/* op(B)'s column block [c0, c0 + w) as a rectangle of the stored B. */
static void b_block(const pipeline *p, size_t c0, size_t w, size_t *row, size_t *col, size_t *ww,
                    size_t *h)
{
    if (p->args.trans_b) {
        *row = c0, *col = 0, *ww = p->b.user.width, *h = w;
    } else {
        *row = 0, *col = c0, *ww = w, *h = p->b.user.height;
    }
}

/* Host -> device of one rectangle of a host operand, on h2d, then `ev`. */
static gputile_status upload(pipeline *p, operand *o, size_t row, size_t col, size_t w, size_t h,
                             cudaEvent_t ev)
{
    gputile__rect dst = rect(o->dev, row, col, w, h), src = rect(o->user, row, col, w, h);
    gputile_status s = o->pinned ? gputile__cuda_status(gputile__memcpy2d_async(dst, src, p->h2d))
                                 : gputile__ring_upload(&p->up, dst, src, p->h2d);
    if (s == GPUTILE_SUCCESS)
        s = gputile__cuda_status(cudaEventRecord(ev, p->h2d));
    return s;
}

static void tile_of(const pipeline *p, size_t t, size_t *r0, size_t *c0, size_t *h, size_t *w)
{
    size_t i = t / p->cols, j = t % p->cols;
    *r0 = i * p->mb;
    *c0 = j * p->nb;
    *h = (size_t)p->args.m - *r0 < p->mb ? (size_t)p->args.m - *r0 : p->mb;
    *w = (size_t)p->args.n - *c0 < p->nb ? (size_t)p->args.n - *c0 : p->nb;
}

/* Device -> host of C's tile t on d2h, after its compute event. */
static gputile_status download(pipeline *p, size_t t)
{
    size_t r0, c0, h, w;
    tile_of(p, t, &r0, &c0, &h, &w);
    gputile_status s = gputile__cuda_status(cudaStreamWaitEvent(p->d2h, p->ev_done[t], 0));
    gputile__rect dst = rect(p->c.user, r0, c0, w, h), src = rect(p->c.dev, r0, c0, w, h);
    if (s == GPUTILE_SUCCESS)
        s = p->c.pinned ? gputile__cuda_status(gputile__memcpy2d_async(dst, src, p->d2h))
                        : gputile__ring_download(&p->down, dst, src, p->d2h);
    return s;
}

static void stop_with(pipeline *p, gputile_status s)
{
    pthread_mutex_lock(&p->mu);
    if (p->down_status == GPUTILE_SUCCESS)
        p->down_status = s;
    p->abort = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Pageable C: unpacks tiles as their kernels finish, while the calling
 * thread goes on packing uploads. */
static void *downloader(void *arg)
{
    pipeline *p = arg;
    const size_t tiles = p->rows * p->cols;
    gputile_status s = gputile__cuda_status(cudaSetDevice(p->device)); /* per thread */
    for (size_t t = 0; t < tiles && s == GPUTILE_SUCCESS; ++t) {
        pthread_mutex_lock(&p->mu);
        while (p->published <= t && !p->abort)
            pthread_cond_wait(&p->cv, &p->mu);
        bool go = p->published > t;
        pthread_mutex_unlock(&p->mu);
        if (!go)
            return NULL;
        s = download(p, t);
    }
    if (s != GPUTILE_SUCCESS)
        stop_with(p, s);
    return NULL;
}

static bool aborted(pipeline *p)
{
    pthread_mutex_lock(&p->mu);
    bool a = p->abort;
    pthread_mutex_unlock(&p->mu);
    return a;
}

static void publish(pipeline *p, size_t tiles_done)
{
    pthread_mutex_lock(&p->mu);
    p->published = tiles_done;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Queues everything, tile by tile. */
static gputile_status run_tiles(pipeline *p)
{
    const size_t tiles = p->rows * p->cols;
    const bool up_a = p->a.host && p->reads_ab, up_b = p->b.host && p->reads_ab;
    const bool up_c = p->c.host && p->reads_c;
    size_t row, col, w, h;
    gputile_status s = GPUTILE_SUCCESS;

    for (size_t t = 0; t < tiles && s == GPUTILE_SUCCESS; ++t) {
        size_t i = t / p->cols, j = t % p->cols, r0, c0, th, tw;
        tile_of(p, t, &r0, &c0, &th, &tw);
        if (aborted(p))
            break;
        if (up_a && j == 0) { /* A_i: first needed by tile (i, 0) */
            a_block(p, r0, th, &row, &col, &w, &h);
            s = upload(p, &p->a, row, col, w, h, p->ev_a[i]);
        }
        if (s == GPUTILE_SUCCESS && up_b && i == 0) { /* B_j: first needed by tile (0, j) */
            b_block(p, c0, tw, &row, &col, &w, &h);
            s = upload(p, &p->b, row, col, w, h, p->ev_b[j]);
        }
        if (s == GPUTILE_SUCCESS && up_c)
            s = upload(p, &p->c, r0, c0, tw, th, p->ev_cin[t]);

        cudaError_t err = cudaSuccess;
        if (s == GPUTILE_SUCCESS && up_a)
            err = cudaStreamWaitEvent(p->comp, p->ev_a[i], 0);
        if (s == GPUTILE_SUCCESS && err == cudaSuccess && up_b)
            err = cudaStreamWaitEvent(p->comp, p->ev_b[j], 0);
        if (s == GPUTILE_SUCCESS && err == cudaSuccess && up_c)
            err = cudaStreamWaitEvent(p->comp, p->ev_cin[t], 0);
        if (s == GPUTILE_SUCCESS)
            s = gputile__cuda_status(err);
        if (s == GPUTILE_SUCCESS) {
            gputile__gemm_args ta = p->args;
            ta.m = (int64_t)th;
            ta.n = (int64_t)tw;
            if (p->reads_ab) {
                ta.a = p->args.trans_a ? p->a.dev.elements + r0
                                       : p->a.dev.elements + r0 * p->a.dev.stride;
                ta.lda = (int64_t)p->a.dev.stride;
                ta.b = p->args.trans_b ? p->b.dev.elements + c0 * p->b.dev.stride
                                       : p->b.dev.elements + c0;
                ta.ldb = (int64_t)p->b.dev.stride;
            }
            ta.c = p->c.dev.elements + r0 * p->c.dev.stride + c0;
            ta.ldc = (int64_t)p->c.dev.stride;
            s = gputile__gemm_execute(&p->choice, &ta, p->comp);
        }
        if (s == GPUTILE_SUCCESS)
            s = gputile__cuda_status(cudaEventRecord(p->ev_done[t], p->comp));
        if (s == GPUTILE_SUCCESS && p->c.host && p->c.pinned)
            s = download(p, t);
        if (s == GPUTILE_SUCCESS)
            publish(p, t + 1);
    }
    return s;
}

/* Tile edge along a dimension of `size` elements. */
static size_t tile_edge(size_t size)
{
    size_t t = __atomic_load_n(&tile_override, __ATOMIC_RELAXED);
    if (t == 0)
        t = GPUTILE__GEMM_HOST_TILE;
    size_t min = (size + GPUTILE__GEMM_HOST_MAX_SPLIT - 1) / GPUTILE__GEMM_HOST_MAX_SPLIT;
    return t > min ? t : min;
}

static gputile_status setup_operand(pipeline *p, operand *o, gputile_matrix m, bool host, bool used)
{
    o->user = m;
    o->dev = m;
    o->owned = false;
    o->host = host && used && !gputile__is_empty(m);
    o->pinned = o->host && is_pinned(m);
    if (!o->host)
        return GPUTILE_SUCCESS;
    void *d = NULL;
    cudaError_t err =
        gputile__workspace_acquire(&d, m.width * m.height * sizeof(float), p->device, p->user);
    if (err != cudaSuccess)
        return gputile__cuda_status(err); /* clears the pending error too */
    o->dev.elements = d;
    o->dev.stride = m.width;
    o->owned = true;
    return GPUTILE_SUCCESS;
}

static gputile_status make_events(pipeline *p)
{
    const size_t tiles = p->rows * p->cols;
    p->n_events = 1 + p->rows + p->cols + 2 * tiles;
    p->events = calloc(p->n_events, sizeof *p->events);
    if (p->events == NULL)
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    for (size_t e = 0; e < p->n_events; ++e) {
        cudaError_t err = cudaEventCreateWithFlags(&p->events[e], cudaEventDisableTiming);
        if (err != cudaSuccess) {
            p->n_events = e;
            return gputile__cuda_status(err);
        }
    }
    p->start = p->events[0];
    p->ev_a = p->events + 1;
    p->ev_b = p->ev_a + p->rows;
    p->ev_cin = p->ev_b + p->cols;
    p->ev_done = p->ev_cin + tiles;
    return GPUTILE_SUCCESS;
}

/* Keeps the first failure. */
static void keep(gputile_status *s, gputile_status r)
{
    if (*s == GPUTILE_SUCCESS)
        *s = r;
}

/* ---- the direct flow: small products (see gemm_host.h's cost model) ---- */

/* One host operand in or C out: pinned memory straight to the copy
 * engines; contiguous pageable memory by gputile_copy's methods; strided
 * pageable memory by the driver's 2D copy (as a hand-written flow would). */
static gputile_status move(gputile_matrix dst, gputile_matrix src, bool host_src,
                           cudaStream_t stream)
{
    gputile_matrix host = host_src ? src : dst;
    const size_t bytes = src.width * src.height * sizeof(float);
    const bool packed = host.stride == host.width || host.height == 1;
    if (!is_pinned(host) && packed)
        return gputile__copy_pageable(dst.elements, src.elements, bytes,
                                      host_src ? GPUTILE__COPY_H2D : GPUTILE__COPY_D2H, false,
                                      stream);
    return gputile__cuda_status(gputile__memcpy2d_async(
        rect(dst, 0, 0, dst.width, dst.height), rect(src, 0, 0, src.width, src.height), stream));
}

/* Uploads the packed bytes [*sent, up) of the bounce buffer to the same
 * offsets of ws, and marks them sent. */
static gputile_status upload_packed(void *ws, const char *packed, size_t *sent, size_t up,
                                    cudaStream_t stream)
{
    gputile_status s = gputile__cuda_status(cudaMemcpyAsync(
        (char *)ws + *sent, packed + *sent, up - *sent, cudaMemcpyHostToDevice, stream));
    *sent = up;
    return s;
}

static gputile_status direct(const gputile__gemm_choice *choice, const gputile__gemm_args *args,
                             const gputile_matrix user[3], const gputile__memory at[3],
                             cudaStream_t stream)
{
    const bool reads_ab = args->k != 0 && args->alpha != 0.0f, reads_c = args->beta != 0.0f;
    const bool used[3] = {reads_ab, reads_ab, true};
    bool host[3];
    size_t off[3] = {0, 0, 0}, size[3] = {0, 0, 0}, total = 0;
    gputile_matrix dev[3];
    for (int i = 0; i < 3; ++i) {
        host[i] = at[i] == GPUTILE__MEMORY_HOST && used[i] && !gputile__is_empty(user[i]);
        dev[i] = user[i];
        if (host[i]) { /* compact copies in one block, 256-byte aligned */
            off[i] = total;
            size[i] = user[i].width * user[i].height * sizeof(float);
            total += (size[i] + 255) & ~(size_t)255;
        }
    }
    /* Packed: small operands go through one pinned bounce buffer, in and
     * out in one DMA each, into the device buffer kept beside it when they
     * fit (gemm_host.h); NULL: each moves on its own. */
    void *ws = NULL, *slot_dev = NULL;
    char *packed =
        total > 0 && total <= packed_max()
            ? gputile__bounce_acquire(total <= GPUTILE__BOUNCE_DEVICE_BYTES ? &slot_dev : NULL)
            : NULL;
    gputile_status s = GPUTILE_SUCCESS;
    if (slot_dev != NULL)
        ws = slot_dev;
    else if (total > 0)
        s = gputile__cuda_status(gputile__workspace_acquire(&ws, total, choice[0].device, stream));
    size_t up = 0, sent = 0; /* packed bytes to upload; uploaded */
    for (int i = 0; i < 3 && s == GPUTILE_SUCCESS; ++i)
        if (host[i]) {
            dev[i].elements = (float *)((char *)ws + off[i]);
            dev[i].stride = user[i].width;
            if (i == 2 && !reads_c)
                continue;
            if (packed == NULL) {
                s = move(dev[i], user[i], true, stream);
                continue;
            }
            gputile__parallel_copy2d(packed + off[i], user[i].width * sizeof(float),
                                     user[i].elements, user[i].stride * sizeof(float),
                                     user[i].width * sizeof(float), user[i].height);
            up = off[i] + size[i];
            /* large enough to pay a DMA of its own: it runs while the
             * next operand is packed */
            if (up - sent >= GPUTILE__GEMM_HOST_PACKED_DMA_BYTES)
                s = upload_packed(ws, packed, &sent, up, stream);
        }
    if (s == GPUTILE_SUCCESS && up > sent)
        s = upload_packed(ws, packed, &sent, up, stream);
    if (s == GPUTILE_SUCCESS) {
        gputile__gemm_args ta = *args;
        if (reads_ab) {
            ta.a = dev[0].elements;
            ta.lda = (int64_t)dev[0].stride;
            ta.b = dev[1].elements;
            ta.ldb = (int64_t)dev[1].stride;
        }
        ta.c = dev[2].elements;
        ta.ldc = (int64_t)dev[2].stride;
        s = gputile__gemm_execute(&choice[0], &ta, stream);
    }
    if (s == GPUTILE_SUCCESS && host[2])
        s = packed == NULL
                ? move(user[2], dev[2], false, stream)
                : gputile__cuda_status(cudaMemcpyAsync(packed + off[2], dev[2].elements, size[2],
                                                       cudaMemcpyDeviceToHost, stream));
    if (ws != NULL && ws != slot_dev)
        keep(&s, gputile__cuda_status(gputile__workspace_release(ws, stream)));
    keep(&s, gputile__cuda_status(cudaStreamSynchronize(stream))); /* complete on return */
    if (packed != NULL) {
        if (s == GPUTILE_SUCCESS && host[2])
            gputile__parallel_copy2d(user[2].elements, user[2].stride * sizeof(float),
                                     packed + off[2], user[2].width * sizeof(float),
                                     user[2].width * sizeof(float), user[2].height);
        gputile__bounce_release(packed);
    }
    return s;
}

/* True when the cost model of gemm_host.h prefers the direct flow. */
static bool take_direct(const gputile__gemm_args *args, const gputile_matrix user[3],
                        const gputile__memory at[3])
{
    const bool reads_ab = args->k != 0 && args->alpha != 0.0f, reads_c = args->beta != 0.0f;
    const size_t mb = tile_edge((size_t)args->m), nb = tile_edge((size_t)args->n);
    const double tiles =
        (double)(((size_t)args->m + mb - 1) / mb * (((size_t)args->n + nb - 1) / nb));
    if (tiles <= 1)
        return true;
    double in = 0, out = 0;
    for (int i = 0; i < 3; ++i)
        if (at[i] == GPUTILE__MEMORY_HOST && !gputile__is_empty(user[i])) {
            double bytes = (double)user[i].width * (double)user[i].height * sizeof(float);
            if ((i < 2 && reads_ab) || (i == 2 && reads_c))
                in += bytes;
            if (i == 2)
                out += bytes;
        }
    const double us_in = in / (GPUTILE__GEMM_HOST_COPY_GBS * 1e3),
                 us_out = out / (GPUTILE__GEMM_HOST_COPY_GBS * 1e3);
    const double us_gemm = reads_ab ? 2.0 * (double)args->m * (double)args->n * (double)args->k /
                                          (GPUTILE__GEMM_HOST_TFLOPS * 1e6)
                                    : 0;
    const double st_in = in / (GPUTILE__GEMM_HOST_STAGED_GBS * 1e3),
                 st_out = out / (GPUTILE__GEMM_HOST_STAGED_GBS * 1e3);
    double longest = st_in > us_gemm ? st_in : us_gemm;
    longest = longest > st_out ? longest : st_out;
    const double piped = GPUTILE__GEMM_HOST_SETUP_US + longest + (st_in + us_gemm + st_out) / tiles;
    return us_in + us_gemm + us_out <= piped;
}

gputile_status gputile__gemm_host(const gputile__gemm_choice *choice,
                                  const gputile__gemm_args *args, gputile_matrix a,
                                  gputile_matrix b, gputile_matrix c, const gputile__memory at[3],
                                  cudaStream_t stream)
{
    const gputile_matrix user[3] = {a, b, c};
    if (take_direct(args, user, at))
        return direct(choice, args, user, at, stream);
    pipeline *p = calloc(1, sizeof *p);
    if (p == NULL)
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    p->choice = *choice;
    p->args = *args;
    p->user = stream;
    p->reads_ab = args->k != 0 && args->alpha != 0.0f;
    p->reads_c = args->beta != 0.0f;
    p->mb = tile_edge((size_t)args->m);
    p->nb = tile_edge((size_t)args->n);
    p->rows = ((size_t)args->m + p->mb - 1) / p->mb;
    p->cols = ((size_t)args->n + p->nb - 1) / p->nb;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);

    gputile_status s = gputile__cuda_status(cudaGetDevice(&p->device));
    cudaStream_t *streams[3] = {&p->h2d, &p->comp, &p->d2h};
    for (int i = 0; i < 3 && s == GPUTILE_SUCCESS; ++i) /* never implicitly synchronised */
        s = gputile__cuda_status(cudaStreamCreateWithFlags(streams[i], cudaStreamNonBlocking));
    if (s == GPUTILE_SUCCESS)
        s = make_events(p);
    if (s == GPUTILE_SUCCESS)
        s = setup_operand(p, &p->a, a, at[0] == GPUTILE__MEMORY_HOST, p->reads_ab);
    if (s == GPUTILE_SUCCESS)
        s = setup_operand(p, &p->b, b, at[1] == GPUTILE__MEMORY_HOST, p->reads_ab);
    if (s == GPUTILE_SUCCESS)
        s = setup_operand(p, &p->c, c, at[2] == GPUTILE__MEMORY_HOST, true);

    /* Everything below runs after the caller's earlier work on `stream`
     * (and after the allocations just queued there). */
    if (s == GPUTILE_SUCCESS)
        s = gputile__cuda_status(cudaEventRecord(p->start, p->user));
    for (int i = 0; i < 3 && s == GPUTILE_SUCCESS; ++i)
        s = gputile__cuda_status(cudaStreamWaitEvent(*streams[i], p->start, 0));

    bool pageable_up = (p->a.host && !p->a.pinned) || (p->b.host && !p->b.pinned) ||
                       (p->c.host && !p->c.pinned && p->reads_c);
    if (s == GPUTILE_SUCCESS && pageable_up) {
        s = gputile__ring_init(&p->up, gputile__stage_chunk(true), SIZE_MAX);
        p->up_ready = s == GPUTILE_SUCCESS;
    }
    if (s == GPUTILE_SUCCESS && p->c.host && !p->c.pinned) {
        s = gputile__ring_init(&p->down, gputile__stage_chunk(false), SIZE_MAX);
        p->down_ready = s == GPUTILE_SUCCESS;
        if (s == GPUTILE_SUCCESS) {
            if (pthread_create(&p->thread, NULL, downloader, p) == 0)
                p->thread_started = true;
            else
                s = GPUTILE_ERROR_OUT_OF_MEMORY;
        }
    }

    if (s == GPUTILE_SUCCESS)
        s = run_tiles(p);
    if (s != GPUTILE_SUCCESS)
        stop_with(p, s);
    if (p->thread_started)
        pthread_join(p->thread, NULL);
    keep(&s, p->down_status);

    /* The caller's stream waits for all three streams; the compact copies
     * are freed in its order; then the result is complete on return. */
    for (int i = 0; i < 3; ++i)
        if (*streams[i] != NULL && p->n_events > 0) {
            cudaEvent_t end = p->events[0]; /* start is no longer waited on: reuse it */
            keep(&s, gputile__cuda_status(cudaEventRecord(end, *streams[i])));
            keep(&s, gputile__cuda_status(cudaStreamWaitEvent(p->user, end, 0)));
        }
    operand *ops[3] = {&p->a, &p->b, &p->c};
    for (int i = 0; i < 3; ++i)
        if (ops[i]->owned)
            keep(&s,
                 gputile__cuda_status(gputile__workspace_release(ops[i]->dev.elements, p->user)));
    keep(&s, gputile__cuda_status(cudaStreamSynchronize(p->user)));
    if (p->up_ready)
        keep(&s, gputile__ring_fini(&p->up));
    if (p->down_ready)
        keep(&s, gputile__ring_fini(&p->down));
    for (size_t e = 0; e < p->n_events; ++e)
        keep(&s, gputile__cuda_status(cudaEventDestroy(p->events[e])));
    for (int i = 0; i < 3; ++i)
        if (*streams[i] != NULL)
            keep(&s, gputile__cuda_status(cudaStreamDestroy(*streams[i])));
    free(p->events);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
    return s;
}
