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
 *            beta != 0), each in panels along k, each panel followed by
 *            an event;
 *   compute: tile (i, j), row by row, after the events of A_i and B_j;
 *   d2h:     tile (i, j) of C after its compute event.
 *
 * A tile that is the first to need A_i or B_j (tile (i, 0) or (0, j)) is
 * multiplied panel by panel as the panels land: C_ij = alpha A_i,p B_j,p
 * + beta C_ij for the first panel, + C_ij after it (the later tiles, whose
 * blocks are all there, run whole). Without panels the GPU idled while A_0
 * and B_0 (32 MiB each at 4096^3) came in, and each new block came whole
 * before its tile started: 4.7-5.0 ms for 4096^3 from pinned memory,
 * where the copies need 2.4 and the kernels 2.9 (H200). So the multiply
 * of tile (0, 0) starts once the first panels of A_0 and B_0 are on the
 * device, uploads of later blocks run under earlier tiles' kernels, and
 * tiles go home while later ones compute (the two copy engines run both
 * directions at once). Host operands get compact device copies, in one
 * workspace block (as the seed's flow does, place_operands() says why
 * one); device operands are used in place. Pinned host operands go straight
 * to the copy engines; pageable ones through the staging rings of
 * staged_copy.c, driven by the calling thread alone, helped by the copy
 * threads: it packs every upload, then unpacks C's tiles as their kernels
 * end (run_tiles() says why in that order). A second thread did the
 * unpacking once; the two copies then split the copy threads and ran
 * slower together than one after the other (4096^3, H200: a panel of 8
 * MiB packed in 850 us instead of 150). Every tile runs through
 * gputile__gemm_execute() (gemm_launch.c), the path device matrices take,
 * with the row and split chosen for the whole shape; each tile's launch is
 * planned for its own shape and pointers.
 *
 * Small products skip all of that (issue 21): the pipeline's setup alone
 * cost 7x the hand-written flow at 8^3. A cost model (gemm_host.h) sends
 * them, and every product of one tile, to the direct flow: one workspace
 * block for the compact copies, copies in, the device GEMM, C out.
 */
#include <stdlib.h>

#include "gemm_host.h"
#include "gemm_launch.h"

static size_t tile_override; /* tests only; 0: GPUTILE__GEMM_HOST_TILE */

void gputile__gemm_host_set_tile(size_t tile)
{
    __atomic_store_n(&tile_override, tile, __ATOMIC_RELAXED);
}

static size_t panel_override; /* tests only; 0: GPUTILE__GEMM_HOST_PANEL_K */

void gputile__gemm_host_set_panel(size_t k)
{
    __atomic_store_n(&panel_override, k, __ATOMIC_RELAXED);
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
    gputile_matrix dev;  /* what kernels use: a compact copy (host), or user */
} operand;

