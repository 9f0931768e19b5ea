/* SPDX-License-Identifier: MIT */
/*
 * pinned_table.h: the bottom of the pinned-memory files of lib/ (internal):
 * the table of every pinned range libgputile made (pinned_table.c) and the
 * checks and CUDA mappings of the GPUTILE_PINNED_* flags (pinned.c), which
 * pinned.c, pinned_pool.c and the pointer classifier use.
 */
#ifndef GPUTILE_PINNED_TABLE_H
#define GPUTILE_PINNED_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* ---- pinned_table.c: every range of pinned memory libgputile made ----
 * Sorted by address, never overlapping, one mutex. */
typedef enum gputile__pin_kind {
    GPUTILE__PIN_ALLOC,            /* gputile_pinned_alloc() */
    GPUTILE__PIN_REGISTER_PENDING, /* gputile_pinned_register() under way */
    GPUTILE__PIN_REGISTER,         /* gputile_pinned_register() */
    GPUTILE__PIN_POOL_USED,        /* a pool block handed out */
    GPUTILE__PIN_POOL_CACHED,      /* a pool block kept idle */
    GPUTILE__PIN_COPY_CACHE        /* gputile_copy_cache(): a user buffer kept registered */
} gputile__pin_kind;

typedef struct gputile__pin {
    uintptr_t lo, hi; /* the pinned bytes [lo, hi) (whole pages for registrations) */
    void *key;        /* the pointer the user holds (lo, or the registered address) */
    size_t bytes;     /* the bytes the user asked for */
    unsigned flags;   /* GPUTILE_PINNED_* */
    int kind;         /* gputile__pin_kind */
} gputile__pin;

/* A kind whose bytes are pinned and handed to the user: memory copies may
 * take straight to the copy engines (not a registration under way, an idle
 * pool block, or a copy-cache entry, whose contract is the pageable one). */
static inline bool gputile__pin_kind_in_use(int kind)
{
    return kind == GPUTILE__PIN_ALLOC || kind == GPUTILE__PIN_REGISTER ||
           kind == GPUTILE__PIN_POOL_USED;
}

void gputile__pin_lock(void);
void gputile__pin_unlock(void);
/* With the lock held: */
/* The entry holding address p, or NULL. */
gputile__pin *gputile__pin_find(uintptr_t p);
/* True when [lo, hi) shares a byte with some entry. */
bool gputile__pin_overlaps(uintptr_t lo, uintptr_t hi);
/* Adds an entry (must not overlap); false when out of memory. */
bool gputile__pin_insert(const gputile__pin *e);
/* Removes the entry whose lo is e->lo (e may point into the table). */
void gputile__pin_remove(const gputile__pin *e);
/* Without the lock: how [p, p + n) lies against the live pinned entry
 * (used, not cached or pending; copy-cache entries count as none:
 * gputile_copy() asks gputile__pin_lookup() for them) whose pages hold p.
 * INSIDE: within what was pinned for its owner, [key, key + bytes);
 * ASTRIDE: partly outside it (past the end of an allocation, or in the
 * part of a registration's first or last page the user did not register):
 * pageable for the caller, whose driver would take it all for pinned;
 * NONE: no such entry (the driver decides). */
typedef enum gputile__pin_cover {
    GPUTILE__PIN_NONE,
    GPUTILE__PIN_INSIDE,
    GPUTILE__PIN_ASTRIDE
} gputile__pin_cover;
gputile__pin_cover gputile__pin_covers(const void *p, size_t n);
/* The same against an entry e whose pages hold p. */
static inline gputile__pin_cover gputile__pin_cover_of(const gputile__pin *e, const void *p,
                                                       size_t n)
{
    const uintptr_t a = (uintptr_t)p, k = (uintptr_t)e->key;
    if (!gputile__pin_kind_in_use(e->kind))
        return GPUTILE__PIN_NONE;
    return a >= k && a - k <= e->bytes && n <= e->bytes - (a - k) ? GPUTILE__PIN_INSIDE
                                                                  : GPUTILE__PIN_ASTRIDE;
}
/* Without the lock: copies the entry holding address p into *out (a copy:
 * the table may move as soon as the lock is dropped); false when none. */
bool gputile__pin_lookup(const void *p, gputile__pin *out);

/* ---- the GPUTILE_PINNED_* flags: one row each ----
 * X(public flag, its cudaHostAlloc flag, its cudaHostRegister flag,
 *   accepted by gputile_pinned_alloc, by gputile_pinned_register, by
 *   gputile_pool_alloc). Every mask and CUDA mapping below derives from these
 * rows: a new flag is one row. Write-combined memory exists only as an
 * allocation (cudaHostRegister has no such flag). */
#define GPUTILE__PINNED_FLAG_TABLE(X)                                                    \
    X(GPUTILE_PINNED_PORTABLE, cudaHostAllocPortable, cudaHostRegisterPortable, 1, 1, 1) \
    X(GPUTILE_PINNED_MAPPED, cudaHostAllocMapped, cudaHostRegisterMapped, 1, 1, 1)       \
    X(GPUTILE_PINNED_WRITE_COMBINED, cudaHostAllocWriteCombined, cudaHostRegisterDefault, 1, 0, 1)

/* The flags each call accepts, and every flag any call accepts. */
#define GPUTILE__PINNED_IF_ALLOC(flag, alloc, reg, for_alloc, for_reg, for_pool) \
    | ((for_alloc) ? (unsigned)(flag) : 0u)
#define GPUTILE__PINNED_IF_REGISTER(flag, alloc, reg, for_alloc, for_reg, for_pool) \
    | ((for_reg) ? (unsigned)(flag) : 0u)
#define GPUTILE__PINNED_IF_POOL(flag, alloc, reg, for_alloc, for_reg, for_pool) \
    | ((for_pool) ? (unsigned)(flag) : 0u)
#define GPUTILE__PINNED_ANY(flag, alloc, reg, for_alloc, for_reg, for_pool) | (unsigned)(flag)
#define GPUTILE__PINNED_ALLOC_FLAGS (0u GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_IF_ALLOC))
#define GPUTILE__PINNED_REGISTER_FLAGS (0u GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_IF_REGISTER))
#define GPUTILE__PINNED_POOL_FLAGS (0u GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_IF_POOL))
#define GPUTILE__PINNED_KNOWN_FLAGS (0u GPUTILE__PINNED_FLAG_TABLE(GPUTILE__PINNED_ANY))

/* cudaHostAlloc flags of GPUTILE_PINNED_* flags (checked by the caller). */
unsigned gputile__host_alloc_flags(unsigned flags);
/* cudaHostRegister flags of GPUTILE_PINNED_* flags (checked by the caller). */
unsigned gputile__host_register_flags(unsigned flags);
/* Checks flags against the current device: INVALID_VALUE for bits no row
 * knows, UNSUPPORTED when the device cannot map host memory and MAPPED is
 * set. */
gputile_status gputile__check_pinned_flags(unsigned flags);
/* gputile_pinned_register() recording the range as `kind` (REGISTER or
 * COPY_CACHE): same checks, same statuses. */
gputile_status gputile__pin_register(void *ptr, size_t bytes, unsigned flags, int kind);
/* Unregisters the range registered at exactly ptr as `kind`; NULL_POINTER,
 * or UNKNOWN_POINTER for any other pointer or kind. */
gputile_status gputile__pin_unregister(const void *ptr, int kind);

#endif /* GPUTILE_PINNED_TABLE_H */
