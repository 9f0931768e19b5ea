/* SPDX-License-Identifier: MIT */
/*
 * dist_gemm.c: gputile_dist_gemm() (issue 22), SUMMA on a 1-D row-block
 * layout over an NCCL communicator.
 *
 * Rank r holds rows M_r of op(A) (all of k) and of C, and rows K_r of
 * op(B) (gputile_dist_block). C_r = sum over ranks q of
 * op(A)_r[:, K_q] op(B)_q, so op(B)'s blocks are broadcast, each in panels
 * of at most GPUTILE_DIST_PANEL rows, and each rank multiplies its A
 * columns of a panel with gputile_gemm() (every algorithm and precision;
 * beta on the first panel, 1 after). Two streams: the caller's runs the
 * GEMMs; a high-priority stream of our own packs the owner's panel into a
 * contiguous buffer and broadcasts it, so NCCL's blocks get SMs between the
 * GEMM's waves. Two panel buffers, joined by events:
 *
 *   comm:    [wait free[p%2]] pack(p) bcast(p) -> ready[p%2]
 *   caller:  [wait ready[p%2]] gemm(p) -> free[p%2]
 *
 * so panel p + 1 travels while panel p multiplies. Every rank takes the
 * same panels in the same order (they follow from the global k and the
 * rank count), as NCCL requires. The buffers hold a panel in op(B)'s
 * stored orientation (kp x n, or n x kp with GPUTILE_OP_T) and come from
 * the stream-ordered workspace; the caller's stream waits for the comm
 * stream's last work before they go back.
 */
#include "dist.h"
#include "gemm_launch.h"

#ifndef GPUTILE_WITH_NCCL

gputile_status gputile_dist_gemm(gputile_dist_layout layout, gputile_op trans_a, gputile_op trans_b,
                                 float alpha, gputile_matrix a, gputile_matrix b, float beta,
                                 gputile_matrix c, void *comm, struct CUstream_st *stream,
                                 gputile_gemm_options *options)
{
    (void)layout, (void)trans_a, (void)trans_b, (void)alpha, (void)a, (void)b, (void)beta;
    (void)c, (void)comm, (void)stream, (void)options;
    return GPUTILE_ERROR_UNSUPPORTED;
}

#else /* GPUTILE_WITH_NCCL */

/* op(M)'s rows and columns. */
static size_t op_rows(gputile_op t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.width : m.height;
}
static size_t op_cols(gputile_op t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.height : m.width;
}

/* The view of m's rectangle (row, col, w x h); an empty one keeps m's
 * pointer (no arithmetic on a NULL of an empty matrix). */
static gputile_matrix sub(gputile_matrix m, size_t row, size_t col, size_t w, size_t h)
{
    gputile_matrix v = {w, h, m.stride, m.elements};
    if (w != 0 && h != 0)
        v.elements = m.elements + row * m.stride + col;
    return v;
}

/* op(A)'s columns [k0, k0 + kk) as a view of the stored a. */
static gputile_matrix a_cols(gputile_op ta, gputile_matrix a, size_t k0, size_t kk)
{
    return ta == GPUTILE_OP_T ? sub(a, k0, 0, a.width, kk) : sub(a, 0, k0, kk, a.height);
}

/* Device (or managed) memory of the current device, or empty. */
static gputile_status check_device(gputile_matrix m)
{
    gputile__memory where;
    gputile_status s;
    if (gputile__is_empty(m))
        return GPUTILE_SUCCESS;
    if ((s = gputile__memory_of(m, &where)) != GPUTILE_SUCCESS)
        return s;
    return where == GPUTILE__MEMORY_DEVICE ? GPUTILE_SUCCESS : GPUTILE_ERROR_INVALID_VALUE;
}

