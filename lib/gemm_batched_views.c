/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched_views.c: what a batch of views needs beyond one product
 * (issue 20): the aliasing check across all problems, the check that every
 * operand is device memory, and the descriptors' trip to the device through
 * pinned staging. Each is linear in the batch on the usual layouts (views
 * laid out in address order, a few allocations), so that a batch of
 * 100,000 costs the host little beside the kernel.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "copy_threads.h"
#include "../kernels/driver_entry.h"
#include "gemm_batched.h"

/* ---- aliasing ---- */

typedef struct span {
    uintptr_t lo, hi; /* bytes [lo, hi) */
    const gputile_matrix *m;
    bool is_c;
} span;

static span span_of(const gputile_matrix *m, bool is_c)
{
    const uintptr_t lo = (uintptr_t)m->elements;
    return (span){lo, lo + ((m->height - 1) * m->stride + m->width) * sizeof(float), m, is_c};
}

static int by_lo(const void *x, const void *y)
{
    const span *p = x, *q = y;
    return p->lo < q->lo ? -1 : p->lo > q->lo ? 1 : p->hi < q->hi ? -1 : p->hi > q->hi ? 1 : 0;
}

static bool same_matrix(const gputile_matrix *x, const gputile_matrix *y)
{
    return x->elements == y->elements && x->width == y->width && x->height == y->height &&
           x->stride == y->stride;
}

/* Drops the spans of list[0..*n) that end at or before lo. */
static void prune(const span **list, size_t *n, uintptr_t lo)
{
    for (size_t i = 0; i < *n;)
        if (list[i]->hi <= lo)
            list[i] = list[--*n];
        else
            ++i;
}

static bool meets_any(const span *s, const span **list, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (gputile__overlap(*s->m, *list[i]->m))
            return true;
    return false;
}

/* The general case: all spans sorted by address and swept, each new span
 * checked exactly against the live spans it must not meet (C: every live C
 * and input; input: every live C). Identical inputs count once (a broadcast
 * A does not make the sweep quadratic). */
static gputile_status sweep(const gputile_matrix *a, const gputile_matrix *b,
                            const gputile_matrix *c, size_t count)
{
    span *all = malloc(3 * count * sizeof *all);
    const span **live_c = malloc(count * sizeof *live_c);
    const span **live_in = malloc(2 * count * sizeof *live_in);
    gputile_status s = GPUTILE_ERROR_OUT_OF_MEMORY;
    if (all == NULL || live_c == NULL || live_in == NULL)
        goto out;
    size_t n = 0, nc = 0, ni = 0;
    for (size_t i = 0; i < count; ++i) {
        if (!gputile__is_empty(c[i]))
            all[n++] = span_of(&c[i], true);
        if (!gputile__is_empty(a[i]))
            all[n++] = span_of(&a[i], false);
        if (!gputile__is_empty(b[i]))
            all[n++] = span_of(&b[i], false);
    }
    qsort(all, n, sizeof *all, by_lo);
    s = GPUTILE_SUCCESS;
    const span *last_in = NULL;
    for (size_t i = 0; i < n && s == GPUTILE_SUCCESS; ++i) {
        const span *x = &all[i];
        prune(live_c, &nc, x->lo);
        if (x->is_c) {
            prune(live_in, &ni, x->lo);
            if (meets_any(x, live_c, nc) || meets_any(x, live_in, ni))
                s = GPUTILE_ERROR_ALIASING;
            live_c[nc++] = x;
        } else if (last_in == NULL || !same_matrix(last_in->m, x->m)) {
            if (meets_any(x, live_c, nc))
                s = GPUTILE_ERROR_ALIASING;
            live_in[ni++] = last_in = x;
        }
    }
out:
    free(all);
    free(live_c);
    free(live_in);
    return s;
}

/* ---- the checks of every problem ----
 * One pass over the views (split over the host threads for large batches:
 * ~17 ns a problem on one core in general, ~10 on the short path below,
 * against ~1 ns of GPU time for a 16^3 product) checks each problem's
 * matrices and shape and gathers what the aliasing and device checks
 * need: the address range of each operand's views, whether the Cs come in
 * ascending address order, apart, and whether each operand's views are
 * spaced evenly (a strided batch). */
#define SCAN_PART 4096 /* problems per part: ~50 us on one core */

