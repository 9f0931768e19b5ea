/* SPDX-License-Identifier: MIT */
/*
 * pinned_pool.c: the process-wide pool of pinned host blocks.
 *
 * Pinning is slow (cudaHostAlloc: ~340 ms per GiB on our H200), so a freed
 * block stays pinned and the next request of the same size class and flags
 * takes it back: a list search under a mutex, microseconds. Size classes:
 * 4 per power of two (a request is rounded up by at most 25%), one page at
 * least. Cached blocks are kept most recently freed first; when their bytes
 * exceed the limit, the oldest are freed. Blocks in use are in the pin
 * table (kind POOL_USED), so unknown and double frees return a status.
 * Lock order: the pool's mutex, then the pin table's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy_policy.h"
#include "pinned_table.h"

typedef struct block {
    void *ptr;
    size_t cls;
    unsigned flags;
    struct block *prev, *next;
} block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static block *newest, *oldest; /* cached blocks */
static size_t limit = GPUTILE_POOL_DEFAULT_LIMIT;
static size_t in_use_bytes, in_use_blocks, cached_bytes, cached_blocks, hits, misses;

/* The size class of `bytes` (> 0); false when it does not fit in size_t. */
static bool size_class(size_t bytes, size_t *cls)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (bytes <= page) {
        *cls = page;
        return true;
    }
    unsigned lg = 63u - (unsigned)__builtin_clzll((unsigned long long)(bytes - 1));
    size_t step = (size_t)1 << (lg - 2);
    if (bytes > SIZE_MAX - (step - 1))
        return false;
    *cls = (bytes + step - 1) & ~(step - 1);
    return true;
}

static void unlink_block(block *b)
{
    if (b->prev)
        b->prev->next = b->next;
    else
        newest = b->next;
    if (b->next)
        b->next->prev = b->prev;
    else
        oldest = b->prev;
    b->prev = b->next = NULL;
    cached_bytes -= b->cls;
    --cached_blocks;
}

/* With the pool locked: moves cached blocks, oldest first, onto *out until
 * the cached bytes are within `keep`; removes them from the pin table. */
static void evict(size_t keep, block **out)
{
    gputile__pin_lock();
    while (oldest != NULL && cached_bytes > keep) {
        block *b = oldest;
        unlink_block(b);
        gputile__pin *e = gputile__pin_find((uintptr_t)b->ptr);
        if (e != NULL)
            gputile__pin_remove(e);
        b->next = *out;
        *out = b;
    }
    gputile__pin_unlock();
}

/* Without the lock: frees evicted blocks. Returns the first error. */
static gputile_status free_blocks(block *b)
{
    gputile_status s = GPUTILE_SUCCESS;
    while (b != NULL) {
        block *next = b->next;
        gputile_status r = gputile__cuda_status(cudaFreeHost(b->ptr));
        if (s == GPUTILE_SUCCESS)
            s = r;
        free(b);
        b = next;
    }
    return s;
}

