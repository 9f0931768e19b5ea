/* SPDX-License-Identifier: MIT */
/*
 * copy_threads.c: the host copy threads. One memcpy thread reaches ~12 GB/s
 * on our H200's host and four reach ~44 GB/s (ANCHORS.md), so the pinned
 * staging of pageable memory is split over GPUTILE__COPY_THREADS threads:
 * the caller plus helpers started once, on first use, and stopped at exit
 * (the cores online less one, at least GPUTILE__COPY_MAX_THREADS - 1 so
 * that a count set by gputile__copy_threads_set() is met on any host, at
 * most GPUTILE__COPY_POOL_THREADS - 1: one copy takes at most
 * GPUTILE__COPY_MAX_THREADS - 1, by default no more than the cores online
 * less one; several concurrent copies, as from the pipelines of several
 * devices, share the rest; idle ones spin up to SPIN_NS, then sleep on a
 * condition variable, and a post wakes one per part). The bottom layer of the pinned-memory files: it calls nothing
 * else in lib/, and keeps its own tunables (copy_threads.h).
 *
 * A loop (gputile__parallel_for; a copy is one over the byte ranges of its
 * packed rows, cut at page multiples) is cut into numbered parts, posted in
 * one of JOB_SLOTS static slots; the caller runs part 0, then claims parts
 * beside the helpers (a compare-and-swap each, no lock) and waits for the
 * last. Each caller has its own slot; with every slot taken, a caller runs
 * its loop alone. Nothing here can fail: without helpers (thread creation
 * refused) the caller copies alone.
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

/* A parallel loop in flight: its parts are claimed by number from one
 * word, generation << 32 | next part, so a thread takes work with one
 * compare-and-swap and no lock (a mutex shared by the caller and 15
 * helpers made every loop of many small parts queue on it, and a thread
 * that blocked there slept in the kernel: tens of microseconds to wake on
 * the GPU hosts). Jobs live in static slots, not on a caller's stack, so
 * a helper that read a slot's word after its loop ended touches nothing
 * freed; a claim succeeds only while the word it read is current, so it
 * never pairs one loop's part number with another's parameters. */
#define JOB_SLOTS 8
#define CLOSED 0xFFFFFFFFu /* next-part value while a slot's loop is set up */

typedef struct job {
    unsigned long long word; /* generation << 32 | next part to claim (atomic) */
    gputile__range_fn fn;    /* the loop (written while CLOSED; read atomically) */
    void *ctx;
    size_t n, part; /* part i covers [i part, min(n, (i + 1) part)) */
    unsigned count; /* parts */
    unsigned done;  /* parts finished (atomic) */
    int taken;      /* a caller owns the slot (atomic) */
    int waiting;    /* its caller sleeps on done_cv (atomic) */
} job;