typedef struct scan_part {
    gputile_status status; /* the first bad problem's, in this part */
    bool aligned[3];       /* every A row, B row, C row 16-byte aligned */
    bool ordered;          /* the Cs ascending and apart */
    bool any_c;
    uintptr_t c_first, c_end; /* the first C's start, the last C's end */
    /* per operand: the part's first and last view's starts and their
     * spacing (even: every view of the part on the short path, spaced
     * alike; step unknown while the part has one view) */
    uintptr_t first[3], last[3];
    size_t views; /* problems in the part */
    gputile__views_ranges r;
} scan_part;

typedef struct scan {
    const gputile_matrix *m[3]; /* a, b, c */
    scan_part part[GPUTILE__COPY_MAX_THREADS];
} scan;

static bool same_shape(const gputile_matrix *x, const gputile_matrix *y)
{
    return x->width == y->width && x->height == y->height;
}

/* View [lo, hi) of operand j (0 a, 1 b, 2 c) into the part's ranges and,
 * for a C, into its order. */
static void note_span(scan_part *p, int j, uintptr_t lo, uintptr_t hi)
{
    p->r.lo[j] = lo < p->r.lo[j] ? lo : p->r.lo[j];
    p->r.hi[j] = hi > p->r.hi[j] ? hi : p->r.hi[j];
    if (j == 2) {
        if (!p->any_c)
            p->c_first = lo;
        p->ordered = p->ordered && (!p->any_c || lo >= p->c_end);
        p->any_c = true;
        p->c_end = hi;
    }
}

/* One matrix of problem i (operand j: 0 a, 1 b, 2 c) into the part's
 * results; false (p->status set) when it is bad. */
static bool scan_matrix(const scan *sc, scan_part *p, int j, const gputile_matrix *x)
{
    if ((p->status = gputile__check_matrix(*x)) != GPUTILE_SUCCESS)
        return false;
    if (!same_shape(x, &sc->m[j][0])) {
        p->status = GPUTILE_ERROR_SHAPE_MISMATCH;
        return false;
    }
    if (gputile__is_empty(*x))
        return true;
    const span v = span_of(x, j == 2);
    note_span(p, j, v.lo, v.hi);
    p->r.same_ld[j] = p->r.same_ld[j] && x->stride == sc->m[j][0].stride;
    p->r.float_aligned = p->r.float_aligned && v.lo % sizeof(float) == 0;
    p->aligned[j] = p->aligned[j] && gputile__rows_aligned16(x->elements, (int64_t)x->stride);
    return true;
}

/* What a view of operand j needs to take the short path: view 0's shape
 * and row stride (checked, not empty: gputile__gemm_check passed it), a
 * start on a float boundary and no wrap past the address space's end. Such
 * a view passes gputile__check_matrix as view 0 did, and spans view 0's
 * bytes from its start: a few compares where the general path costs ~17 ns
 * a problem (a batch of 100,000 views took ~0.3 ms on 16 threads). */
typedef struct fast_form {
    size_t width, height, stride;
    uintptr_t bytes, last; /* the span's length; the highest start that fits */
    bool on;               /* view 0 not empty */
} fast_form;

static fast_form fast_form_of(const gputile_matrix *x0)
{
    const span v = span_of(x0, false);
    return (fast_form){x0->width,
                       x0->height,
                       x0->stride,
                       v.hi - v.lo,
                       UINTPTR_MAX - (v.hi - v.lo),
                       !gputile__is_empty(*x0)};
}

static bool fast_fits(const fast_form *f, const gputile_matrix *x)
{
    const uintptr_t at = (uintptr_t)x->elements;
    return f->on && x->width == f->width && x->height == f->height && x->stride == f->stride &&
           at != 0 && at % sizeof(float) == 0 && at <= f->last;
}

