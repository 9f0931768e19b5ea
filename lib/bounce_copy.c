/* SPDX-License-Identifier: MIT */
/*
 * bounce_copy.c: mid-sized copies of pageable memory through one pinned
 * bounce buffer (the BOUNCE method of copy_policy.h).
 *
 * The staging ring of staged_copy.c costs a pool request per buffer, an
 * event each and a full chunk before the first DMA starts: too much for a
 * copy of a few MiB, where the driver's own single-threaded staging
 * (~10 GB/s host->device) used to win. Here each device keeps up to
 * GPUTILE__BOUNCE_SLOTS buffers of GPUTILE__BOUNCE_BYTES, pinned once on
 * first use (cudaHostAlloc, outside the pool: they are never handed to the
 * user), each with its events, kept until gputile_pool_release() or the
 * end of the process (gputile__bounce_release_idle()).
 * A copy takes a free slot, cuts the bytes into up to
 * GPUTILE__BOUNCE_MAX_PIECES pieces, and:
 *  - host->device: the copy threads fill piece i while the DMA of piece
 *    i - 1 runs; the call returns as soon as the last DMA is queued (the
 *    source has been copied), with an event marking when the buffer is free
 *    again: the next copy through this slot waits on it, no one else does;
 *  - device->host: the DMAs of every piece are queued at once, each with an
 *    event; piece i is drained by the copy threads while later pieces
 *    arrive; the call returns when the destination holds every byte.
 * When every slot of the device is taken (concurrent copies), or the only
 * ones free are still read by DMAs queued on another stream (which may wait
 * behind any amount of that stream's work), the caller copies another way.
 * The host GEMM's packed flow borrows a slot whole
 * (gputile__bounce_acquire()), with a small device buffer kept beside it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "copy_policy.h"
#include "copy_threads.h"

typedef struct slot {
    char *buf; /* NULL until first use */
    void *dev; /* device memory beside it (GPUTILE__BOUNCE_DEVICE_BYTES), NULL until asked for */
    cudaEvent_t done[GPUTILE__BOUNCE_MAX_PIECES]; /* the DMAs of the last copy */
    bool taken;                                   /* a copy is using it (under lock) */
    bool busy;                                    /* done[0] recorded and not yet waited on */
    unsigned long long stream; /* cudaStreamGetId() of the stream done[0] was recorded on */
} slot;