gputile_status gputile_pool_alloc(void **ptr, size_t bytes, unsigned flags)
{
    size_t cls;
    if (ptr == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (bytes == 0 || (flags & ~GPUTILE__PINNED_POOL_FLAGS))
        return GPUTILE_ERROR_INVALID_VALUE;
    if (!size_class(bytes, &cls))
        return GPUTILE_ERROR_OVERFLOW;

    pthread_mutex_lock(&lock);
    for (block *b = newest; b != NULL; b = b->next)
        if (b->cls == cls && b->flags == flags) {
            unlink_block(b);
            gputile__pin_lock();
            gputile__pin_find((uintptr_t)b->ptr)->kind = GPUTILE__PIN_POOL_USED;
            gputile__pin_unlock();
            ++hits;
            in_use_bytes += cls;
            ++in_use_blocks;
            pthread_mutex_unlock(&lock);
            *ptr = b->ptr;
            free(b);
            return GPUTILE_SUCCESS;
        }
    pthread_mutex_unlock(&lock);

    /* A miss: pin fresh memory, outside the lock (it takes a while). */
    gputile_status s = gputile__check_pinned_flags(flags);
    if (s != GPUTILE_SUCCESS)
        return s;
    void *p = NULL;
    cudaError_t err = cudaHostAlloc(&p, cls, gputile__host_alloc_flags(flags));
    if (err == cudaErrorMemoryAllocation) { /* give back what the cache holds, once */
        (void)cudaGetLastError(); /* the retry may succeed: leave no pending error behind it */
        (void)gputile_pool_release();
        err = cudaHostAlloc(&p, cls, gputile__host_alloc_flags(flags));
    }
    if (err != cudaSuccess) /* cleared by gputile__cuda_status() */
        return gputile__cuda_status(err);
    gputile__pin e = {.lo = (uintptr_t)p,
                      .hi = (uintptr_t)p + cls,
                      .key = p,
                      .bytes = cls,
                      .flags = flags,
                      .kind = GPUTILE__PIN_POOL_USED};
    pthread_mutex_lock(&lock);
    gputile__pin_lock();
    bool ok = gputile__pin_insert(&e);
    gputile__pin_unlock();
    if (ok) {
        ++misses;
        in_use_bytes += cls;
        ++in_use_blocks;
    }
    pthread_mutex_unlock(&lock);
    if (!ok) {
        (void)cudaFreeHost(p);
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    }
    *ptr = p;
    return GPUTILE_SUCCESS;
}

gputile_status gputile_pool_free(void *ptr)
{
    if (ptr == NULL)
        return GPUTILE_SUCCESS;
    block *b = malloc(sizeof *b), *evicted = NULL;
    pthread_mutex_lock(&lock);
    gputile__pin_lock();
    gputile__pin *e = gputile__pin_find((uintptr_t)ptr);
    bool mine = e != NULL && e->key == ptr && e->kind == GPUTILE__PIN_POOL_USED;
    size_t cls = mine ? e->bytes : 0;
    unsigned flags = mine ? e->flags : 0;
    bool keep = mine && b != NULL && cls <= limit;
    if (mine && keep)
        e->kind = GPUTILE__PIN_POOL_CACHED;
    else if (mine)
        gputile__pin_remove(e);
    gputile__pin_unlock();
    if (mine) {
        in_use_bytes -= cls;
        --in_use_blocks;
    }
    if (keep) {
        *b = (block){.ptr = ptr, .cls = cls, .flags = flags, .prev = NULL, .next = newest};
        if (newest)
            newest->prev = b;
        else
            oldest = b;
        newest = b;
        cached_bytes += cls;
        ++cached_blocks;
        b = NULL;
        evict(limit, &evicted);
    }
    pthread_mutex_unlock(&lock);
    free(b);
    if (!mine)
        return GPUTILE_ERROR_UNKNOWN_POINTER;
    gputile_status s = keep ? GPUTILE_SUCCESS : gputile__cuda_status(cudaFreeHost(ptr));
    gputile_status r = free_blocks(evicted);
    return s != GPUTILE_SUCCESS ? s : r;
}

gputile_status gputile_pool_set_limit(size_t bytes)
{
    block *evicted = NULL;
    pthread_mutex_lock(&lock);
    limit = bytes;
    evict(limit, &evicted);
    pthread_mutex_unlock(&lock);
    return free_blocks(evicted);
}

gputile_status gputile_pool_release(void)
{
    block *evicted = NULL;
    gputile__gemm_views_release_idle(); /* its slots' blocks back to the cache first */
    pthread_mutex_lock(&lock);
    evict(0, &evicted);
    pthread_mutex_unlock(&lock);
    gputile__bounce_release_idle(); /* the library's other idle pinned memory */
    return free_blocks(evicted);
}

gputile_status gputile_pool_get_stats(gputile_pool_stats *stats)
{
    if (stats == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (stats->size < sizeof(size_t) * 2) /* at least size and limit */
        return GPUTILE_ERROR_INVALID_VALUE;
    gputile_pool_stats now;
    pthread_mutex_lock(&lock);
    now = (gputile_pool_stats){.size = stats->size,
                               .limit = limit,
                               .in_use_bytes = in_use_bytes,
                               .in_use_blocks = in_use_blocks,
                               .cached_bytes = cached_bytes,
                               .cached_blocks = cached_blocks,
                               .hits = hits,
                               .misses = misses};
    pthread_mutex_unlock(&lock);
    size_t n = stats->size < sizeof now ? stats->size : sizeof now;
    memcpy(stats, &now, n);
    return GPUTILE_SUCCESS;
}