static void scan_range(void *ctx, int part, size_t lo, size_t hi)
{
    scan *sc = ctx;
    scan_part p = {.status = GPUTILE_SUCCESS,
                   .aligned = {true, true, true},
                   .ordered = true,
                   .views = hi - lo};
    for (int j = 0; j < 3; ++j) {
        p.r.lo[j] = UINTPTR_MAX, p.r.hi[j] = 0, p.r.same_ld[j] = true;
        p.r.even[j] = true, p.r.step[j] = 0;
    }
    p.r.float_aligned = true;
    fast_form f[3];
    uintptr_t starts[3] = {0, 0, 0}; /* the short path's A, B and C starts, or'ed */
    for (int j = 0; j < 3; ++j)
        f[j] = fast_form_of(&sc->m[j][0]);
    for (size_t i = lo; i < hi && p.status == GPUTILE_SUCCESS; ++i)
        for (int j = 0; j < 3; ++j) {
            const gputile_matrix *x = &sc->m[j][i];
            if (!fast_fits(&f[j], x)) {
                p.r.even[j] = p.r.even[j] && !f[j].on; /* all empty: never read */
                if (!scan_matrix(sc, &p, j, x))
                    break;
                continue;
            }
            const uintptr_t at = (uintptr_t)x->elements, end = at + f[j].bytes;
            if (i == lo)
                p.first[j] = at;
            else if (i == lo + 1)
                p.r.step[j] = (int64_t)(at - p.first[j]);
            else
                p.r.even[j] = p.r.even[j] && (int64_t)(at - p.last[j]) == p.r.step[j];
            p.last[j] = at;
            note_span(&p, j, at, end);
            starts[j] |= at;
        }
    /* The short path's views share view 0's row stride: their rows are
     * aligned when every start is (or'ed together, one address to test). */
    for (int j = 0; j < 3; ++j)
        if (f[j].on)
            p.aligned[j] = p.aligned[j] &&
                           gputile__rows_aligned16((const void *)starts[j], (int64_t)f[j].stride);
    sc->part[part] = p;
}

/* Operands i and j's ranges do not meet (an empty one meets nothing). */
static bool apart(const gputile__views_ranges *r, int i, int j)
{
    return r->hi[i] <= r->lo[j] || r->hi[j] <= r->lo[i];
}

gputile_status gputile__gemm_views_check(gputile_op ta, gputile_op tb, const gputile_matrix *a,
                                         const gputile_matrix *b, const gputile_matrix *c,
                                         size_t count, gputile__batch_aligned *aligned,
                                         gputile__views_ranges *r)
{
    /* problem 0 as gputile_gemm() checks it (operations, shapes agreeing);
     * every other problem must have its shapes */
    gputile_status s = gputile__gemm_check(ta, tb, a[0], b[0], c[0]);
    if (s != GPUTILE_SUCCESS)
        return s;
    scan sc = {.m = {a, b, c}}; /* a part's results: ~1 KiB in all */
    const int parts = gputile__parallel_for(count, SCAN_PART, 1, scan_range, &sc);
    /* the parts in order: the first bad problem's status, as one pass */
    bool ordered = true, any_c = false;
    uintptr_t c_end = 0;
    *aligned = (gputile__batch_aligned){true, true, true};
    for (int j = 0; j < 3; ++j) {
        r->lo[j] = UINTPTR_MAX, r->hi[j] = 0, r->same_ld[j] = true;
        r->even[j] = sc.part[0].r.even[j], r->step[j] = sc.part[0].r.step[j];
    }
    r->float_aligned = true;
    for (int p = 0; p < parts && s == GPUTILE_SUCCESS; ++p) {
        const scan_part *q = &sc.part[p];
        s = q->status;
        aligned->a = aligned->a && q->aligned[0];
        aligned->b = aligned->b && q->aligned[1];
        aligned->c = aligned->c && q->aligned[2];
        ordered = ordered && q->ordered && (!any_c || !q->any_c || q->c_first >= c_end);
        if (q->any_c)
            c_end = q->c_end, any_c = true;
        for (int j = 0; j < 3; ++j) {
            r->lo[j] = q->r.lo[j] < r->lo[j] ? q->r.lo[j] : r->lo[j];
            r->hi[j] = q->r.hi[j] > r->hi[j] ? q->r.hi[j] : r->hi[j];
            r->same_ld[j] = r->same_ld[j] && q->r.same_ld[j];
            /* part 0 (two views or more, or the only part) set the step */
            if (p > 0)
                r->even[j] = r->even[j] && q->r.even[j] &&
                             (q->views == 1 || q->r.step[j] == r->step[j]) &&
                             (int64_t)(q->first[j] - sc.part[p - 1].last[j]) == r->step[j];
        }
        r->float_aligned = r->float_aligned && q->r.float_aligned;
    }
    if (s != GPUTILE_SUCCESS)
        return s;
    for (int j = 0; j < 3; ++j)
        r->even[j] = r->even[j] && r->step[j] >= 0;
    /* The usual layout: the Cs in ascending address order, each ending
     * before the next begins, and the range of the Cs apart from the range
     * of the As and from that of the Bs (each its own allocation, say: the
     * Cs' allocation may lie between the other two). */
    if (ordered && apart(r, 2, 0) && apart(r, 2, 1))
        return GPUTILE_SUCCESS;
    return sweep(a, b, c, count);
}

