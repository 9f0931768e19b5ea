/* SPDX-License-Identifier: MIT */
/*
 * pinned_table.c: the table of pinned host memory that libgputile made
 * (allocations, registrations, pool blocks). A sorted array of
 * non-overlapping ranges under one mutex: lookups by address are a binary
 * search, so freeing an unknown or already-freed pointer is answered with a
 * status instead of a crash, and a copy can tell whether its host range is
 * pinned without asking the driver.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pinned_table.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gputile__pin *table;
static size_t count, capacity;

void gputile__pin_lock(void)
{
    pthread_mutex_lock(&lock);
}

void gputile__pin_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

/* Index of the first entry with lo > p. */
static size_t upper_bound(uintptr_t p)
{
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (table[mid].lo <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

gputile__pin *gputile__pin_find(uintptr_t p)
{
    size_t i = upper_bound(p);
    if (i == 0 || p >= table[i - 1].hi)
        return NULL;
    return &table[i - 1];
}

bool gputile__pin_overlaps(uintptr_t lo, uintptr_t hi)
{
    size_t i = upper_bound(lo);
    if (i > 0 && table[i - 1].hi > lo) /* the entry starting at or before lo */
        return true;
    return i < count && table[i].lo < hi; /* the first entry after lo */
}

bool gputile__pin_insert(const gputile__pin *e)
{
    if (count == capacity) {
        size_t cap = capacity ? 2 * capacity : 64;
        gputile__pin *t = realloc(table, cap * sizeof *t);
        if (t == NULL)
            return false;
        table = t;
        capacity = cap;
    }
    size_t i = upper_bound(e->lo);
    memmove(&table[i + 1], &table[i], (count - i) * sizeof *table);
    table[i] = *e;
    ++count;
    return true;
}

void gputile__pin_remove(const gputile__pin *e)
{
    uintptr_t lo = e->lo;
    size_t i = upper_bound(lo);
    if (i == 0 || table[i - 1].lo != lo)
        return;
    --i;
    memmove(&table[i], &table[i + 1], (count - i - 1) * sizeof *table);
    --count;
    if (count == 0) { /* nothing pinned: give the array back (no leak at exit) */
        free(table);
        table = NULL;
        capacity = 0;
    }
}

gputile__pin_cover gputile__pin_covers(const void *p, size_t n)
{
    const uintptr_t a = (uintptr_t)p;
    gputile__pin_cover c = GPUTILE__PIN_NONE;
    gputile__pin_lock();
    const gputile__pin *e = gputile__pin_find(a);
    if (e != NULL)
        c = gputile__pin_cover_of(e, p, n);
    gputile__pin_unlock();
    return c;
}

bool gputile__pin_lookup(const void *p, gputile__pin *out)
{
    gputile__pin_lock();
    const gputile__pin *e = gputile__pin_find((uintptr_t)p);
    if (e != NULL)
        *out = *e;
    gputile__pin_unlock();
    return e != NULL;
}