static slot slots[GPUTILE__MAX_DEVICES][GPUTILE__BOUNCE_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

int gputile__bounce_pieces(size_t bytes)
{
    size_t n = bytes / GPUTILE__BOUNCE_PIECE_MIN;
    return n < 1 ? 1 : n > GPUTILE__BOUNCE_MAX_PIECES ? GPUTILE__BOUNCE_MAX_PIECES : (int)n;
}

void gputile__bounce_release_idle(void)
{
    bool freed = false;
    pthread_mutex_lock(&lock);
    for (int d = 0; d < GPUTILE__MAX_DEVICES; ++d)
        for (int i = 0; i < GPUTILE__BOUNCE_SLOTS; ++i) {
            slot *s = &slots[d][i];
            if (s->taken || s->buf == NULL)
                continue;
            if (s->busy) /* its last DMAs read it: wait for them */
                (void)cudaEventSynchronize(s->done[0]);
            for (int e = 0; e < GPUTILE__BOUNCE_MAX_PIECES; ++e)
                (void)cudaEventDestroy(s->done[e]);
            if (s->dev != NULL) { /* cudaFree on its own device */
                int current;
                if (cudaGetDevice(&current) == cudaSuccess && cudaSetDevice(d) == cudaSuccess) {
                    (void)cudaFree(s->dev);
                    (void)cudaSetDevice(current);
                }
                s->dev = NULL;
            }
            (void)cudaFreeHost(s->buf);
            s->buf = NULL;
            s->busy = false;
            freed = true;
        }
    pthread_mutex_unlock(&lock);
    if (freed)
        (void)cudaGetLastError(); /* at exit or after a reset: nothing to report */
}

/* In a child forked after the first buffer was pinned: the buffers, events
 * and device memory are the parent's (CUDA does not follow a fork), and the
 * lock may have been held by a thread that does not exist here (a
 * gputile_pool_release() under way): the child forgets them all, so its
 * exit handler finds nothing to free and no lock to wait for. */
static void forked_child(void)
{
    pthread_mutex_init(&lock, NULL);
    memset(slots, 0, sizeof slots);
}

/* Registered with atexit() after the first buffer is pinned, so after the
 * CUDA runtime registered its own teardown: it runs first, while the
 * runtime can still free the buffers (a destructor would run after it), and
 * leak checkers see no pinned memory left. */
static void register_release_at_exit(void)
{
    (void)atexit(gputile__bounce_release_idle);
    (void)pthread_atfork(NULL, NULL, forked_child);
}

/* Pins a slot's buffer and creates its events (current device). */
static cudaError_t prepare(slot *s)
{
    static pthread_once_t registered = PTHREAD_ONCE_INIT;
    void *p = NULL;
    int made = 0;
    cudaError_t err = cudaHostAlloc(&p, GPUTILE__BOUNCE_BYTES, cudaHostAllocPortable);
    while (err == cudaSuccess && made < GPUTILE__BOUNCE_MAX_PIECES &&
           (err = cudaEventCreateWithFlags(&s->done[made], cudaEventDisableTiming)) == cudaSuccess)
        ++made;
    if (err != cudaSuccess) {
        while (made > 0)
            (void)cudaEventDestroy(s->done[--made]);
        if (p != NULL)
            (void)cudaFreeHost(p);
        (void)cudaGetLastError(); /* the caller copies another way: leave no trace */
        return err;
    }
    s->buf = p;
    s->busy = false;
    pthread_once(&registered, register_release_at_exit);
    return cudaSuccess;
}

/* The stream's id (cudaStreamGetId: the per-thread default stream is a
 * different stream in each thread, with one handle); 0, which no stream
 * has, when it cannot be asked. */
static unsigned long long stream_id(cudaStream_t stream)
{
    unsigned long long id = 0;
    if (cudaStreamGetId(stream, &id) != cudaSuccess) {
        (void)cudaGetLastError(); /* a bad stream: the copy's own calls report it */
        id = 0;
    }
    return id;
}

/* A slot of the current device for a copy on `stream`, ready to be
 * written; NULL when all are taken, none can be pinned, or the only free
 * ones wait for DMAs queued on another stream. */
static slot *take(cudaStream_t stream)
{
    const gputile__device *dev;
    if (gputile__device_lookup(&dev) != cudaSuccess)
        return NULL;
    const unsigned long long id = stream_id(stream);
    slot *row = slots[dev->ordinal], *pick = NULL;
    pthread_mutex_lock(&lock);
    /* A ready buffer first, then a new one, then one whose DMAs were queued
     * on this same stream: this copy's own work queues behind them anyway
     * (CUDA's pageable copies wait for the stream too). A DMA queued on
     * another stream may wait behind any amount of that stream's work:
     * such a slot is never waited for (the caller copies directly). */
    for (int i = 0; i < GPUTILE__BOUNCE_SLOTS && pick == NULL; ++i)
        if (!row[i].taken && row[i].buf != NULL &&
            (!row[i].busy || gputile__event_done(row[i].done[0])))
            pick = &row[i];
    for (int i = 0; i < GPUTILE__BOUNCE_SLOTS && pick == NULL; ++i)
        if (!row[i].taken && row[i].buf == NULL)
            pick = &row[i];
    for (int i = 0; i < GPUTILE__BOUNCE_SLOTS && pick == NULL; ++i)
        if (!row[i].taken && id != 0 && row[i].stream == id)
            pick = &row[i];
    if (pick != NULL)
        pick->taken = true;
    pthread_mutex_unlock(&lock);
    if (pick == NULL)
        return NULL;
    cudaError_t err = cudaSuccess;
    if (pick->buf == NULL)
        err = prepare(pick);
    else if (pick->busy && (err = cudaEventSynchronize(pick->done[0])) != cudaSuccess)
        (void)cudaGetLastError();
    if (err != cudaSuccess) {
        pthread_mutex_lock(&lock);
        pick->taken = false;
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    pick->busy = false;
    return pick;
}

static void give_back(slot *s)
{
    pthread_mutex_lock(&lock);
    s->taken = false;
    pthread_mutex_unlock(&lock);
}

char *gputile__bounce_acquire(void **dev, cudaStream_t stream)
{
    slot *s = take(stream);
    if (s == NULL)
        return NULL;
    if (dev != NULL) {
        if (s->dev == NULL && cudaMalloc(&s->dev, GPUTILE__BOUNCE_DEVICE_BYTES) != cudaSuccess) {
            s->dev = NULL;
            (void)cudaGetLastError(); /* the caller finds device memory another way */
        }
        *dev = s->dev;
    }
    return s->buf;
}

void gputile__bounce_release(char *buf)
{
    for (int d = 0; d < GPUTILE__MAX_DEVICES; ++d)
        for (int i = 0; i < GPUTILE__BOUNCE_SLOTS; ++i)
            if (slots[d][i].buf == buf && buf != NULL) {
                give_back(&slots[d][i]); /* not busy: the caller waited for its DMAs */
                return;
            }
}

/* Piece i of n of a copy of `bytes`: page-multiple pieces, the last one
 * shorter. */
static void piece(size_t bytes, int n, int i, size_t *off, size_t *len)
{
    size_t each = ((bytes + (size_t)n - 1) / (size_t)n + 4095) & ~(size_t)4095;
    *off = each * (size_t)i < bytes ? each * (size_t)i : bytes;
    *len = bytes - *off < each ? bytes - *off : each;
}

gputile_status gputile__bounce_upload(void *dst, const void *src, size_t bytes, cudaStream_t stream,
                                      bool *done)
{
    slot *s = take(stream);
    *done = s != NULL;
    if (s == NULL)
        return GPUTILE_SUCCESS;
    const int n = gputile__bounce_pieces(bytes);
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < n && err == cudaSuccess; ++i) {
        size_t off, len;
        piece(bytes, n, i, &off, &len);
        if (len == 0)
            break;
        gputile__parallel_copy2d(s->buf + off, len, (const char *)src + off, len, len, 1);
        err = cudaMemcpyAsync((char *)dst + off, s->buf + off, len, cudaMemcpyDefault, stream);
    }
    /* The buffer stays in use until the queued DMAs have read it. */
    cudaError_t rec = cudaEventRecord(s->done[0], stream);
    if (rec == cudaSuccess) {
        s->busy = true;
        s->stream = stream_id(stream);
    } else if (cudaStreamSynchronize(stream) != cudaSuccess) /* the DMAs, if any, are over */
        (void)cudaGetLastError();
    give_back(s);
    return gputile__cuda_status(err != cudaSuccess ? err : rec);
}

gputile_status gputile__bounce_download(void *dst, const void *src, size_t bytes,
                                        cudaStream_t stream, bool *done)
{
    slot *s = take(stream);
    *done = s != NULL;
    if (s == NULL)
        return GPUTILE_SUCCESS;
    const int n = gputile__bounce_pieces(bytes);
    cudaError_t err = cudaSuccess;
    int queued = 0; /* pieces whose DMA and event are queued */
    for (; queued < n && err == cudaSuccess; ++queued) {
        size_t off, len;
        piece(bytes, n, queued, &off, &len);
        err =
            cudaMemcpyAsync(s->buf + off, (const char *)src + off, len, cudaMemcpyDefault, stream);
        if (err == cudaSuccess && (err = cudaEventRecord(s->done[queued], stream)) != cudaSuccess &&
            cudaStreamSynchronize(stream) != cudaSuccess) /* a DMA without its event: wait */
            (void)cudaGetLastError();
        if (err != cudaSuccess)
            break;
    }
    /* Drain piece i while the later ones arrive; after an error only wait
     * for what was queued (the buffer must be free before it is reused). */
    for (int i = 0; i < queued; ++i) {
        cudaError_t w = cudaEventSynchronize(s->done[i]);
        if (err == cudaSuccess)
            err = w;
        if (err != cudaSuccess)
            continue;
        size_t off, len;
        piece(bytes, n, i, &off, &len);
        gputile__parallel_copy2d((char *)dst + off, len, s->buf + off, len, len, 1);
    }
    give_back(s);
    return gputile__cuda_status(err);
}