/* ---- device memory ---- */

/* cuMemGetAddressRange through the runtime's entry point (no link to
 * libcuda): the device allocation that holds an address. */
typedef int (*range_fn)(unsigned long long *base, size_t *size, unsigned long long ptr);

static range_fn address_range(void)
{
    static void *slot;
    void *f = NULL;
    return gputile__driver_entry("cuMemGetAddressRange", &slot, &f) == cudaSuccess ? (range_fn)f
                                                                                   : NULL;
}

/* A device allocation known to hold current-device memory. */
typedef struct known_range {
    uintptr_t lo, hi;
} known_range;

static gputile_status check_one(const gputile_matrix *m, known_range *known)
{
    if (gputile__is_empty(*m))
        return GPUTILE_SUCCESS;
    const span x = span_of(m, false);
    if (x.lo >= known->lo && x.hi <= known->hi)
        return GPUTILE_SUCCESS;
    gputile__memory at;
    gputile_status s = gputile__memory_of(*m, &at);
    if (s != GPUTILE_SUCCESS)
        return s;
    if (at != GPUTILE__MEMORY_DEVICE)
        return GPUTILE_ERROR_UNSUPPORTED;
    range_fn f = address_range();
    unsigned long long base = 0;
    size_t size = 0;
    if (f != NULL && f(&base, &size, (unsigned long long)x.lo) == 0) /* CUDA_SUCCESS */
        *known = (known_range){(uintptr_t)base, (uintptr_t)base + size};
    else /* managed memory, say: no range; this matrix alone is known */
        *known = (known_range){x.lo, x.hi};
    return GPUTILE_SUCCESS;
}

gputile_status gputile__gemm_views_on_device(const gputile_matrix *a, const gputile_matrix *b,
                                             const gputile_matrix *c, size_t count,
                                             const gputile__views_ranges *r)
{
    /* The usual case: each operand's views all lie in one device allocation
     * (the one its first view is in): one question per operand. */
    const gputile_matrix *m[3] = {a, b, c};
    known_range known[3] = {{0, 0}, {0, 0}, {0, 0}}; /* the last allocation seen per operand */
    gputile_status s = GPUTILE_SUCCESS;
    bool inside = true;
    for (int j = 0; j < 3 && s == GPUTILE_SUCCESS; ++j)
        if (r->lo[j] < r->hi[j] && (s = check_one(&m[j][0], &known[j])) == GPUTILE_SUCCESS)
            inside = inside && r->lo[j] >= known[j].lo && r->hi[j] <= known[j].hi;
    if (s != GPUTILE_SUCCESS || inside)
        return s;
    for (size_t i = 0; i < count && s == GPUTILE_SUCCESS; ++i)
        if ((s = check_one(&a[i], &known[0])) == GPUTILE_SUCCESS &&
            (s = check_one(&b[i], &known[1])) == GPUTILE_SUCCESS)
            s = check_one(&c[i], &known[2]);
    return s;
}

/* ---- pinned staging ----
 * Slots of pinned memory (from the pinned pool) that hold descriptors on
 * their way to the device, each with an event recorded after its copy: a
 * slot is reused once its event has completed. Slots belong to a device
 * (the event's). A call takes an idle slot, else one never used (up to
 * SLOTS: calls queued ahead of a stream that is held back each keep one,
 * and the call returns without waiting for the stream), and only with
 * every slot in flight waits for the oldest. */
#define SLOTS 256

typedef struct slot {
    void *host;
    size_t bytes;
    cudaEvent_t done; /* NULL: never used */
    int device;
    bool taken;              /* between acquire and the event's record */
    bool flight;             /* done recorded and not yet seen complete */
    unsigned long long used; /* when last submitted, for the oldest */
} slot;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t returned = PTHREAD_COND_INITIALIZER; /* a taken slot was given back */
static slot slots[SLOTS];
static int opened; /* slots[0, opened) have been taken at least once */
static unsigned long long clock_;

/* True when s's last copy has finished (or it never ran one); asks the
 * event only while s is in flight. */
static bool idle(slot *s)
{
    if (s->flight && gputile__event_done(s->done))
        s->flight = false;
    return !s->flight;
}

