/* SPDX-License-Identifier: MIT */
/*
 * staged_copy.c: the STAGED method of copy_policy.h (large pageable copies,
 * and the host GEMM's tiles); gputile_copy() itself is in copy.c.
 *
 * The driver stages pageable memory through its own small pinned buffers
 * with one thread (~7-10 GB/s host->device). Here a copy is cut into chunks
 * that pass through a ring of small pinned slots (GPUTILE__STAGE_SLOTS of a
 * few MiB, so that the ring stays in the last-level cache: staged_copy.h
 * has the measurements). One thread, the caller, is the only one that talks
 * to the driver: it queues each chunk's DMA as soon as the chunk is packed
 * (host->device) or its slot is free (device->host), and watches the DMAs'
 * events in order. The copy threads (copy_threads.h) claim chunks in order
 * and pack them into their slots, or unpack them, each on its own: no
 * barrier between chunks, and the DMA engine always has the next chunk
 * queued. The caller packs too when a chunk is waiting for a thread.
 *
 * Slot of chunk j: (ring->next + j) % n. Two counters per slot hand it over:
 * avail[s] is the chunk that may use slot s next (packed into it, or DMA'd
 * into it), ready[s] is one more than the chunk whose bytes the slot holds
 * for the next step (DMA out of it, or unpacking). A slot still busy with
 * an earlier call's DMA (the host GEMM uploads tile after tile through one
 * ring) becomes available when the caller sees that DMA complete.
 */
#include "staged_copy.h"

#include <sched.h>

static size_t chunk_cap;   /* tests only; 0: none */
static size_t tuned_chunk; /* gputile__stage_tune(); 0: the direction's default */
static int tuned_slots;    /* gputile__stage_tune(); 0: GPUTILE__STAGE_SLOTS */

void gputile__stage_set_chunk_cap(size_t bytes)
{
    __atomic_store_n(&chunk_cap, bytes, __ATOMIC_RELAXED);
}

void gputile__stage_tune(size_t chunk, int slots, int threads)
{
    if (slots > GPUTILE__STAGE_MAX_SLOTS)
        slots = GPUTILE__STAGE_MAX_SLOTS;
    __atomic_store_n(&tuned_chunk, chunk, __ATOMIC_RELAXED);
    __atomic_store_n(&tuned_slots, slots > 0 ? slots : 0, __ATOMIC_RELAXED);
    gputile__copy_threads_set(threads); /* the copy engine keeps its own tunable */
}

size_t gputile__stage_chunk(bool up)
{
    size_t c = __atomic_load_n(&tuned_chunk, __ATOMIC_RELAXED);
    if (c == 0)
        c = up ? GPUTILE__STAGE_UP_CHUNK : GPUTILE__STAGE_DOWN_CHUNK;
    size_t cap = __atomic_load_n(&chunk_cap, __ATOMIC_RELAXED);
    return cap != 0 && c > cap ? cap : c;
}

/* ---- chunks ----
 * A rectangle is cut in equal chunks: whole rows when a row fits in a slot,
 * else pieces of a row (a contiguous copy is one long row). */
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

/* The packed slot holding a piece. */
static gputile__rect packed(void *slot, piece p)
{
    return (gputile__rect){slot, p.len, p.len, p.nrows};
}

/* ---- the ring ---- */
gputile_status gputile__ring_init(gputile__ring *r, size_t chunk, size_t bytes)
{
    r->chunk = chunk;
    r->n = 0;
    r->next = 0;
    r->mem = NULL;
    int slots = __atomic_load_n(&tuned_slots, __ATOMIC_RELAXED);
    if (slots == 0)
        slots = GPUTILE__STAGE_SLOTS;
    size_t useful = bytes / chunk + (bytes % chunk != 0); /* a short copy needs fewer */
    if (useful < (size_t)slots)
        slots = useful > 1 ? (int)useful : 1;
    gputile_status s =
        gputile_pool_alloc((void **)&r->mem, (size_t)slots * chunk, GPUTILE_PINNED_DEFAULT);
    for (int i = 0; i < slots && s == GPUTILE_SUCCESS; ++i) {
        s = gputile__cuda_status(cudaEventCreateWithFlags(&r->done[i], cudaEventDisableTiming));
        if (s == GPUTILE_SUCCESS) {
            r->busy[i] = false;
            r->n = i + 1;
        }
    }
    if (s != GPUTILE_SUCCESS)
        (void)gputile__ring_fini(r);
    return s;
}

