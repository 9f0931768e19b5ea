/* SPDX-License-Identifier: MIT */
/*
 * copy_threads.c: the host copy threads. One memcpy thread reaches ~12 GB/s
 * on our H200's host and four reach ~44 GB/s (ANCHORS.md), so the pinned
 * staging of pageable memory is split over GPUTILE__COPY_THREADS threads:
 * the caller plus helpers started once, on first use, and stopped at exit
 * (up to GPUTILE__COPY_POOL_THREADS - 1 of them, no more than the cores
 * online less one: one copy takes at most GPUTILE__COPY_MAX_THREADS - 1,
 * several concurrent copies, as from the pipelines of several devices,
 * share the rest; idle ones spin up to SPIN_NS, then sleep on a condition
 * variable). The bottom layer of the pinned-memory files: it calls nothing
 * else in lib/, and keeps its own tunables (copy_threads.h).
 *
 * A loop (gputile__parallel_for; a copy is one over the byte ranges of its
 * packed rows, cut at page multiples) is cut into ranges; the caller queues
 * all but one on a FIFO shared by every caller, runs its own, then helps
 * with queued ranges (its own or others') until its ranges are done. Tasks
 * live on the callers' stacks: a caller returns only when its count of
 * pending tasks is zero. Nothing here can fail: without
 * helpers (thread creation refused) the caller copies alone.
 *
 * Stores: a plain memcpy of a piece below glibc's non-temporal threshold
 * writes through the cache, so every destination line is first read from
 * DRAM (read-for-ownership). Long runs into memory nothing reads soon (the
 * user's buffer after a download) are therefore copied with non-temporal
 * (streaming) stores, one trip to DRAM per byte; runs into a pinned slot
 * that a DMA reads next stay in the cache (staged_copy.h has the numbers).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#define HAVE_STREAM_STORES 1
#endif

#include "copy_threads.h"

static int tuned_threads; /* gputile__copy_threads_set(); 0: the default */

void gputile__copy_threads_set(int threads)
{
    if (threads > GPUTILE__COPY_MAX_THREADS)
        threads = GPUTILE__COPY_MAX_THREADS;
    __atomic_store_n(&tuned_threads, threads > 0 ? threads : 0, __ATOMIC_RELAXED);
}

/* The cores online, asked once: glibc's sysconf() reads /sys on every
 * call (~3 us, more than a small copy itself). */
static long cores_online;
static pthread_once_t cores_asked = PTHREAD_ONCE_INIT;

static void ask_cores(void)
{
    cores_online = sysconf(_SC_NPROCESSORS_ONLN);
}

static long cores(void)
{
    pthread_once(&cores_asked, ask_cores);
    return cores_online;
}

int gputile__copy_threads(void)
{
    int t = __atomic_load_n(&tuned_threads, __ATOMIC_RELAXED);
    if (t > 0)
        return t;
    /* More copy threads than cores only adds switching. */
    long n = cores();
    return n > 0 && n < GPUTILE__COPY_THREADS ? (int)n : GPUTILE__COPY_THREADS;
}

/* Runs shorter than this use memcpy: streaming stores bypass the cache,
 * which only pays once a run is much larger than the cache lines it touches. */
#define STREAM_MIN ((size_t)64 << 10)

/* memcpy(dst, src, n); with `streaming`, non-temporal stores for the
 * 16-byte-aligned body of a long run; the caller fences (_mm_sfence)
 * before the data is handed on. */
static void copy_run(char *dst, const char *src, size_t n, bool streaming)
{
#ifdef HAVE_STREAM_STORES
    if (streaming && n >= STREAM_MIN) {
        size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
        memcpy(dst, src, head);
        dst += head;
        src += head;
        n -= head;
        __m128i *d = (__m128i *)dst;
        const __m128i *s = (const __m128i *)src;
        size_t v = n / 64;
        for (size_t i = 0; i < v; ++i, d += 4, s += 4) {
            __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1);
            __m128i c = _mm_loadu_si128(s + 2), e = _mm_loadu_si128(s + 3);
            _mm_stream_si128(d, a);
            _mm_stream_si128(d + 1, b);
            _mm_stream_si128(d + 2, c);
            _mm_stream_si128(d + 3, e);
        }
        memcpy(d, s, n - v * 64);
        return;
    }