/* Under the lock: a slot of this device whose copy is known to be over,
 * else the oldest of this device in flight if its copy is over (one
 * question to the driver: a backlog of calls asks no more), else one never
 * used, else another device's idle slot (its event is remade), else the
 * oldest in flight, this device's first (*wait); NULL when every slot is
 * taken by calls under way. */
static slot *choose(int device, bool *wait)
{
    slot *oldest = NULL, *oldest_other = NULL, *other = NULL;
    *wait = false;
    for (int i = 0; i < opened; ++i) {
        slot *s = &slots[i];
        if (s->taken)
            continue;
        const bool mine = s->done == NULL || s->device == device;
        if (!s->flight && mine)
            return s;
        slot **o = mine ? &oldest : &oldest_other;
        if (!s->flight)
            other = other != NULL ? other : s;
        else if (*o == NULL || s->used < (*o)->used)
            *o = s;
    }
    if (oldest != NULL && idle(oldest))
        return oldest;
    if (opened < SLOTS)
        return &slots[opened++];
    if (other != NULL)
        return other;
    if (oldest_other != NULL && idle(oldest_other))
        return oldest_other;
    slot *pick = oldest != NULL ? oldest : oldest_other;
    *wait = pick != NULL;
    return pick;
}

static gputile_status acquire(size_t bytes, int device, slot **out)
{
    bool wait;
    slot *pick;
    pthread_mutex_lock(&lock);
    while ((pick = choose(device, &wait)) == NULL) /* every slot mid-call: one is given back soon */
        pthread_cond_wait(&returned, &lock);
    pick->taken = true; /* ours: waited for, its event remade, its buffer grown unlocked */
    pthread_mutex_unlock(&lock);
    gputile_status st = GPUTILE_SUCCESS;
    if (wait)
        st = gputile__cuda_status(cudaEventSynchronize(pick->done));
    if (st == GPUTILE_SUCCESS && pick->done != NULL && pick->device != device) {
        (void)cudaEventDestroy(pick->done);
        pick->done = NULL;
    }
    if (st == GPUTILE_SUCCESS && pick->done == NULL) {
        st = gputile__cuda_status(cudaEventCreateWithFlags(&pick->done, cudaEventDisableTiming));
        if (st != GPUTILE_SUCCESS)
            pick->done = NULL;
        pick->device = device;
    }
    /* Outside the lock: a pool short of pinned memory gives back what it
     * can, this cache's idle slots included (gputile_pool_release() calls
     * gputile__gemm_views_release_idle(), which takes the lock). */
    if (st == GPUTILE_SUCCESS && pick->bytes < bytes) {
        size_t want = 64 << 10;
        while (want < bytes)
            want *= 2;
        (void)gputile_pool_free(pick->host);
        pick->host = NULL;
        pick->bytes = 0;
        if ((st = gputile_pool_alloc(&pick->host, want, GPUTILE_PINNED_PORTABLE)) ==
            GPUTILE_SUCCESS)
            pick->bytes = want;
    }
    if (st != GPUTILE_SUCCESS) {
        pthread_mutex_lock(&lock);
        pick->taken = false;
        pthread_cond_signal(&returned);
        pthread_mutex_unlock(&lock);
    } else
        *out = pick;
    return st;
}

void gputile__gemm_views_release_idle(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < opened; ++i) {
        slot *s = &slots[i];
        if (s->taken || s->host == NULL)
            continue;
        if (s->done != NULL) { /* its last copy reads it: wait for it */
            (void)cudaEventSynchronize(s->done);
            (void)cudaEventDestroy(s->done);
            s->done = NULL;
            s->flight = false;
        }
        (void)gputile_pool_free(s->host); /* cached in the pool, freed by its caller */
        s->host = NULL;
        s->bytes = 0;
    }
    pthread_mutex_unlock(&lock);
    (void)cudaGetLastError(); /* at exit or after a reset: nothing to report */
}

static void give_back(slot *s, bool submitted)
{
    pthread_mutex_lock(&lock);
    s->taken = false;
    if (submitted) {
        s->used = ++clock_;
        s->flight = true;
    }
    pthread_cond_signal(&returned);
    pthread_mutex_unlock(&lock);
}

typedef struct fill {
    const gputile_matrix *m[3]; /* a, b, c */
    const float *base[3];       /* compact: each operand's lowest start (NULL: empty) */
    void *host;                 /* the staging: gputile__gemm_view or 4 offsets a problem */
} fill;