gputile_status gputile__ring_fini(gputile__ring *r)
{
    gputile_status s = GPUTILE_SUCCESS, t;
    for (int i = 0; i < r->n; ++i) {
        /* The slots go back to the pool only when no DMA uses them. */
        if (r->busy[i] &&
            (t = gputile__cuda_status(cudaEventSynchronize(r->done[i]))) != GPUTILE_SUCCESS &&
            s == GPUTILE_SUCCESS)
            s = t;
        if ((t = gputile__cuda_status(cudaEventDestroy(r->done[i]))) != GPUTILE_SUCCESS &&
            s == GPUTILE_SUCCESS)
            s = t;
    }
    if (r->mem != NULL && (t = gputile_pool_free(r->mem)) != GPUTILE_SUCCESS &&
        s == GPUTILE_SUCCESS)
        s = t;
    r->mem = NULL;
    r->n = 0;
    return s;
}

/* ---- one pipelined copy ----
 * Threads claim units, eighths of a chunk, in order: the copy threads work
 * on the next two chunks together, so chunks are ready one after another
 * (a DMA can start a few tens of microseconds after the call, and the last
 * one a unit's time after the last byte is packed) rather than a slot's
 * worth of chunks at once (with a chunk per thread, 16 x 2 MiB packed
 * together took 0.75 ms before the first DMA and left 32 MiB to ship at
 * the end: 20% of a 256 MiB copy). */
#define UNITS 8
typedef struct pipe {
    gputile__ring *r;
    gputile__rect host, dev; /* the two sides; chunks are cut on the host's shape */
    bool up;                 /* host -> device */
    cudaStream_t stream;
    size_t n;     /* chunks */
    size_t claim; /* the next unit a thread may take (atomic) */
    size_t ended; /* chunks unpacked (device->host; atomic) */
    int stop;     /* a CUDA call failed: everyone leaves (atomic) */
    cudaError_t err;
    size_t avail[GPUTILE__STAGE_MAX_SLOTS]; /* atomic; see the file comment */
    size_t ready[GPUTILE__STAGE_MAX_SLOTS]; /* atomic */
    int left[GPUTILE__STAGE_MAX_SLOTS];     /* units of the slot's chunk not yet copied (atomic) */
} pipe;

static int slot_of(const pipe *p, size_t j)
{
    return (int)((p->r->next + j) % (size_t)p->r->n);
}

static size_t load(const size_t *x)
{
    return __atomic_load_n(x, __ATOMIC_ACQUIRE);
}

static void store(size_t *x, size_t v)
{
    __atomic_store_n(x, v, __ATOMIC_RELEASE);
}

/* Chunk j's first step can start: its slot is free (host->device: pack;
 * device->host: DMA) or its bytes have landed (device->host: unpack). */
static bool can_pack(const pipe *p, size_t j)
{
    int s = slot_of(p, j);
    return p->up ? load(&p->avail[s]) == j : load(&p->ready[s]) == j + 1;
}

/* Copies unit k of chunk j into its slot (host->device) or out of it
 * (device->host); the thread that copies a chunk's last unit hands the slot
 * on. Stores into the slot stay in the cache for the DMA that reads it;
 * stores into the user's memory stream past it. */
