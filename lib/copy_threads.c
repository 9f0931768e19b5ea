/*
 * copy_threads.c: the host copy threads. One memcpy thread reaches ~12 GB/s
 * on our H200's host and four reach ~44 GB/s (ANCHORS.md), so the pinned
 * staging of pageable memory is split over GPUTILE__COPY_THREADS threads:
 * the caller plus helpers started once, on first use, and stopped at exit
 * (GPUTILE__COPY_MAX_THREADS - 1 of them, so that gputile__stage_tune() can
 * try more; idle ones sleep on a condition variable).
 *
 * A copy is cut into byte ranges of its packed rows (page-aligned cuts);
 * the caller queues all but one on a FIFO shared by every caller, copies
 * its own, then helps with queued ranges (its own or others') until its
 * ranges are done. Tasks live on the callers' stacks: a caller returns only
 * when its count of pending tasks is zero. Nothing here can fail: without
 * helpers (thread creation refused) the caller copies alone.
 */
#include <pthread.h>
#include <string.h>

#include "pinned_internal.h"

typedef struct job {
    int pending; /* queued tasks not yet finished (under `lock`) */
} job;

typedef struct task {
    struct task *next;
    job *job;
    char *dst;
    const char *src;
    size_t dpitch, spitch, width;
    size_t b0, b1; /* bytes [b0, b1) of the packed rows */
} task;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static task *head, *tail;
static bool stopping;
static pthread_t helpers[GPUTILE__COPY_MAX_THREADS - 1];
static int n_helpers;
static pthread_once_t started = PTHREAD_ONCE_INIT;

static void run(const task *t)
{
    size_t row = t->b0 / t->width, col = t->b0 % t->width, left = t->b1 - t->b0;
    while (left > 0) {
        size_t n = t->width - col < left ? t->width - col : left;
        memcpy(t->dst + row * t->dpitch + col, t->src + row * t->spitch + col, n);
        left -= n;
        ++row;
        col = 0;
    }
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
    if (--j->pending == 0)
        pthread_cond_broadcast(&done_cv);
}

static void *helper(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        task *t = pop();
        if (t != NULL)
            run_unlocked(t);
        else if (stopping)
            break;
        else
            pthread_cond_wait(&work_cv, &lock);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void start(void)
{
    for (int i = 0; i < GPUTILE__COPY_MAX_THREADS - 1; ++i) {
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

void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height)
{
    const size_t total = width * height;
    if (total == 0)
        return;
    pthread_once(&started, start);

    size_t parts = (total + GPUTILE__COPY_MIN_PART - 1) / GPUTILE__COPY_MIN_PART;
    size_t threads = (size_t)gputile__copy_threads();
    if (parts > threads)
        parts = threads;
    if (parts > (size_t)n_helpers + 1)
        parts = (size_t)n_helpers + 1;
    size_t part = (total + parts - 1) / parts;
    part = (part + 4095) & ~(size_t)4095; /* cut at page multiples of the packed bytes */

    task tasks[GPUTILE__COPY_MAX_THREADS];
    job j = {0};
    size_t n = 0;
    for (size_t b = 0; b < total; b += part, ++n)
        tasks[n] = (task){.next = NULL, .job = &j, .dst = dst, .src = src, .dpitch = dpitch,
                          .spitch = spitch, .width = width, .b0 = b,
                          .b1 = total - b < part ? total : b + part};
    if (n > 1) {
        pthread_mutex_lock(&lock);
        j.pending = (int)n - 1;
        for (size_t i = 1; i < n; ++i) {
            if (tail)
                tail->next = &tasks[i];
            else
                head = &tasks[i];
            tail = &tasks[i];
        }
        pthread_cond_broadcast(&work_cv);
        pthread_mutex_unlock(&lock);
    }
    run(&tasks[0]);
    if (n > 1) {
        pthread_mutex_lock(&lock);
        while (j.pending > 0) {
            task *t = pop();
            if (t != NULL)
                run_unlocked(t);
            else
                pthread_cond_wait(&done_cv, &lock);
        }
        pthread_mutex_unlock(&lock);
    }
}