#endif
    (void)streaming;
    memcpy(dst, src, n);
}

/* Makes streaming stores visible: they are weakly ordered, and the bytes
 * are about to go to a DMA or to the caller. */
static void fence(void)
{
#ifdef HAVE_STREAM_STORES
    _mm_sfence();
#endif
}

void gputile__copy2d_range(const gputile__copy2d_args *c, size_t b0, size_t b1)
{
    size_t width = c->width, dpitch = c->dpitch, spitch = c->spitch;
    if (dpitch == width && spitch == width) { /* packed rows: one run (a call per row costs) */
        width = b1;
        dpitch = spitch = b1;
    }
    size_t row = b0 / width, col = b0 % width, left = b1 - b0;
    while (left > 0) {
        size_t n = width - col < left ? width - col : left;
        copy_run(c->dst + row * dpitch + col, c->src + row * spitch + col, n, c->streaming);
        left -= n;
        ++row;
        col = 0;
    }
    if (c->streaming)
        fence();
}

typedef struct job {
    int pending; /* queued tasks not yet finished (written under `lock`, atomically) */
} job;

typedef struct task {
    struct task *next;
    job *job;
    gputile__range_fn fn;
    void *ctx;
    int part;
    size_t lo, hi; /* fn(ctx, part, lo, hi) */
} task;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static task *head, *tail;
static bool stopping;
static unsigned long pushed; /* tasks ever queued: spinning threads watch it (atomic) */

/* A thread out of work spins this long before it sleeps: waking a thread
 * blocked on a condition variable took tens of microseconds on the GPU
 * hosts (a virtual CPU halted in the hypervisor), as long as a whole
 * bounce copy of a megabyte; copies come in bursts. */
#define SPIN_NS 200000L

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Spins, unlocked, until *x differs from `seen` (true) or SPIN_NS pass. */
static bool spin_while_equal(const unsigned long *x, unsigned long seen)
{
    const long long end = now_ns() + SPIN_NS;
    for (unsigned i = 1;; ++i) {
        if (__atomic_load_n(x, __ATOMIC_ACQUIRE) != seen)
            return true;
        if (i % 64 == 0 && now_ns() > end)
            return false;
        GPUTILE__PAUSE();
    }
}

/* Spins, unlocked, until *x is 0 (true) or SPIN_NS pass. */
static bool spin_until_zero(const int *x)
{
    const long long end = now_ns() + SPIN_NS;
    for (unsigned i = 1;; ++i) {
        if (__atomic_load_n(x, __ATOMIC_ACQUIRE) == 0)
            return true;
        if (i % 64 == 0 && now_ns() > end)
            return false;
        GPUTILE__PAUSE();
    }
}
static pthread_t helpers[GPUTILE__COPY_POOL_THREADS - 1];
static int n_helpers;
static pthread_once_t started = PTHREAD_ONCE_INIT;

static void run(const task *t)
{
    t->fn(t->ctx, t->part, t->lo, t->hi);
}

/* With the lock held: the oldest queued task, or NULL. */
static task *pop(void)
{
    task *t = head;
    if (t != NULL) {
        head = t->next;
        if (head == NULL)
            tail = NULL;
    }
    return t;
}

/* With the lock held: runs t unlocked, then counts it done. */
static void run_unlocked(task *t)
{
    job *j = t->job;
    pthread_mutex_unlock(&lock);
    run(t);
    pthread_mutex_lock(&lock);
    if (__atomic_sub_fetch(&j->pending, 1, __ATOMIC_ACQ_REL) == 0)
        pthread_cond_broadcast(&done_cv);
}