typedef struct pipeline {
    gputile__gemm_choice choice;
    gputile__gemm_args args;
    operand a, b, c;
    bool reads_ab, reads_c;
    size_t mb, nb, rows, cols; /* tile shape; tiles along m and n */
    size_t kp, panels;         /* panel length along k; panels of a block */
    int device;
    cudaStream_t user, h2d, comp, d2h;
    cudaEvent_t start, *ev_a, *ev_b, *ev_cin, *ev_done; /* ev_a, ev_b: one a panel */
    size_t n_events;
    cudaEvent_t *events; /* every event above, for cleanup */
    gputile__ring up, down;
    bool up_ready, down_ready;
    void *space; /* the compact copies of the host operands */
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

/* op(A)'s row block [r0, r0 + h), its panel [k0, k0 + kl) along k, as a
 * rectangle of the stored A. */
static void a_block(const pipeline *p, size_t r0, size_t h, size_t k0, size_t kl, size_t *row,
                    size_t *col, size_t *w, size_t *hh)
{
    if (p->args.trans_a) {
        *row = k0, *col = r0, *w = h, *hh = kl;
    } else {
        *row = r0, *col = k0, *w = kl, *hh = h;
    }
}

/* op(B)'s column block [c0, c0 + w), its panel [k0, k0 + kl) along k, as a
 * rectangle of the stored B. */
static void b_block(const pipeline *p, size_t c0, size_t w, size_t k0, size_t kl, size_t *row,
                    size_t *col, size_t *ww, size_t *h)
{
    if (p->args.trans_b) {
        *row = c0, *col = k0, *ww = kl, *h = w;
    } else {
        *row = k0, *col = c0, *ww = w, *h = kl;
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

/* Length of panel q along k: [q kp, min(k, (q + 1) kp)). */
static size_t panel_len(const pipeline *p, size_t q)
{
    const size_t k = (size_t)p->args.k, k0 = q * p->kp;
    return k - k0 < p->kp ? k - k0 : p->kp;
}

/* The events of panel q of tile t's host blocks: A_i's (t's row of
 * tiles) and B_j's (its column). */
static cudaEvent_t panel_a_event(const pipeline *p, size_t t, size_t q)
{
    return p->ev_a[t / p->cols * p->panels + q];
}

static cudaEvent_t panel_b_event(const pipeline *p, size_t t, size_t q)
{
    return p->ev_b[t % p->cols * p->panels + q];
}

/* Uploads panel q of A_i and of B_j (as new_a, new_b say) for tile t =
 * (i, j), each followed by its event. */
static gputile_status upload_panel(pipeline *p, size_t t, size_t q, bool new_a, bool new_b)
{
    size_t r0, c0, th, tw, row, col, w, h;
    tile_of(p, t, &r0, &c0, &th, &tw);
    const size_t k0 = q * p->kp, kl = panel_len(p, q);
    gputile_status s = GPUTILE_SUCCESS;
    if (new_a) {
        a_block(p, r0, th, k0, kl, &row, &col, &w, &h);
        s = upload(p, &p->a, row, col, w, h, panel_a_event(p, t, q));
    }
    if (s == GPUTILE_SUCCESS && new_b) {
        b_block(p, c0, tw, k0, kl, &row, &col, &w, &h);
        s = upload(p, &p->b, row, col, w, h, panel_b_event(p, t, q));
    }
    return s;
}

/* Queues on comp tile t's product over panels [q0, q1) of k, after those
 * panels of its host blocks (h2d runs in order: the last one's event
 * covers the rest) and, with wait_c, its C: alpha op(A) op(B) + beta C
 * from the first panel, + C after it. */
static gputile_status multiply(pipeline *p, size_t t, size_t q0, size_t q1, bool wait_c)
{
    size_t r0, c0, th, tw;
    tile_of(p, t, &r0, &c0, &th, &tw);
    cudaError_t err = cudaSuccess;
    if (p->a.host) /* host blocks are uploaded only where A and B are read */
        err = cudaStreamWaitEvent(p->comp, panel_a_event(p, t, q1 - 1), 0);
    if (err == cudaSuccess && p->b.host)
        err = cudaStreamWaitEvent(p->comp, panel_b_event(p, t, q1 - 1), 0);
    if (err == cudaSuccess && wait_c)
        err = cudaStreamWaitEvent(p->comp, p->ev_cin[t], 0);
    if (err != cudaSuccess)
        return gputile__cuda_status(err);
    gputile__gemm_args ta = p->args;
    ta.m = (int64_t)th;
    ta.n = (int64_t)tw;
    if (p->reads_ab) {
        const size_t k0 = q0 * p->kp, sa = p->a.dev.stride, sb = p->b.dev.stride;
        ta.k = (int64_t)(q1 == p->panels ? (size_t)p->args.k - k0 : (q1 - q0) * p->kp);
        ta.a = p->a.dev.elements + (p->args.trans_a ? k0 * sa + r0 : r0 * sa + k0);
        ta.lda = (int64_t)sa;
        ta.b = p->b.dev.elements + (p->args.trans_b ? c0 * sb + k0 : k0 * sb + c0);
        ta.ldb = (int64_t)sb;
        ta.beta = q0 == 0 ? p->args.beta : 1.0f;
    }
    ta.c = p->c.dev.elements + r0 * p->c.dev.stride + c0;
    ta.ldc = (int64_t)p->c.dev.stride;
    return gputile__gemm_execute(&p->choice, &ta, p->comp);
}

/* Queues everything, tile by tile; returns once pageable C is home (the
 * rest is queued). Pageable C is unpacked after the last upload is packed:
 * the copy threads' work (upload and download) is what bounds a pageable
 * call where the copies outweigh the kernels (4096^3: 128 MiB in, 64 out,
 * 2.9 ms of kernels), so that the GPU, not the host, waits; a tile unpacked
 * between uploads delayed the next block's panels, and with them every
 * kernel after. Where the kernels outweigh the copies the uploads run
 * ahead, and C's tiles come home as their kernels end. */
static gputile_status run_tiles(pipeline *p)
{
    const size_t tiles = p->rows * p->cols;
    const bool up_a = p->a.host, up_b = p->b.host; /* host blocks, and A and B read */
    const bool up_c = p->c.host && p->reads_c;
    const bool unpack = p->c.host && !p->c.pinned; /* C's tiles unpacked here, at the end */
    gputile_status s = GPUTILE_SUCCESS;

    for (size_t t = 0; t < tiles && s == GPUTILE_SUCCESS; ++t) {
        size_t i = t / p->cols, j = t % p->cols, r0, c0, th, tw;
        tile_of(p, t, &r0, &c0, &th, &tw);
        /* A_i is first needed by tile (i, 0), B_j by tile (0, j): they
         * come in panel by panel, each multiplied as it lands */
        const bool new_a = up_a && j == 0, new_b = up_b && i == 0;
        const size_t steps = new_a || new_b ? p->panels : 1;
        for (size_t q = 0; q < steps && s == GPUTILE_SUCCESS; ++q) {
            if (new_a || new_b)
                s = upload_panel(p, t, q, new_a, new_b);
            if (s == GPUTILE_SUCCESS && up_c && q == 0)
                s = upload(p, &p->c, r0, c0, tw, th, p->ev_cin[t]);
            if (s == GPUTILE_SUCCESS)
                s = steps > 1 ? multiply(p, t, q, q + 1, up_c && q == 0)
                              : multiply(p, t, 0, p->panels, up_c);
        }
        if (s == GPUTILE_SUCCESS)
            s = gputile__cuda_status(cudaEventRecord(p->ev_done[t], p->comp));
        if (s == GPUTILE_SUCCESS && p->c.host && p->c.pinned)
            s = download(p, t);
    }
    for (size_t t = 0; t < tiles && s == GPUTILE_SUCCESS && unpack; ++t)
        s = download(p, t); /* waits for the tile's kernel, then unpacks it */
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

/* The panels along k of the blocks: GPUTILE__GEMM_HOST_PANELS at most,
 * each GPUTILE__GEMM_HOST_PANEL_K long at least, 64 elements (256 bytes)
 * a multiple. */
static void panels_of(pipeline *p)
{
    const size_t k = p->reads_ab ? (size_t)p->args.k : 0;
    const size_t least = __atomic_load_n(&panel_override, __ATOMIC_RELAXED);
    size_t n = k / (least != 0 ? least : GPUTILE__GEMM_HOST_PANEL_K);
    n = n < 1 ? 1 : n > GPUTILE__GEMM_HOST_PANELS ? GPUTILE__GEMM_HOST_PANELS : n;
    p->kp = ((k + n - 1) / n + 63) / 64 * 64;
    p->panels = k > 0 ? (k + p->kp - 1) / p->kp : 1;
}

static void setup_operand(operand *o, gputile_matrix m, bool host, bool used)
{
    o->user = m;
    o->dev = m;
    o->host = host && used && !gputile__is_empty(m);
    o->pinned = o->host && is_pinned(m);
}

/* The compact copies of the host operands (host[i]) in one block: operand
 * i at off[i], size[i] bytes, 256-byte aligned. Returns the block's size. */
static size_t compact_layout(const gputile_matrix user[3], const bool host[3], size_t off[3],
                             size_t size[3])
{
    size_t total = 0;
    for (int i = 0; i < 3; ++i) {
        off[i] = total;
        size[i] = host[i] ? user[i].width * user[i].height * sizeof(float) : 0;
        total += (size[i] + 255) & ~(size_t)255;
    }
    return total;
}

/* The compact copy of m at base + off: its rows back to back. */
static gputile_matrix compact_view(gputile_matrix m, void *base, size_t off)
{
    m.elements = (float *)((char *)base + off);
    m.stride = m.width;
    return m;
}

/* The compact copies in one workspace block: one request, which the pool
 * then keeps whole between calls (workspace.c keeps the largest request;
 * three requests of 64 MiB at 4096^3 left two to be mapped anew on every
 * call). */
static gputile_status place_operands(pipeline *p)
{
    operand *ops[3] = {&p->a, &p->b, &p->c};
    const gputile_matrix user[3] = {p->a.user, p->b.user, p->c.user};
    const bool host[3] = {p->a.host, p->b.host, p->c.host};
    size_t off[3], size[3];
    const size_t total = compact_layout(user, host, off, size);
    if (total == 0)
        return GPUTILE_SUCCESS;
    cudaError_t err = gputile__workspace_acquire(&p->space, total, p->device, p->user);
    if (err != cudaSuccess)
        return gputile__cuda_status(err); /* clears the pending error too */
    for (int i = 0; i < 3; ++i)
        if (host[i])
            ops[i]->dev = compact_view(user[i], p->space, off[i]);
    return GPUTILE_SUCCESS;
}

static gputile_status make_events(pipeline *p)
{
    const size_t tiles = p->rows * p->cols;
    const size_t n = 1 + (p->rows + p->cols) * p->panels + 2 * tiles;
    p->events = calloc(n, sizeof *p->events);
    if (p->events == NULL)
        return GPUTILE_ERROR_OUT_OF_MEMORY; /* n_events stays 0: the cleanup destroys none */
    p->n_events = n;
    for (size_t e = 0; e < p->n_events; ++e) {
        cudaError_t err = cudaEventCreateWithFlags(&p->events[e], cudaEventDisableTiming);
        if (err != cudaSuccess) {
            p->n_events = e;
            return gputile__cuda_status(err);
        }
    }
    p->start = p->events[0];
    p->ev_a = p->events + 1;
    p->ev_b = p->ev_a + p->rows * p->panels;
    p->ev_cin = p->ev_b + p->cols * p->panels;
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
    size_t off[3], size[3];
    gputile_matrix dev[3];
    for (int i = 0; i < 3; ++i) {
        host[i] = at[i] == GPUTILE__MEMORY_HOST && used[i] && !gputile__is_empty(user[i]);
        dev[i] = user[i];
    }
    const size_t total = compact_layout(user, host, off, size);
    /* Packed: small operands go through one pinned bounce buffer, in and
     * out in one DMA each, into the device buffer kept beside it when they
     * fit (gemm_host.h); NULL: each moves on its own. */
    void *ws = NULL, *slot_dev = NULL;
    char *packed = total > 0 && total <= packed_max()
                       ? gputile__bounce_acquire(
                             total <= GPUTILE__BOUNCE_DEVICE_BYTES ? &slot_dev : NULL, stream)
                       : NULL;
    gputile_status s = GPUTILE_SUCCESS;
    if (slot_dev != NULL)
        ws = slot_dev;
    else if (total > 0)
        s = gputile__cuda_status(gputile__workspace_acquire(&ws, total, choice[0].device, stream));
    size_t up = 0, sent = 0; /* packed bytes to upload; uploaded */
    for (int i = 0; i < 3 && s == GPUTILE_SUCCESS; ++i)
        if (host[i]) {
            dev[i] = compact_view(user[i], ws, off[i]);
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
    panels_of(p);

    gputile_status s = gputile__cuda_status(cudaGetDevice(&p->device));
    cudaStream_t *streams[3] = {&p->h2d, &p->comp, &p->d2h};
    for (int i = 0; i < 3 && s == GPUTILE_SUCCESS; ++i) /* never implicitly synchronised */
        s = gputile__cuda_status(cudaStreamCreateWithFlags(streams[i], cudaStreamNonBlocking));
    if (s == GPUTILE_SUCCESS)
        s = make_events(p);
    setup_operand(&p->a, a, at[0] == GPUTILE__MEMORY_HOST, p->reads_ab);
    setup_operand(&p->b, b, at[1] == GPUTILE__MEMORY_HOST, p->reads_ab);
    setup_operand(&p->c, c, at[2] == GPUTILE__MEMORY_HOST, true);
    if (s == GPUTILE_SUCCESS)
        s = place_operands(p);

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
        /* chunks of GPUTILE__GEMM_HOST_DOWN_CHUNK at most: a tile's last
         * chunk is unpacked after its DMA, past the tile's kernel */
        size_t chunk = gputile__stage_chunk(false);
        chunk = chunk < GPUTILE__GEMM_HOST_DOWN_CHUNK ? chunk : GPUTILE__GEMM_HOST_DOWN_CHUNK;
        s = gputile__ring_init(&p->down, chunk, SIZE_MAX);
        p->down_ready = s == GPUTILE_SUCCESS;
    }

    if (s == GPUTILE_SUCCESS)
        s = run_tiles(p);

    /* The caller's stream waits for all three streams; the compact copies
     * are freed in its order; then the result is complete on return. */
    for (int i = 0; i < 3; ++i)
        if (*streams[i] != NULL && p->n_events > 0) {
            cudaEvent_t end = p->events[0]; /* start is no longer waited on: reuse it */
            keep(&s, gputile__cuda_status(cudaEventRecord(end, *streams[i])));
            keep(&s, gputile__cuda_status(cudaStreamWaitEvent(p->user, end, 0)));
        }
    if (p->space != NULL)
        keep(&s, gputile__cuda_status(gputile__workspace_release(p->space, p->user)));
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
    free(p);
    return s;
}