static void pack(pipe *p, size_t j, size_t k)
{
    const int s = slot_of(p, j);
    const piece pc = piece_at(p->host, p->r->chunk, j);
    gputile__rect h = sub(p->host, pc);
    char *slot = p->r->mem + (size_t)s * p->r->chunk;
    const size_t bytes = pc.len * pc.nrows, unit = ((bytes + UNITS - 1) / UNITS + 63) & ~(size_t)63;
    const size_t b0 = k * unit, b1 = b0 + unit < bytes ? b0 + unit : bytes;
    if (b0 < b1) {
        gputile__copy2d_args c =
            p->up ? (gputile__copy2d_args){slot, h.ptr, pc.len, h.pitch, pc.len, false}
                  : (gputile__copy2d_args){h.ptr, slot, h.pitch, pc.len, pc.len, true};
        gputile__copy2d_range(&c, b0, b1);
    }
    if (__atomic_sub_fetch(&p->left[s], 1, __ATOMIC_ACQ_REL) != 0)
        return;
    p->left[s] = UNITS; /* for the slot's next chunk: nobody touches it until handed on */
    if (p->up) {
        store(&p->ready[s], j + 1);
    } else {
        store(&p->avail[s], j + (size_t)p->r->n);
        __atomic_fetch_add(&p->ended, 1, __ATOMIC_RELEASE);
    }
}

/* Waits until chunk j can be packed (false: a CUDA call failed); yields the
 * core after a while (the host GEMM runs two pipelines at once, and their
 * callers must get to run). */
static bool wait_for(pipe *p, size_t j)
{
    for (unsigned spins = 0; !can_pack(p, j); ++spins) {
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            return false;
        if (spins < 4096)
            GPUTILE__PAUSE();
        else
            sched_yield();
    }
    return true;
}

/* A copy thread: claims units in order until none is left. */
static void packer(pipe *p)
{
    for (;;) {
        size_t u = __atomic_fetch_add(&p->claim, 1, __ATOMIC_ACQ_REL);
        if (u >= p->n * UNITS || !wait_for(p, u / UNITS))
            return;
        pack(p, u / UNITS, u % UNITS);
    }
}

/* Queues chunk j's DMA and the event that marks its slot. */
static cudaError_t dma(pipe *p, size_t j)
{
    const int s = slot_of(p, j);
    const piece pc = piece_at(p->host, p->r->chunk, j);
    gputile__rect d = sub(p->dev, pc), b = packed(p->r->mem + (size_t)s * p->r->chunk, pc);
    cudaError_t err =
        p->up ? gputile__memcpy2d_async(d, b, p->stream) : gputile__memcpy2d_async(b, d, p->stream);
    if (err != cudaSuccess)
        return err;
    if ((err = cudaEventRecord(p->r->done[s], p->stream)) == cudaSuccess)
        p->r->busy[s] = true;
    else if (cudaStreamSynchronize(p->stream) != cudaSuccess) /* the DMA without its event */
        (void)cudaGetLastError();                             /* (err is reported) */
    return err;
}

/* Whether chunk j's slot still waits for an earlier call's DMA (run()
 * marks such slots SIZE_MAX; nothing else stores that value). */
static bool after_earlier(const pipe *p, size_t j)
{
    return load(&p->avail[slot_of(p, j)]) == SIZE_MAX;
}

/* Whether the DMA last queued on slot s has ended (the slot is then no
 * longer busy); a failed query other than not-ready goes to *err. */
static bool dma_ended(pipe *p, int s, cudaError_t *err)
{
    const cudaError_t e = gputile__event_query(p->r->done[s]); /* leaves no error pending */
    if (e == cudaSuccess)
        p->r->busy[s] = false;
    else if (e != cudaErrorNotReady)
        *err = e;
    return e == cudaSuccess;
}

/* The caller: queues DMAs in chunk order as their chunks allow, retires
 * them in the same order (earlier calls' DMAs on busy slots first), and
 * packs a chunk itself when no thread has taken it. Host->device returns
 * once the last DMA is queued (every chunk is packed); device->host once
 * every chunk is unpacked. */