static void fill_range(void *ctx, int part, size_t lo, size_t hi)
{
    const fill *f = ctx;
    (void)part;
    gputile__gemm_view *v = f->host;
    for (size_t i = lo; i < hi; ++i)
        v[i] = (gputile__gemm_view){f->m[0][i].elements,        f->m[1][i].elements,
                                    f->m[2][i].elements,        (int64_t)f->m[0][i].stride,
                                    (int64_t)f->m[1][i].stride, (int64_t)f->m[2][i].stride};
}

static void fill_compact_range(void *ctx, int part, size_t lo, size_t hi)
{
    const fill *f = ctx;
    (void)part;
    uint32_t *o = f->host;
    for (size_t i = lo; i < hi; ++i) {
        for (int j = 0; j < 3; ++j)
            o[4 * i + j] = f->base[j] != NULL ? (uint32_t)(f->m[j][i].elements - f->base[j]) : 0u;
        o[4 * i + 3] = 0;
    }
}

/* Whether the views can travel compact: every non-empty operand's views
 * share a row stride and start on floats, all within 2^32 floats of the
 * lowest. Then 16 bytes a problem cross the bus, widened to the kernels'
 * 48 on the device (at 16^3 x 100,000 the 4.8 MB of full descriptors took
 * ~96 us to copy before the kernel could start). */
static bool compact(const gputile__views_ranges *r)
{
    if (!r->float_aligned)
        return false;
    for (int j = 0; j < 3; ++j)
        if (r->lo[j] < r->hi[j] &&
            (!r->same_ld[j] || (r->hi[j] - r->lo[j]) / sizeof(float) > UINT32_MAX))
            return false;
    return true;
}

gputile_status gputile__gemm_views_upload(const gputile_matrix *a, const gputile_matrix *b,
                                          const gputile_matrix *c, size_t count,
                                          const gputile__views_ranges *r, int device,
                                          cudaStream_t stream, gputile__gemm_view **views)
{
    const bool small = compact(r);
    const size_t full = count * sizeof(gputile__gemm_view);
    const size_t up = small ? count * 4 * sizeof(uint32_t) : full; /* bytes over the bus */
    slot *s = NULL;
    gputile_status st = acquire(up, device, &s);
    if (st != GPUTILE_SUCCESS)
        return st;
    fill f = {{a, b, c}, {NULL, NULL, NULL}, s->host};
    for (int j = 0; j < 3 && small; ++j) /* an empty operand: offsets 0 from view 0 */
        f.base[j] = r->lo[j] < r->hi[j] ? (const float *)r->lo[j] : NULL;
    (void)gputile__parallel_for(count, SCAN_PART, 1, small ? fill_compact_range : fill_range, &f);
    /* the full views first (16-byte aligned: 48 bytes each), then the compact ones */
    void *d = NULL;
    cudaError_t err = gputile__workspace_acquire(&d, small ? full + up : full, device, stream);
    if (err != cudaSuccess) {
        give_back(s, false);
        return gputile__cuda_status(err);
    }
    err =
        cudaMemcpyAsync(small ? (char *)d + full : d, s->host, up, cudaMemcpyHostToDevice, stream);
    if (err == cudaSuccess)
        err = cudaEventRecord(s->done, stream);
    if (err != cudaSuccess) {
        /* the copy may be queued without its event: wait before the slot is reused */
        (void)cudaStreamSynchronize(stream);
        (void)gputile__workspace_release(d, stream);
        give_back(s, false);
        return gputile__cuda_status(err);
    }
    give_back(s, true);
    if (small) {
        /* an empty operand's offsets are 0 from its view 0 */
        const float *base[3] = {f.base[0] != NULL ? f.base[0] : a[0].elements,
                                f.base[1] != NULL ? f.base[1] : b[0].elements,
                                f.base[2] != NULL ? f.base[2] : c[0].elements};
        err =
            gputile__gemm_views_expand((const uint32_t *)((char *)d + full), base[0], base[1],
                                       (float *)base[2], (int64_t)a[0].stride, (int64_t)b[0].stride,
                                       (int64_t)c[0].stride, (int64_t)count, d, stream);
        if (err != cudaSuccess) {
            (void)gputile__workspace_release(d, stream);
            return gputile__cuda_status(err);
        }
    }
    *views = d;
    return GPUTILE_SUCCESS;
}