static job jobs[JOB_SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static bool stopping;        /* under lock, read atomically */
static unsigned long posted; /* loops ever posted: idle helpers watch it (atomic) */
static int sleepers;         /* helpers asleep on work_cv (atomic) */

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

/* Spins until done(ctx) (true) or SPIN_NS pass (false). */
static bool spin(bool (*done)(const void *), const void *ctx)
{
    const long long end = now_ns() + SPIN_NS;
    for (unsigned i = 1;; ++i) {
        if (done(ctx))
            return true;
        if (i % 64 == 0 && now_ns() > end)
            return false;
        GPUTILE__PAUSE();
    }
}

static pthread_t helpers[GPUTILE__COPY_POOL_THREADS - 1];
static int n_helpers;
static pthread_once_t started = PTHREAD_ONCE_INIT;

/* Where part i of a loop over [0, n) in parts of `part` ends. */
static size_t part_end(size_t n, size_t part, size_t i)
{
    const size_t lo = i * part;
    return n - lo < part ? n : lo + part;
}

/* Claims and runs one part of j's loop; false when none is left. */
static bool run_one(job *j)
{
    unsigned long long w = __atomic_load_n(&j->word, __ATOMIC_ACQUIRE);
    for (;;) {
        const unsigned next = (unsigned)w;
        if (next == CLOSED)
            return false;
        /* read before the claim; the claim fails if the loop changed since */
        const gputile__range_fn fn = __atomic_load_n(&j->fn, __ATOMIC_RELAXED);
        void *ctx = __atomic_load_n(&j->ctx, __ATOMIC_RELAXED);
        const size_t n = __atomic_load_n(&j->n, __ATOMIC_RELAXED);
        const size_t part = __atomic_load_n(&j->part, __ATOMIC_RELAXED);
        const unsigned count = __atomic_load_n(&j->count, __ATOMIC_RELAXED);
        if (next >= count)
            return false;
        if (__atomic_compare_exchange_n(&j->word, &w, w + 1, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE)) {
            const size_t lo = (size_t)next * part, hi = part_end(n, part, next);
            fn(ctx, (int)next, lo, hi);
            if (__atomic_add_fetch(&j->done, 1, __ATOMIC_SEQ_CST) == count &&
                __atomic_load_n(&j->waiting, __ATOMIC_SEQ_CST)) {
                pthread_mutex_lock(&lock); /* its caller sleeps, or is about to */
                pthread_cond_broadcast(&done_cv);
                pthread_mutex_unlock(&lock);
            }
            return true;
        }
    }
}

/* Runs parts of any posted loop; false when there were none. */
static bool help(void)
{
    bool ran = false;
    for (int s = 0; s < JOB_SLOTS; ++s)
        while (run_one(&jobs[s]))
            ran = true;
    return ran;
}

static bool posted_changed(const void *seen)
{
    return __atomic_load_n(&posted, __ATOMIC_ACQUIRE) != *(const unsigned long *)seen ||
           __atomic_load_n(&stopping, __ATOMIC_RELAXED);
}

static void *helper(void *arg)
{
    (void)arg;
    for (;;) {
        const unsigned long seen = __atomic_load_n(&posted, __ATOMIC_ACQUIRE);
        if (help())
            continue;
        if (__atomic_load_n(&stopping, __ATOMIC_RELAXED))
            break;
        if (spin(posted_changed, &seen))
            continue;
        /* Asleep until a loop is posted. The poster reads `sleepers` after
         * bumping `posted`, this thread reads `posted` after counting
         * itself in (both sequentially consistent): one of them sees the
         * other, and the signal comes under the lock this thread waits in. */
        pthread_mutex_lock(&lock);
        __atomic_add_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
        while (__atomic_load_n(&posted, __ATOMIC_SEQ_CST) == seen && !stopping)
            pthread_cond_wait(&work_cv, &lock);
        __atomic_sub_fetch(&sleepers, 1, __ATOMIC_SEQ_CST);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* In a child forked while helpers ran: only the forking thread lives on,
 * so the helpers, their condition variables' waiters and any loop another
 * thread had posted are gone; left as they were, the child's first signal
 * or its exit's broadcast waited for waiters that no longer exist
 * (glibc). The child starts over: no helpers until its first loop that
 * wants them, every slot free and closed. */
static void forked_child(void)
{
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&work_cv, NULL);
    pthread_cond_init(&done_cv, NULL);
    stopping = false;
    sleepers = 0;
    n_helpers = 0;
    for (int s = 0; s < JOB_SLOTS; ++s) {
        jobs[s].word = ((jobs[s].word >> 32) + 1) << 32 | CLOSED;
        jobs[s].taken = 0;
        jobs[s].waiting = 0;
    }
    static const pthread_once_t fresh = PTHREAD_ONCE_INIT;
    memcpy(&started, &fresh, sizeof started); /* start() runs again on demand */
}

static void start(void)
{
    static bool forks_handled;
    if (!forks_handled) /* once a process: a child inherits the handler */
        forks_handled = pthread_atfork(NULL, NULL, forked_child) == 0;
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
    __atomic_store_n(&stopping, true, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&work_cv);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < n_helpers; ++i)
        pthread_join(helpers[i], NULL);
    n_helpers = 0;
}

/* A free slot, taken; NULL when every slot is in use. */
static job *take_slot(void)
{
    for (int s = 0; s < JOB_SLOTS; ++s) {
        int free_ = 0;
        if (__atomic_load_n(&jobs[s].taken, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&jobs[s].taken, &free_, 1, false, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return &jobs[s];
    }
    return NULL;
}

static bool all_done(const void *j_)
{
    const job *j = j_;
    return __atomic_load_n(&j->done, __ATOMIC_ACQUIRE) == j->count;
}

int gputile__parallel_for(size_t n, size_t min_part, size_t align, gputile__range_fn fn, void *ctx)
{
    if (n == 0)
        return 0;
    size_t parts = n / min_part; /* each at least min_part, as copy_threads.h says */
    if (parts < 1)
        parts = 1;
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
    const unsigned count = (unsigned)((n + part - 1) / part);
    job *j = count > 1 ? take_slot() : NULL;
    if (j == NULL) { /* one part, or every slot in use: the caller runs them all */
        for (unsigned i = 0; i < count; ++i)
            fn(ctx, (int)i, (size_t)i * part, part_end(n, part, i));
        return (int)count;
    }
    /* Post: closed while the parameters change, then open from part 1 (the
     * caller runs part 0: the staged copies' part 0 talks to the driver,
     * whose current device is the calling thread's). */
    const unsigned long long gen = (__atomic_load_n(&j->word, __ATOMIC_RELAXED) >> 32) + 1;
    __atomic_store_n(&j->word, gen << 32 | CLOSED, __ATOMIC_RELEASE);
    __atomic_store_n(&j->fn, fn, __ATOMIC_RELAXED);
    __atomic_store_n(&j->ctx, ctx, __ATOMIC_RELAXED);
    __atomic_store_n(&j->n, n, __ATOMIC_RELAXED);
    __atomic_store_n(&j->part, part, __ATOMIC_RELAXED);
    __atomic_store_n(&j->count, count, __ATOMIC_RELAXED);
    __atomic_store_n(&j->done, 1u, __ATOMIC_RELAXED); /* part 0 counts as done below */
    __atomic_store_n(&j->word, gen << 32 | 1u, __ATOMIC_RELEASE);
    __atomic_add_fetch(&posted, 1, __ATOMIC_SEQ_CST);
    int asleep = __atomic_load_n(&sleepers, __ATOMIC_SEQ_CST);
    if (asleep > 0) {
        pthread_mutex_lock(&lock);
        if (asleep >= (int)count - 1)
            for (unsigned i = 1; i < count; ++i) /* one helper per part, not all of them */
                pthread_cond_signal(&work_cv);
        else
            pthread_cond_broadcast(&work_cv);
        pthread_mutex_unlock(&lock);
    }
    fn(ctx, 0, 0, part_end(n, part, 0));
    while (run_one(j)) /* then the parts no helper has taken */
        ;
    /* Wait for the helpers' last parts: spin a while, then sleep. */
    if (!spin(all_done, j)) {
        pthread_mutex_lock(&lock);
        __atomic_store_n(&j->waiting, 1, __ATOMIC_SEQ_CST);
        while (!all_done(j))
            pthread_cond_wait(&done_cv, &lock);
        __atomic_store_n(&j->waiting, 0, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&lock);
    }
    __atomic_store_n(&j->taken, 0, __ATOMIC_RELEASE);
    return (int)count;
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