static void *helper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        task *t = pop();
        if (t != NULL) {
            run_unlocked(t);
            continue;
        }
        if (stopping)
            break;
        /* nothing queued: spin a while, then sleep */
        const unsigned long seen = __atomic_load_n(&pushed, __ATOMIC_ACQUIRE);
        pthread_mutex_unlock(&lock);
        const bool more = spin_while_equal(&pushed, seen);
        pthread_mutex_lock(&lock);
        if (!more && head == NULL && !stopping)
            pthread_cond_wait(&work_cv, &lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void start(void)
{
    long n = cores();
    int want = n > GPUTILE__COPY_POOL_THREADS  ? GPUTILE__COPY_POOL_THREADS
               : n > GPUTILE__COPY_MAX_THREADS ? (int)n
                                               : GPUTILE__COPY_MAX_THREADS;
    for (int i = 0; i < want - 1; ++i) {
        if (pthread_create(&helpers[i], NULL, helper, NULL) != 0)
            break;
        ++n_helpers;
    }
}

/* At exit (or when a program unloads us), the helpers finish and leave. */
__attribute__((destructor)) static void stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = true;
    pthread_cond_broadcast(&work_cv);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n_helpers; ++i)
        pthread_join(helpers[i], NULL);
    n_helpers = 0;
}

int gputile__parallel_for(size_t n, size_t min_part, size_t align, gputile__range_fn fn, void *ctx)
{
    if (n == 0)
        return 0;
    size_t parts = n / min_part + (n % min_part != 0);
    size_t threads = (size_t)gputile__copy_threads();
    if (parts > threads)
        parts = threads;
    if (parts > 1) { /* helpers start on the first loop that needs them */
        pthread_once(&started, start);
        if (parts > (size_t)n_helpers + 1)
            parts = (size_t)n_helpers + 1;
    }
    size_t part = n / parts + (n % parts != 0);
    part = (part / align + (part % align != 0)) * align;

    task tasks[GPUTILE__COPY_MAX_THREADS];
    job j = {0};
    int count = 0;
    for (size_t lo = 0; lo < n; lo += part, ++count)
        tasks[count] = (task){.next = NULL,
                              .job = &j,
                              .fn = fn,
                              .ctx = ctx,
                              .part = count,
                              .lo = lo,
                              .hi = n - lo < part ? n : lo + part};
    if (count > 1) {
        pthread_mutex_lock(&lock);
        __atomic_store_n(&j.pending, count - 1, __ATOMIC_RELAXED);
        for (int i = 1; i < count; ++i) {
            if (tail)
                tail->next = &tasks[i];
            else
                head = &tasks[i];
            tail = &tasks[i];
        }
        __atomic_add_fetch(&pushed, (unsigned long)(count - 1), __ATOMIC_RELEASE);
        for (int i = 1; i < count; ++i) /* one helper per task, not all of them */
            pthread_cond_signal(&work_cv);
        pthread_mutex_unlock(&lock);
    }
    run(&tasks[0]);
    if (count > 1) {
        pthread_mutex_lock(&lock);
        while (__atomic_load_n(&j.pending, __ATOMIC_ACQUIRE) > 0) {
            task *t = pop();
            if (t != NULL) {
                run_unlocked(t);
                continue;
            }
            /* the helpers are on the last parts: spin a while, then sleep */
            pthread_mutex_unlock(&lock);
            const bool done = spin_until_zero(&j.pending);
            pthread_mutex_lock(&lock);
            if (!done && __atomic_load_n(&j.pending, __ATOMIC_ACQUIRE) > 0 && head == NULL)
                pthread_cond_wait(&done_cv, &lock);
        }
        pthread_mutex_unlock(&lock);
    }
    return count;
}

/* Bytes [b0, b1) of the packed rows. */
static void copy_part(void *ctx, int part, size_t b0, size_t b1)
{
    (void)part;
    gputile__copy2d_range(ctx, b0, b1); /* fenced before the part counts as done */
}

void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height)
{
    const size_t total = width * height;
    if (total == 0)
        return;
    gputile__copy2d_args c = {dst, src, dpitch, spitch, width, true};
    /* cut at page multiples of the packed bytes */
    (void)gputile__parallel_for(total, GPUTILE__COPY_MIN_PART, 4096, copy_part, &c);
}