/* Everything before any work is queued, in the man page's order. */
static gputile_status check(gputile_dist_layout layout, gputile_op ta, gputile_op tb,
                            gputile_matrix a, gputile_matrix b, gputile_matrix c, void *comm,
                            const gputile_gemm_options *options, gputile__comm *cm, size_t *k0)
{
    gputile_status s;
    if (comm == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (layout != GPUTILE_DIST_ROWS)
        return GPUTILE_ERROR_INVALID_VALUE;
    if ((s = gputile__gemm_read_options(options, &(int){0}, &(int){0}, &(int){0})) !=
        GPUTILE_SUCCESS)
        return s;
    if ((ta != GPUTILE_OP_N && ta != GPUTILE_OP_T) || (tb != GPUTILE_OP_N && tb != GPUTILE_OP_T))
        return GPUTILE_ERROR_INVALID_VALUE;
    if ((s = gputile__check_matrix(a)) != GPUTILE_SUCCESS ||
        (s = gputile__check_matrix(b)) != GPUTILE_SUCCESS ||
        (s = gputile__check_matrix(c)) != GPUTILE_SUCCESS)
        return s;
    if ((s = gputile__comm_open(comm, cm)) != GPUTILE_SUCCESS)
        return s;
    size_t kr;
    const size_t k = op_cols(ta, a);
    if ((s = gputile_dist_block(k, cm->ranks, cm->rank, k0, &kr)) != GPUTILE_SUCCESS)
        return s;
    if (op_rows(ta, a) != c.height || op_cols(tb, b) != c.width || op_rows(tb, b) != kr)
        return GPUTILE_ERROR_SHAPE_MISMATCH;
    /* This rank's own product, op(A)[:, K_r] op(B)_r, is a valid GEMM; C
     * overlaps none of A (all of it) and B. */
    if ((s = gputile__gemm_check(ta, tb, a_cols(ta, a, *k0, kr), b, c)) != GPUTILE_SUCCESS)
        return s;
    if (gputile__overlap(c, a))
        return GPUTILE_ERROR_ALIASING;
    if ((s = check_device(a)) != GPUTILE_SUCCESS || (s = check_device(b)) != GPUTILE_SUCCESS ||
        (s = check_device(c)) != GPUTILE_SUCCESS)
        return s;
    return GPUTILE_SUCCESS;
}

typedef struct summa {
    gputile__comm cm;
    gputile_op ta, tb;
    float alpha, beta;
    gputile_matrix a, b, c;
    size_t k, n;
    cudaStream_t user, comm;
    float *buf[2];
    cudaEvent_t ready[2], freed[2], start, done;
    gputile_gemm_options *options;
} summa;

/* Panel p: rows [x, x + kp) of rank q's block of op(B), whose first row is
 * row q0 of op(B). */
static gputile_status panel(summa *w, size_t p, int q, size_t q0, size_t x, size_t kp,
                            gputile_status *gemm)
{
    const int i = (int)(p % 2);
    float *buf = w->buf[i];
    gputile_status s;
    if (p >= 2 &&
        (s = gputile__cuda_status(cudaStreamWaitEvent(w->comm, w->freed[i], 0))) != GPUTILE_SUCCESS)
        return s;
    /* The panel as stored: kp x n (op N) or n x kp (op T), rows packed. */
    const bool t = w->tb == GPUTILE_OP_T;
    const gputile_matrix packed =
        t ? (gputile_matrix){kp, w->n, kp, buf} : (gputile_matrix){w->n, kp, w->n, buf};
    if (q == w->cm.rank) {
        const gputile_matrix src = t ? sub(w->b, 0, x, kp, w->n) : sub(w->b, x, 0, w->n, kp);
        if ((s = gputile__cuda_status(gputile__memcpy2d_async(
                 gputile__matrix_rect(packed), gputile__matrix_rect(src), w->comm))) !=
            GPUTILE_SUCCESS)
            return s;
    }
    if ((s = gputile__nccl_status((int)ncclBroadcast(buf, buf, kp * w->n, ncclFloat, q, w->cm.comm,
                                                     w->comm))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(cudaEventRecord(w->ready[i], w->comm))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(cudaStreamWaitEvent(w->user, w->ready[i], 0))) != GPUTILE_SUCCESS)
        return s;
    /* A local multiply that fails (one that depends on this rank's rows:
     * UNSUPPORTED, a workspace) is this rank's alone: it still takes part
     * in every broadcast, which its peers wait for, multiplies nothing
     * more, and returns the failure at the end. */
    if (*gemm == GPUTILE_SUCCESS)
        *gemm = gputile_gemm(w->ta, w->tb, w->alpha, a_cols(w->ta, w->a, q0 + x, kp), packed,
                             p == 0 ? w->beta : 1.0f, w->c, w->user, w->options);
    return gputile__cuda_status(cudaEventRecord(w->freed[i], w->user));
}

/* Every panel of every rank's block, in rank order. */
static gputile_status panels(summa *w)
{
    size_t p = 0;
    gputile_status gemm = GPUTILE_SUCCESS; /* the first local multiply's failure */
    for (int q = 0; q < w->cm.ranks; ++q) {
        size_t q0, kq;
        gputile_status s = gputile_dist_block(w->k, w->cm.ranks, q, &q0, &kq);
        for (size_t x = 0; s == GPUTILE_SUCCESS && x < kq; x += GPUTILE_DIST_PANEL, ++p) {
            const size_t kp = kq - x < GPUTILE_DIST_PANEL ? kq - x : GPUTILE_DIST_PANEL;
            s = panel(w, p, q, q0, x, kp, &gemm);
        }
        if (s != GPUTILE_SUCCESS)
            return s;
    }
    return gemm;
}

/* Streams, events and buffers, then the panels; whatever happens, the
 * caller's stream waits for the comm stream before the buffers go back. */
static gputile_status run(summa *w)
{
    int device, lo, hi;
    gputile_status s, r;
    /* the largest rank's block of k: ceil(k / ranks) (k / ranks + 1 made
     * the buffers twice the size needed where ranks divides k = ranks) */
    const size_t block = w->k / (size_t)w->cm.ranks + (w->k % (size_t)w->cm.ranks != 0);
    const size_t kp_max = block < GPUTILE_DIST_PANEL ? block : GPUTILE_DIST_PANEL;
    const size_t bytes = kp_max * w->n * sizeof(float);
    cudaEvent_t *events[] = {&w->ready[0], &w->ready[1], &w->freed[0],
                             &w->freed[1], &w->start,    &w->done};
    size_t made = 0;

    if ((s = gputile__cuda_status(cudaGetDevice(&device))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(cudaDeviceGetStreamPriorityRange(&lo, &hi))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(
             cudaStreamCreateWithPriority(&w->comm, cudaStreamNonBlocking, hi))) != GPUTILE_SUCCESS)
        return s;
    (void)lo;
    for (; made < sizeof events / sizeof events[0]; ++made)
        if ((s = gputile__cuda_status(cudaEventCreateWithFlags(
                 events[made], cudaEventDisableTiming))) != GPUTILE_SUCCESS)
            break;
    for (int i = 0; s == GPUTILE_SUCCESS && i < 2; ++i)
        s = gputile__cuda_status(
            gputile__workspace_acquire((void **)&w->buf[i], bytes, device, w->user));
    if (s == GPUTILE_SUCCESS &&
        (s = gputile__cuda_status(cudaEventRecord(w->start, w->user))) == GPUTILE_SUCCESS &&
        (s = gputile__cuda_status(cudaStreamWaitEvent(w->comm, w->start, 0))) == GPUTILE_SUCCESS)
        s = panels(w);
    if (made == sizeof events / sizeof events[0]) { /* join: nothing on comm outlives the buffers */
        if ((r = gputile__cuda_status(cudaEventRecord(w->done, w->comm))) == GPUTILE_SUCCESS)
            r = gputile__cuda_status(cudaStreamWaitEvent(w->user, w->done, 0));
        if (r != GPUTILE_SUCCESS && cudaStreamSynchronize(w->comm) != cudaSuccess)
            (void)cudaGetLastError(); /* unjoined: the buffers wait for comm on the host */
        if (s == GPUTILE_SUCCESS)
            s = r;
    }
    for (int i = 0; i < 2; ++i)
        if (w->buf[i] != NULL &&
            (r = gputile__cuda_status(gputile__workspace_release(w->buf[i], w->user))) !=
                GPUTILE_SUCCESS &&
            s == GPUTILE_SUCCESS)
            s = r;
    while (made > 0)
        (void)cudaEventDestroy(*events[--made]);
    (void)cudaStreamDestroy(w->comm); /* released once its work is done */
    return s;
}

gputile_status gputile_dist_gemm(gputile_dist_layout layout, gputile_op trans_a, gputile_op trans_b,
                                 float alpha, gputile_matrix a, gputile_matrix b, float beta,
                                 gputile_matrix c, void *comm, struct CUstream_st *stream,
                                 gputile_gemm_options *options)
{
    summa w = {.ta = trans_a,
               .tb = trans_b,
               .alpha = alpha,
               .beta = beta,
               .a = a,
               .b = b,
               .c = c,
               .user = stream,
               .options = options};
    size_t k0;
    gputile_status s = check(layout, trans_a, trans_b, a, b, c, comm, options, &w.cm, &k0);
    if (s != GPUTILE_SUCCESS)
        return s;
    w.k = op_cols(trans_a, a);
    w.n = c.width;
    /* Nothing to multiply (the same on every rank: k, n and alpha are
     * global): C = beta C locally, as gputile_gemm() does for k = 0. */
    if (w.k == 0 || w.n == 0 || alpha == 0.0f) {
        const gputile_matrix no_b = trans_b == GPUTILE_OP_T ? (gputile_matrix){0, w.n, 0, NULL}
                                                            : (gputile_matrix){w.n, 0, w.n, NULL};
        return gputile_gemm(trans_a, trans_b, alpha, a_cols(trans_a, a, 0, 0), no_b, beta, c,
                            stream, options);
    }
    return run(&w);
}

#endif /* GPUTILE_WITH_NCCL */