static void drive(pipe *p)
{
    const size_t n = p->n, slots = (size_t)p->r->n;
    size_t issued = 0, retired = 0, old = 0; /* old: chunk whose slot has an earlier DMA */
    while (old < slots && !after_earlier(p, old))
        ++old;
    cudaError_t err = cudaSuccess;
    for (;;) {
        bool moved = false;
        if (old < slots) { /* an earlier call's DMA on the slot of chunk `old` */
            const int s = slot_of(p, old);
            if (dma_ended(p, s, &err)) {
                store(&p->avail[s], old);
                do
                    ++old;
                while (old < slots && !after_earlier(p, old));
                moved = true;
            } else if (err != cudaSuccess)
                break;
        }
        while (issued < n) {
            int s = slot_of(p, issued);
            if (p->up ? load(&p->ready[s]) != issued + 1 : load(&p->avail[s]) != issued)
                break;
            if ((err = dma(p, issued)) != cudaSuccess)
                break;
            ++issued;
            moved = true;
        }
        if (err != cudaSuccess)
            break;
        if (retired < issued) {
            const int s = slot_of(p, retired);
            if (dma_ended(p, s, &err)) {
                if (p->up)
                    store(&p->avail[s], retired + slots);
                else
                    store(&p->ready[s], retired + 1);
                ++retired;
                moved = true;
            } else if (err != cudaSuccess)
                break;
        }
        if (p->up ? issued == n : __atomic_load_n(&p->ended, __ATOMIC_ACQUIRE) == n)
            break;
        if (moved)
            continue;
        /* Nothing to queue: copy the next unit if no thread has. */
        size_t u = __atomic_load_n(&p->claim, __ATOMIC_ACQUIRE);
        if (u < n * UNITS && can_pack(p, u / UNITS) &&
            __atomic_compare_exchange_n(&p->claim, &u, u + 1, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            pack(p, u / UNITS, u % UNITS);
        else
            GPUTILE__PAUSE();
    }
    p->err = err;
    if (err != cudaSuccess)
        __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
}

static void part(void *ctx, int part, size_t lo, size_t hi)
{
    (void)lo;
    (void)hi;
    if (part == 0)
        drive(ctx);
    else
        packer(ctx);
}

static gputile_status run(gputile__ring *r, gputile__rect host, gputile__rect dev, bool up,
                          cudaStream_t stream)
{
    if (host.width == 0 || host.height == 0)
        return GPUTILE_SUCCESS;
    pipe p = {.r = r,
              .host = host,
              .dev = dev,
              .up = up,
              .stream = stream,
              .n = n_pieces(host, r->chunk),
              .claim = 0,
              .ended = 0,
              .stop = 0,
              .err = cudaSuccess};
    /* Slot of chunk j < n slots: free now, or once its earlier DMA ends. */
    const size_t slots = (size_t)r->n;
    for (size_t j = 0; j < slots; ++j) {
        int s = slot_of(&p, j);
        p.ready[s] = 0;
        p.left[s] = UNITS;
        p.avail[s] = r->busy[s] ? SIZE_MAX : j; /* SIZE_MAX: see after_earlier() */
    }
    /* The caller drives; one copy thread per unit at most. */
    size_t parts = (size_t)gputile__copy_threads();
    if (parts > p.n * UNITS + 1)
        parts = p.n * UNITS + 1;
    (void)gputile__parallel_for(parts, 1, 1, part, &p);
    r->next = (int)((r->next + p.n) % slots);
    return gputile__cuda_status(p.err);
}

gputile_status gputile__ring_upload(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                    cudaStream_t stream)
{
    return run(r, src, dst, true, stream);
}

gputile_status gputile__ring_download(gputile__ring *r, gputile__rect dst, gputile__rect src,
                                      cudaStream_t stream)
{
    return run(r, dst, src, false, stream);
}
