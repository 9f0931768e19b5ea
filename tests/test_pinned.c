/* SPDX-License-Identifier: MIT */
/*
 * test_pinned.c (GPU): pinned allocation with every flag combination, a
 * kernel reading and writing mapped memory, registration of unaligned
 * ranges, the pool (reuse, limit, release, consistency), copies of every
 * awkward size in both directions with guard bytes, 8 threads allocating,
 * copying and freeing at once with every byte checked, and GEMM on host
 * sub-matrix views (pageable, pinned, mixed with device memory) against
 * cuBLAS, bit for bit on small-integer inputs.
 *
 * Timeouts catch a hang, not a slow test: Criterion runs every test of the
 * suite at once, beside the other suites when they run side by side, and
 * the copy tests move gigabytes through pageable memory; a test that ends
 * as its timeout fires aborts the runner ("invalid state 'timeout'"). Under
 * that load tests with 60 s took 33-44 s and small_tiles 131 s: each
 * timeout is now about 4x the longest run seen.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sysconf */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "gputile.h"
#include "../lib/internal.h" /* gputile__pointer_kind_of() */
#include "gputile_facade.h"
#include "support/gpu.h"
#include "support/expect.h"

/* From support/pinned_kernel.cu. */
cudaError_t gputest_mapped_update(unsigned char *device_ptr, size_t n, cudaStream_t stream);
cudaError_t gputest_mapped_update_ready(void);
/* libgputile internals that tests may turn (declared in lib/pinned_internal.h). */
void gputile__gemm_host_set_tile(size_t tile);
void gputile__gemm_host_set_packed(size_t bytes);
void gputile__gemm_host_set_panel(size_t k);
void gputile__stage_set_chunk_cap(size_t bytes);
void gputile__stage_tune(size_t chunk, int slots, int threads);
void gputile__copy_force(int method); /* lib/copy_policy.h: 2 is STAGED, -1 the policy */

static const size_t MiB = (size_t)1 << 20;

static gputile_pool_stats pool_stats(void)
{
    gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
    OK(gputile_pool_get_stats(&st));
    return st;
}

/* ---- allocation ---------------------------------------------------------- */

/* Host -> device -> host through the block, every byte compared. */
static void round_trip(unsigned char *host, size_t n)
{
    unsigned char *want = malloc(n), *back = malloc(n), *d = NULL;
    cr_assert(want && back);
    gputest_fill_random_bytes(want, n);
    memcpy(host, want, n);
    GPUTEST_CUDA(gputest_malloc((void **)&d, n));
    GPUTEST_CUDA(cudaMemcpy(d, host, n, cudaMemcpyHostToDevice));
    memset(host, 0, n);
    GPUTEST_CUDA(cudaMemcpy(host, d, n, cudaMemcpyDeviceToHost));
    memcpy(back, host, n);
    size_t at = gputest_first_diff(back, want, n);
    cr_assert_eq(at, n, "byte %zu differs after the round trip", at);
    GPUTEST_CUDA(cudaFree(d));
    free(want);
    free(back);
}

Test(pinned, every_flag_combination, .init = gputest_require_device, .timeout = 180)
{
    const size_t n = MiB + 13;
    for (unsigned flags = 0; flags <= 7u; ++flags) {
        for (int pooled = 0; pooled < 2; ++pooled) {
            void *p = NULL, *d = NULL;
            OK_ALLOC(pooled ? gputile_pool_alloc(&p, n, flags)
                            : gputile_pinned_alloc(&p, n, flags));
            cr_assert_not_null(p);
            struct cudaPointerAttributes at;
            GPUTEST_CUDA(cudaPointerGetAttributes(&at, p));
            cr_assert_eq(at.type, cudaMemoryTypeHost, "flags %#x: not pinned", flags);
            round_trip(p, n);
            if (flags & GPUTILE_PINNED_MAPPED) {
                OK(gputile_pinned_device_pointer(&d, p));
                cr_assert_not_null(d);
                void *d2 = NULL;
                OK(gputile_pinned_device_pointer(&d2, (char *)p + n - 1));
                cr_assert_eq((char *)d2, (char *)d + n - 1);
            } else {
                EXPECT(gputile_pinned_device_pointer(&d, p), GPUTILE_ERROR_INVALID_VALUE);
            }
            /* free through the other family: refused, memory stays valid */
            EXPECT(pooled ? gputile_pinned_free(p) : gputile_pool_free(p),
                   GPUTILE_ERROR_UNKNOWN_POINTER);
            ((unsigned char *)p)[n - 1] = 7;
            OK_ALLOC(pooled ? gputile_pool_free(p) : gputile_pinned_free(p));
            EXPECT(pooled ? gputile_pool_free(p) : gputile_pinned_free(p),
                   GPUTILE_ERROR_UNKNOWN_POINTER);
        }
    }
    OK(gputile_pool_release());
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.in_use_blocks, 0);
    cr_assert_eq(st.cached_blocks, 0);
}

Test(pinned, allocation_failure_is_a_status, .init = gputest_require_device)
{
    /* 1 EiB: the driver refuses it as out of memory (or, on some drivers, as
     * an invalid size: GPUTILE_ERROR_CUDA); never success, never a crash. */
    void *p = &p;
    gputile_status s = gputile_pinned_alloc(&p, (size_t)1 << 60, 0);
    cr_assert(s == GPUTILE_ERROR_OUT_OF_MEMORY || s == GPUTILE_ERROR_CUDA, "%s",
              gputile_status_name(s));
    cr_assert_neq(gputile_last_cuda_error(), 0);
    s = gputile_pool_alloc(&p, (size_t)1 << 60, 0);
    cr_assert(s == GPUTILE_ERROR_OUT_OF_MEMORY || s == GPUTILE_ERROR_CUDA, "%s",
              gputile_status_name(s));
    cr_assert_eq(p, (void *)&p, "out-pointer written on error");
    /* still usable, the pool unchanged */
    OK_ALLOC(gputile_pinned_alloc(&p, 100, 0));
    OK(gputile_pinned_free(p));
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.in_use_blocks, 0);
}

/* ---- mapped memory ------------------------------------------------------- */

static void kernel_updates(unsigned char *host, void *device, size_t n)
{
    unsigned char *want = malloc(n);
    cr_assert_not_null(want);
    gputest_fill_random_bytes(host, n);
    for (size_t i = 0; i < n; ++i)
        want[i] = (unsigned char)(3u * host[i] + 1u);
    GPUTEST_CUDA_RETRY(gputest_mapped_update_ready());
    GPUTEST_CUDA(gputest_mapped_update(device, n, NULL));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    size_t at = gputest_first_diff(host, want, n);
    cr_assert_eq(at, n, "byte %zu not updated by the kernel", at);
    free(want);
}

Test(pinned, kernel_reads_and_writes_mapped_memory, .init = gputest_require_device, .timeout = 180)
{
    const size_t n = 3 * MiB + 5;
    void *p, *d;
    OK_ALLOC(gputile_pinned_alloc(&p, n, GPUTILE_PINNED_MAPPED));
    OK(gputile_pinned_device_pointer(&d, p));
    kernel_updates(p, d, n);
    OK(gputile_pinned_free(p));
    EXPECT(gputile_pinned_device_pointer(&d, p), GPUTILE_ERROR_UNKNOWN_POINTER);

    OK_ALLOC(gputile_pool_alloc(&p, n, GPUTILE_PINNED_MAPPED | GPUTILE_PINNED_PORTABLE));
    OK(gputile_pinned_device_pointer(&d, (char *)p + 1));
    kernel_updates((unsigned char *)p + 1, d, n - 1);
    OK(gputile_pool_free(p));

    /* registered, at an odd address: the device pointer of an interior byte */
    unsigned char *raw = malloc(n + 64);
    cr_assert_not_null(raw);
    OK(gputile_pinned_register(raw + 3, n, GPUTILE_PINNED_MAPPED));
    OK(gputile_pinned_device_pointer(&d, raw + 3));
    kernel_updates(raw + 3, d, n);
    OK(gputile_pinned_unregister(raw + 3));
    free(raw);
}

/* ---- registration -------------------------------------------------------- */

Test(pinned, register_unaligned_ranges, .init = gputest_require_device, .timeout = 180)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *raw = malloc(8 * page + 64);
    cr_assert_not_null(raw);
    unsigned char *p = raw + 3 + (page - ((uintptr_t)(raw + 3) % page)) % page + 5; /* page + 5 */
    cr_assert_eq((uintptr_t)p % page, 5);
    const size_t n = 2 * page + 100; /* ends inside a third page */

    OK(gputile_pinned_register(p, n, 0));
    struct cudaPointerAttributes at;
    GPUTEST_CUDA(cudaPointerGetAttributes(&at, p));
    cr_assert_eq(at.type, cudaMemoryTypeHost);
    GPUTEST_CUDA(cudaPointerGetAttributes(&at, p + n - 1));
    cr_assert_eq(at.type, cudaMemoryTypeHost, "the last byte's page is pinned");

    EXPECT(gputile_pinned_register(p, n, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    EXPECT(gputile_pinned_register(p + 100, 10, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    EXPECT(gputile_pinned_register(p - 5, 1, 0), GPUTILE_ERROR_ALREADY_REGISTERED); /* same page */
    EXPECT(gputile_pinned_register(p + n, 1, 0), GPUTILE_ERROR_ALREADY_REGISTERED); /* last page */
    EXPECT(gputile_pinned_register(p - page, 2 * page, 0), GPUTILE_ERROR_ALREADY_REGISTERED);

    /* What the copies take for pinned: the registered bytes, not their
     * pages' neighbours (the driver says pinned for the whole pages) nor a
     * range running past them; those are pageable, copied through the
     * library's own buffers, complete on return. */
    gputile__pointer_kind kind;
    GPUTEST_CUDA(gputile__pointer_kind_of(p, n, &kind));
    cr_assert_eq(kind, GPUTILE__POINTER_HOST_PINNED);
    GPUTEST_CUDA(gputile__pointer_kind_of(p + 7, n - 7, &kind));
    cr_assert_eq(kind, GPUTILE__POINTER_HOST_PINNED);
    GPUTEST_CUDA(gputile__pointer_kind_of(p, n + 1, &kind));
    cr_assert_eq(kind, GPUTILE__POINTER_HOST_PAGEABLE, "a range past the registration");
    GPUTEST_CUDA(gputile__pointer_kind_of(p - 5, 5, &kind));
    cr_assert_eq(kind, GPUTILE__POINTER_HOST_PAGEABLE, "its first page's bytes before it");
    GPUTEST_CUDA(gputile__pointer_kind_of(p + n, 10, &kind));
    cr_assert_eq(kind, GPUTILE__POINTER_HOST_PAGEABLE, "its last page's bytes after it");
    {
        unsigned char *dn, back[64];
        GPUTEST_CUDA(gputest_malloc((void **)&dn, 64));
        GPUTEST_CUDA(cudaMemset(dn, 0x5A, 64));
        memset(p + n, 0, 64);
        OK(gputile_copy(p + n, dn, 64, NULL)); /* a neighbour: complete on return */
        memset(back, 0x5A, 64);
        cr_assert_eq(memcmp(p + n, back, 64), 0, "the neighbour's download was not complete");
        OK(gputile_copy(p + n - 32, dn, 64, NULL)); /* astride the registration's end */
        cr_assert_eq(memcmp(p + n - 32, back, 64), 0, "the download astride was not complete");
        GPUTEST_CUDA(cudaFree(dn));
    }

    /* the pinned path of gputile_copy: asynchronous, complete after a sync */
    unsigned char *want = malloc(n), *d;
    cr_assert_not_null(want);
    GPUTEST_CUDA(gputest_malloc((void **)&d, n));
    gputest_fill_random_bytes(want, n);
    memcpy(p, want, n);
    OK(gputile_copy(d, p, n, NULL));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    memset(p, 0, n);
    OK(gputile_copy(p, d, n, NULL));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    cr_assert_eq(gputest_first_diff(p, want, n), n);

    EXPECT(gputile_pinned_unregister(p + 1), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_unregister(p - 5), GPUTILE_ERROR_UNKNOWN_POINTER);
    EXPECT(gputile_pinned_free(p), GPUTILE_ERROR_UNKNOWN_POINTER);
    OK(gputile_pinned_unregister(p));
    EXPECT(gputile_pinned_unregister(p), GPUTILE_ERROR_UNKNOWN_POINTER);
    GPUTEST_CUDA(cudaPointerGetAttributes(&at, p));
    cr_assert_eq(at.type, cudaMemoryTypeUnregistered, "still pinned after unregister");

    /* neighbours on separate pages, then the same range again */
    OK(gputile_pinned_register(p - 5, 1, GPUTILE_PINNED_PORTABLE));
    OK(gputile_pinned_register(p + page, 10, 0));
    OK(gputile_pinned_unregister(p - 5));
    OK(gputile_pinned_unregister(p + page));
    OK(gputile_pinned_register(p, n, GPUTILE_PINNED_MAPPED | GPUTILE_PINNED_PORTABLE));
    OK(gputile_pinned_unregister(p));
    GPUTEST_CUDA(cudaFree(d));
    free(want);
    free(raw);
}

Test(pinned, register_memory_pinned_elsewhere, .init = gputest_require_device)
{
    void *p, *q;
    OK_ALLOC(gputile_pinned_alloc(&p, 3 * 4096, 0));
    EXPECT(gputile_pinned_register(p, 100, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    OK_ALLOC(gputile_pool_alloc(&q, 3 * 4096, 0));
    EXPECT(gputile_pinned_register((char *)q + 4096, 100, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    OK(gputile_pinned_free(p));
    OK(gputile_pool_free(q));
    /* pinned by CUDA directly: the driver says so, the status too */
    GPUTEST_CUDA(cudaHostAlloc(&p, 8192, 0));
    EXPECT(gputile_pinned_register(p, 8192, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    EXPECT(gputile_pinned_unregister(p), GPUTILE_ERROR_UNKNOWN_POINTER);
    GPUTEST_CUDA(cudaFreeHost(p));
    /* registered by CUDA directly inside the range, neither end: only the
     * driver's cudaHostRegister finds it, and its error stays no pending one */
    const size_t page = 4096;
    char *raw = aligned_alloc(page, 5 * page);
    cr_assert_not_null(raw);
    GPUTEST_CUDA(cudaHostRegister(raw + 2 * page, page, cudaHostRegisterDefault));
    const gputile_status st = gputile_pinned_register(raw, 5 * page, 0);
    cr_log_info("a range around a page CUDA registered: %s (%s)", gputile_status_name(st),
                gputile_last_cuda_error_name());
    cr_assert(st == GPUTILE_ERROR_ALREADY_REGISTERED || st == GPUTILE_ERROR_CUDA,
              "a range around a page CUDA registered: %s", gputile_status_name(st));
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "an error was left pending");
    OK(gputile_pinned_register(raw, page, 0)); /* its first page is still free to register */
    OK(gputile_pinned_unregister(raw));
    GPUTEST_CUDA(cudaHostUnregister(raw + 2 * page));
    free(raw);
    OK(gputile_pool_release());
}

/* ---- the pool ------------------------------------------------------------ */

Test(pinned, pool_reuses_blocks, .init = gputest_require_device, .timeout = 300)
{
    OK(gputile_pool_release());
    gputile_pool_stats s0 = pool_stats();
    void *p, *q, *r;
    OK_ALLOC(gputile_pool_alloc(&p, 3 * MiB, 0));
    OK(gputile_pool_free(p));
    OK_ALLOC(gputile_pool_alloc(&q, 3 * MiB - 100, 0)); /* same class */
    cr_assert_eq(q, p, "a cached block of the class is reused");
    OK_ALLOC(gputile_pool_alloc(&r, 3 * MiB, GPUTILE_PINNED_PORTABLE)); /* other flags: fresh */
    cr_assert_neq(r, q);
    gputile_pool_stats s1 = pool_stats();
    cr_assert_eq(s1.hits - s0.hits, 1);
    cr_assert_eq(s1.misses - s0.misses, 2);
    cr_assert_eq(s1.in_use_blocks, 2);
    cr_assert_eq(s1.in_use_bytes, 6 * MiB);
    OK(gputile_pool_free(q));
    OK(gputile_pool_free(r));

    /* 1 GiB: the block itself comes back, pinned pages and contents as
     * they were (how fast: gputile-bench transfer, not a unit test) */
    const size_t gib = (size_t)1 << 30;
    gputile_pool_stats s2 = pool_stats();
    OK_ALLOC(gputile_pool_alloc(&p, gib, 0));
    memset(p, 0x5a, gib); /* the whole block is usable */
    OK(gputile_pool_free(p));
    OK_ALLOC(gputile_pool_alloc(&q, gib, 0));
    cr_assert_eq(q, p);
    gputile_pool_stats s3 = pool_stats();
    cr_assert_eq(s3.misses - s2.misses, 1, "the 1 GiB block was pinned again");
    cr_assert_eq(s3.hits - s2.hits, 1);
    cr_assert_eq(gputest_count_not(q, gib, 0x5a), 0);
    OK(gputile_pool_free(q));
    OK(gputile_pool_release());
}

Test(pinned, pool_limit_and_release, .init = gputest_require_device, .timeout = 180)
{
    OK(gputile_pool_release());
    OK(gputile_pool_set_limit(7 * MiB));
    void *a, *b, *c, *big;
    OK_ALLOC(gputile_pool_alloc(&a, 3 * MiB, 0));
    OK_ALLOC(gputile_pool_alloc(&b, 3 * MiB, 0));
    OK_ALLOC(gputile_pool_alloc(&c, 3 * MiB, 0));
    OK_ALLOC(gputile_pool_alloc(&big, 8 * MiB, 0));
    OK(gputile_pool_free(a));
    OK(gputile_pool_free(b));
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.cached_blocks, 2);
    cr_assert_eq(st.cached_bytes, 6 * MiB);
    OK(gputile_pool_free(c)); /* 9 MiB > 7: the oldest (a) leaves */
    st = pool_stats();
    cr_assert_eq(st.cached_blocks, 2);
    cr_assert_eq(st.cached_bytes, 6 * MiB);
    EXPECT(gputile_pool_free(a), GPUTILE_ERROR_UNKNOWN_POINTER); /* double free */
    EXPECT(gputile_pool_free(b), GPUTILE_ERROR_UNKNOWN_POINTER); /* cached: double free */
    OK(gputile_pool_free(big)); /* larger than the limit: freed, not cached */
    st = pool_stats();
    cr_assert_eq(st.cached_blocks, 2);
    cr_assert_eq(st.in_use_blocks, 0);
    cr_assert_eq(st.in_use_bytes, 0);

    void *x, *y;
    OK_ALLOC(gputile_pool_alloc(&x, 3 * MiB, 0)); /* newest first: c */
    OK_ALLOC(gputile_pool_alloc(&y, 3 * MiB, 0));
    cr_assert_eq(x, c);
    cr_assert_eq(y, b);
    OK(gputile_pool_free(x));
    OK(gputile_pool_free(y));
    OK(gputile_pool_set_limit(4 * MiB)); /* a lower limit evicts at once */
    st = pool_stats();
    cr_assert_eq(st.cached_blocks, 1);
    OK(gputile_pool_release());
    st = pool_stats();
    cr_assert_eq(st.cached_blocks, 0);
    cr_assert_eq(st.cached_bytes, 0);
    cr_assert_eq(st.limit, 4 * MiB);
    OK(gputile_pool_set_limit(0)); /* caches nothing */
    OK_ALLOC(gputile_pool_alloc(&x, 4096, 0));
    OK(gputile_pool_free(x));
    st = pool_stats();
    cr_assert_eq(st.cached_blocks, 0);
    OK(gputile_pool_set_limit(GPUTILE_POOL_DEFAULT_LIMIT));
}

/* ---- copies -------------------------------------------------------------- */

#define GUARD 4096

/* Host memory of the kind under test with GUARD bytes on each side. */
typedef enum { PAGEABLE, PINNED, POOLED, REGISTERED } host_kind;
static const char *const kind_name[] = {"pageable", "pinned", "pooled", "registered"};

static unsigned char *host_buffer(host_kind kind, size_t n)
{
    void *p = NULL;
    size_t total = n + 2 * GUARD;
    switch (kind) {
    case PAGEABLE:
        p = malloc(total);
        break;
    case PINNED:
        OK_ALLOC(gputile_pinned_alloc(&p, total, 0));
        break;
    case POOLED:
        OK_ALLOC(gputile_pool_alloc(&p, total, 0));
        break;
    case REGISTERED: { /* pages of its own: registrations sharing a page are refused */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        p = aligned_alloc(page, (total + page - 1) / page * page);
        cr_assert_not_null(p);
        OK(gputile_pinned_register(p, total, 0));
        break;
    }
    }
    cr_assert_not_null(p);
    return p;
}

static void host_buffer_free(host_kind kind, unsigned char *p)
{
    switch (kind) {
    case PAGEABLE:
        free(p);
        break;
    case PINNED:
        OK(gputile_pinned_free(p));
        break;
    case POOLED:
        OK(gputile_pool_free(p));
        break;
    case REGISTERED:
        OK(gputile_pinned_unregister(p));
        free(p);
        break;
    }
}

/* host -> device -> host of n bytes, each destination with poisoned guard
 * bands, checked byte for byte; the host source is overwritten right after
 * the call returns (pageable semantics: reusable on return). */
static void copy_both_ways(host_kind kind, size_t n, cudaStream_t stream)
{
    unsigned char *src = host_buffer(kind, n), *dst = host_buffer(kind, n);
    unsigned char *want = malloc(n + 1), *dev, *back = malloc(n + 2 * GUARD);
    cr_assert(want && back);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, n + 2 * GUARD));
    GPUTEST_CUDA(cudaMemset(dev, 0xa5, n + 2 * GUARD));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    gputest_fill_random_bytes(want, n);
    memcpy(src + GUARD, want, n);

    OK(gputile_copy(dev + GUARD, src + GUARD, n, stream));
    if (kind != PAGEABLE) /* pinned: asynchronous */
        GPUTEST_CUDA(cudaStreamSynchronize(stream));
    memset(src + GUARD, 0x11, n); /* the source may be reused now */

    memset(dst, 0x5c, n + 2 * GUARD);
    OK(gputile_copy(dst + GUARD, dev + GUARD, n, stream));
    if (kind != PAGEABLE)
        GPUTEST_CUDA(cudaStreamSynchronize(stream));
    size_t at = gputest_first_diff(dst + GUARD, want, n);
    cr_assert_eq(at, n, "%s, %zu bytes: byte %zu differs after the round trip", kind_name[kind], n,
                 at);
    cr_assert_eq(gputest_count_not(dst, GUARD, 0x5c), 0, "%s, %zu bytes: host guard before written",
                 kind_name[kind], n);
    cr_assert_eq(gputest_count_not(dst + GUARD + n, GUARD, 0x5c), 0,
                 "%s, %zu bytes: host guard after written", kind_name[kind], n);

    GPUTEST_CUDA(cudaMemcpy(back, dev, n + 2 * GUARD, cudaMemcpyDeviceToHost));
    cr_assert_eq(gputest_count_not(back, GUARD, 0xa5), 0,
                 "%s, %zu bytes: device guard before written", kind_name[kind], n);
    cr_assert_eq(gputest_count_not(back + GUARD + n, GUARD, 0xa5), 0,
                 "%s, %zu bytes: device guard after written", kind_name[kind], n);
    cr_assert_eq(gputest_first_diff(back + GUARD, want, n), n);

    GPUTEST_CUDA(cudaFree(dev));
    host_buffer_free(kind, src);
    host_buffer_free(kind, dst);
    free(want);
    free(back);
}

static const size_t copy_sizes[] = {
    0,
    1,
    3,
    4095,
    4097,
    65537,
    (1 << 20) + 3, /* below the staging threshold */
    (4 << 20) - 1,
    4 << 20,            /* either side of it */
    (5 << 20) + 17,     /* a few chunks of a quarter each */
    16 << 20,           /* one full chunk per buffer */
    (48 << 20) + 12345, /* three chunks and an odd tail */
    (100 << 20) + 3,    /* many chunks, beyond the ring, odd */
};

Test(pinned, copies_of_every_size_both_ways, .init = gputest_require_device, .timeout = 480)
{
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int kind = PAGEABLE; kind <= REGISTERED; ++kind)
        for (size_t i = 0; i < sizeof copy_sizes / sizeof copy_sizes[0]; ++i)
            copy_both_ways((host_kind)kind, copy_sizes[i], i % 2 ? stream : NULL);
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.in_use_blocks, 0, "staging buffers leaked");
}

Test(pinned, copies_larger_than_the_pool_limit, .init = gputest_require_device, .timeout = 300)
{
    OK(gputile_pool_release());
    OK(gputile_pool_set_limit(MiB)); /* staging buffers (16 MiB) cannot stay cached */
    copy_both_ways(PAGEABLE, (64 << 20) + 7, NULL);
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.in_use_blocks, 0);
    cr_assert_leq(st.cached_bytes, MiB);
    OK(gputile_pool_set_limit(GPUTILE_POOL_DEFAULT_LIMIT));
}

Test(pinned, copies_in_small_chunks, .init = gputest_require_device, .timeout = 300)
{
    /* Many chunks through the ring, chunk not dividing the size (the sizes
     * are below the staging crossover: force the ring). */
    gputile__copy_force(2);
    gputile__stage_set_chunk_cap(65536 + 4096);
    copy_both_ways(PAGEABLE, (5 << 20) + 17, NULL);
    copy_both_ways(PAGEABLE, (7 << 20) + 65536 * 3, NULL);
    gputile__stage_set_chunk_cap(0);
    /* the knobs the benchmark sweeps, and their extremes: the caller alone
     * (it packs every chunk), one slot (each chunk waits for the last DMA),
     * more threads than chunks */
    gputile__stage_tune((size_t)3 << 20, 2, 1);
    copy_both_ways(PAGEABLE, (13 << 20) + 5, NULL);
    gputile__stage_tune((size_t)1 << 20, 1, 4);
    copy_both_ways(PAGEABLE, (13 << 20) + 5, NULL);
    gputile__stage_tune((size_t)1 << 20, 8, 16);
    copy_both_ways(PAGEABLE, (13 << 20) + 5, NULL);
    gputile__stage_tune((size_t)4 << 20, 64, 16);
    copy_both_ways(PAGEABLE, (5 << 20) + 3, NULL);
    gputile__stage_tune(0, 0, 0);
    gputile__copy_force(-1);
}

Test(pinned, copy_orders_after_earlier_work, .init = gputest_require_device, .timeout = 180)
{
    /* A pageable upload queued behind a memset on the same stream must land
     * after it; a download behind a kernel must see the kernel's bytes. */
    const size_t n = (20 << 20) + 1;
    unsigned char *h = malloc(n), *d, *back = malloc(n);
    cr_assert(h && back);
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPUTEST_CUDA(gputest_malloc((void **)&d, n));
    gputest_fill_random_bytes(h, n);
    GPUTEST_CUDA(cudaMemsetAsync(d, 0, n, stream));
    OK(gputile_copy(d, h, n, stream));
    GPUTEST_CUDA_RETRY(gputest_mapped_update_ready());
    GPUTEST_CUDA(gputest_mapped_update(d, n, stream)); /* any kernel on device memory */
    OK(gputile_copy(back, d, n, stream));
    for (size_t i = 0; i < n; ++i)
        cr_assert_eq(back[i], (unsigned char)(3u * h[i] + 1u), "byte %zu", i);
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    GPUTEST_CUDA(cudaFree(d));
    free(h);
    free(back);
}

Test(pinned, copy_device_to_device_and_host_to_host, .init = gputest_require_device)
{
    unsigned char *d1, *d2, h[64], h2[64];
    GPUTEST_CUDA(gputest_malloc((void **)&d1, 1000));
    GPUTEST_CUDA(gputest_malloc((void **)&d2, 1000));
    gputest_fill_random_bytes(h, sizeof h);
    OK(gputile_copy(d1, h, sizeof h, NULL));
    OK(gputile_copy(d2 + 1, d1, sizeof h, NULL));
    OK(gputile_copy(h2, d2 + 1, sizeof h, NULL));
    cr_assert_eq(memcmp(h, h2, sizeof h), 0);
    EXPECT(gputile_copy(d1 + 1, d1, 10, NULL), GPUTILE_ERROR_ALIASING);
    EXPECT(gputile_copy(h2, h, sizeof h, NULL), GPUTILE_ERROR_INVALID_VALUE);
    GPUTEST_CUDA(cudaFree(d1));
    GPUTEST_CUDA(cudaFree(d2));
}

/* ---- 8 threads at once ---------------------------------------------------- */

typedef struct worker {
    int id;
    uint64_t seed;
    int failures;
    char what[200];
} worker;

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void fail(worker *w, const char *what, size_t n, size_t at)
{
    if (w->failures++ == 0)
        snprintf(w->what, sizeof w->what, "thread %d: %s (%zu bytes, at %zu)", w->id, what, n, at);
}

/* The double free below is checked while no other thread can allocate:
 * between a free and its repeat, another thread's gputile_pinned_alloc()
 * may be handed the same address, and the repeat then frees that thread's
 * block (a valid call). Seen under racecheck, whose slowdown widens the
 * window: "double free accepted" in one thread, a failed copy or a crash
 * in the thread whose block went away. */
static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker_main(void *arg)
{
    worker *w = arg;
    cudaStream_t stream;
    if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
        fail(w, "cudaStreamCreate", 0, 0);
        return NULL;
    }
    for (int iter = 0; iter < 12 && w->failures == 0; ++iter) {
        uint64_t r = next(&w->seed);
        size_t n =
            (r % 3 == 0) ? (size_t)(r >> 8) % (24 << 20) + (4 << 20) : (size_t)(r >> 8) % 70000 + 1;
        /* write-combined memory is not read back here: host reads of it crawl */
        unsigned flags = (unsigned)(r >> 40) % 8 & ~GPUTILE_PINNED_WRITE_COMBINED;
        unsigned char *pin = NULL, *pool = NULL, *page = malloc(n), *back = malloc(n), *dev = NULL;
        if (page == NULL || back == NULL || cudaMalloc((void **)&dev, n) != cudaSuccess) {
            fail(w, "malloc/cudaMalloc", n, 0);
            free(page), free(back);
            break;
        }
        pthread_mutex_lock(&pinned_lock);
        const gputile_status pinned = gputile_pinned_alloc((void **)&pin, n, flags);
        pthread_mutex_unlock(&pinned_lock);
        if (pinned != GPUTILE_SUCCESS ||
            gputile_pool_alloc((void **)&pool, n, flags) != GPUTILE_SUCCESS)
            fail(w, "allocation", n, 0);
        uint64_t s = w->seed;
        for (size_t i = 0; i < n; ++i)
            page[i] = (unsigned char)(next(&s) >> 24);
        /* pageable -> device -> pooled pinned -> device -> pageable */
        size_t at;
        if (w->failures == 0 && gputile_copy(dev, page, n, stream) != GPUTILE_SUCCESS)
            fail(w, "copy page->dev", n, 0);
        if (w->failures == 0 && (gputile_copy(pool, dev, n, stream) != GPUTILE_SUCCESS ||
                                 cudaStreamSynchronize(stream) != cudaSuccess))
            fail(w, "copy dev->pool", n, 0);
        if (w->failures == 0 && (at = gputest_first_diff(pool, page, n)) != n)
            fail(w, "pooled bytes differ", n, at);
        if (w->failures == 0 && cudaMemsetAsync(dev, 0, n, stream) != cudaSuccess)
            fail(w, "memset", n, 0);
        if (w->failures == 0 && gputile_copy(dev, pool, n, stream) != GPUTILE_SUCCESS)
            fail(w, "copy pool->dev", n, 0);
        if (w->failures == 0 && gputile_copy(back, dev, n, stream) != GPUTILE_SUCCESS)
            fail(w, "copy dev->page", n, 0);
        if (w->failures == 0 && (at = gputest_first_diff(back, page, n)) != n)
            fail(w, "pageable bytes differ", n, at);
        if (w->failures == 0 && (gputile_copy(pin, dev, n, stream) != GPUTILE_SUCCESS ||
                                 cudaStreamSynchronize(stream) != cudaSuccess))
            fail(w, "copy dev->pinned", n, 0);
        if (w->failures == 0 && (at = gputest_first_diff(pin, page, n)) != n)
            fail(w, "pinned bytes differ", n, at);
        pthread_mutex_lock(&pinned_lock);
        if (gputile_pinned_free(pin) != GPUTILE_SUCCESS && pin != NULL)
            fail(w, "pinned free", n, 0);
        if (pin != NULL && gputile_pinned_free(pin) != GPUTILE_ERROR_UNKNOWN_POINTER)
            fail(w, "double free accepted", n, 0);
        pthread_mutex_unlock(&pinned_lock);
        if (gputile_pool_free(pool) != GPUTILE_SUCCESS && pool != NULL)
            fail(w, "pool free", n, 0);
        cudaFree(dev);
        free(page);
        free(back);
    }
    cudaStreamDestroy(stream);
    return NULL;
}

Test(pinned, eight_threads_at_once, .init = gputest_require_device, .timeout = 480)
{
    enum { THREADS = 8 };
    pthread_t t[THREADS];
    worker w[THREADS];
    OK(gputile_pool_set_limit(64 * MiB)); /* evictions happen while others allocate */
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){.id = i, .seed = gputest_rand() | 1, .failures = 0};
        cr_assert_eq(pthread_create(&t[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; ++i)
        cr_expect_eq(w[i].failures, 0, "%s", w[i].what);
    gputile_pool_stats st = pool_stats();
    cr_assert_eq(st.in_use_blocks, 0, "the pool is consistent: nothing in use");
    cr_assert_eq(st.in_use_bytes, 0);
    cr_assert_leq(st.cached_bytes, 64 * MiB);
    OK(gputile_pool_release());
    OK(gputile_pool_set_limit(GPUTILE_POOL_DEFAULT_LIMIT));
}

/* ---- GEMM on host matrices ----------------------------------------------- */

typedef enum { MEM_PAGEABLE, MEM_PINNED, MEM_DEVICE } mem;
static const char *const mem_name[] = {"pageable", "pinned", "device"};

/* A parent of (w + 2 pad) x (h + 2) with the view at (1, pad) */
typedef struct held {
    mem where;
    float *parent;
    size_t pw, ph;
    gputile_matrix view;
} held;

static held make(mem where, size_t w, size_t h, size_t pad)
{
    held x = {.where = where, .pw = w + 2 * pad + 3, .ph = h + 2};
    size_t bytes = x.pw * x.ph * sizeof(float);
    float *host = malloc(bytes);
    cr_assert_not_null(host);
    for (size_t i = 0; i < x.pw * x.ph; ++i)
        host[i] = gputest_small_int(-4, 4);
    switch (where) {
    case MEM_PAGEABLE:
        x.parent = host;
        host = NULL;
        break;
    case MEM_PINNED:
        OK_ALLOC(gputile_pinned_alloc((void **)&x.parent, bytes, 0));
        memcpy(x.parent, host, bytes);
        break;
    case MEM_DEVICE:
        GPUTEST_CUDA(gputest_malloc((void **)&x.parent, bytes));
        GPUTEST_CUDA(cudaMemcpy(x.parent, host, bytes, cudaMemcpyHostToDevice));
        break;
    }
    free(host);
    x.view = gputile_get_submatrix(gputile_matrix_view(x.parent, x.pw, x.ph, x.pw), 1, pad, w, h);
    return x;
}

/* The parent's contents, on the host. */
static float *contents(const held *x)
{
    size_t bytes = x->pw * x->ph * sizeof(float);
    float *h = malloc(bytes);
    cr_assert_not_null(h);
    GPUTEST_CUDA(cudaMemcpy(h, x->parent, bytes, cudaMemcpyDefault));
    return h;
}

static void drop(held *x)
{
    if (x->where == MEM_PAGEABLE)
        free(x->parent);
    else if (x->where == MEM_PINNED)
        OK(gputile_pinned_free(x->parent));
    else
        GPUTEST_CUDA(cudaFree(x->parent));
}

/* A compact device copy of a view. */
static gputile_matrix on_device(gputile_matrix v)
{
    gputile_matrix d = gputile_matrix_view(NULL, v.width, v.height, v.width);
    GPUTEST_CUDA(gputest_malloc((void **)&d.elements, v.width * v.height * sizeof(float)));
    GPUTEST_CUDA(cudaMemcpy2D(d.elements, v.width * sizeof(float), v.elements,
                              v.stride * sizeof(float), v.width * sizeof(float), v.height,
                              cudaMemcpyDefault));
    return d;
}

static void gemm_case(size_t m, size_t n, size_t k, gputile_op ta, gputile_op tb, float alpha,
                      float beta, mem ma, mem mb, mem mc)
{
    size_t aw = ta ? m : k, ah = ta ? k : m, bw = tb ? k : n, bh = tb ? n : k;
    held A = make(ma, aw, ah, 2), B = make(mb, bw, bh, 1), C = make(mc, n, m, 3);
    if (beta == 0) { /* poison C wholly: beta = 0 must never read it */
        size_t bytes = C.pw * C.ph * sizeof(float);
        float *p = malloc(bytes);
        cr_assert_not_null(p);
        for (size_t i = 0; i < C.pw * C.ph; ++i)
            p[i] = gputest_poison();
        GPUTEST_CUDA(cudaMemcpy(C.parent, p, bytes, cudaMemcpyDefault));
        free(p);
    }
    float *c_before = contents(&C);

    /* cuBLAS on compact device copies of the same views; k = 0 (C = beta C,
     * which cuBLAS cannot take with lda = 0) on the CPU */
    float *want = malloc(n * m * sizeof(float));
    cr_assert_not_null(want);
    gputile_matrix dA = {0}, dB = {0}, dC = {0};
    if (k == 0) {
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j)
                want[i * n + j] = beta * c_before[(i + 1) * C.pw + j + 3];
    } else {
        dA = on_device(A.view), dB = on_device(B.view), dC = on_device(C.view);
        if (beta == 0)
            GPUTEST_CUDA(cudaMemset(dC.elements, 0, n * m * sizeof(float)));
        gputest_cublas_gemm(ta, tb, alpha, dA, dB, beta, dC);
        GPUTEST_CUDA(cudaMemcpy(want, dC.elements, n * m * sizeof(float), cudaMemcpyDeviceToHost));
    }

    gputile_gemm_options o = GPUTILE_GEMM_OPTIONS_INIT;
    /* C restored before a retry */
    OK_ALLOC_REDO(GPUTEST_CUDA(cudaMemcpy(C.parent, c_before, C.pw * C.ph * sizeof(float),
                                          cudaMemcpyDefault)),
                  gputile_gemm(ta, tb, alpha, A.view, B.view, beta, C.view, NULL, &o));
    if (mc == MEM_DEVICE)
        GPUTEST_CUDA(cudaDeviceSynchronize());
    float *got = contents(&C);
    for (size_t r = 0; r < C.ph; ++r)
        for (size_t col = 0; col < C.pw; ++col) {
            size_t i = r * C.pw + col;
            bool in = r >= 1 && r < 1 + m && col >= 3 && col < 3 + n;
            if (in)
                cr_assert_eq(got[i], want[(r - 1) * n + (col - 3)],
                             "%zux%zux%zu %c%c A %s B %s C %s: C(%zu, %zu) = %g, cuBLAS %g", m, n,
                             k, ta ? 'T' : 'N', tb ? 'T' : 'N', mem_name[ma], mem_name[mb],
                             mem_name[mc], r - 1, col - 3, got[i], want[(r - 1) * n + (col - 3)]);
            else
                cr_assert(memcmp(&got[i], &c_before[i], sizeof(float)) == 0,
                          "%zux%zux%zu: guard of C written at (%zu, %zu)", m, n, k, r, col);
        }
    /* inputs untouched */
    if (k == 0)
        goto done;
    float *a_after = contents(&A);
    gputile_matrix av =
        gputile_get_submatrix(gputile_matrix_view(a_after, A.pw, A.ph, A.pw), 1, 2, aw, ah);
    float *a_dev = malloc(aw * ah * sizeof(float));
    GPUTEST_CUDA(cudaMemcpy(a_dev, dA.elements, aw * ah * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < ah; ++r)
        for (size_t col = 0; col < aw; ++col)
            cr_assert_eq(gputile_get_element(av, r, col), a_dev[r * aw + col], "A written");
    free(a_dev);
    free(a_after);
    GPUTEST_CUDA(cudaFree(dA.elements));
    GPUTEST_CUDA(cudaFree(dB.elements));
    GPUTEST_CUDA(cudaFree(dC.elements));
done:
    free(got);
    free(want);
    free(c_before);
    drop(&A);
    drop(&B);
    drop(&C);
}

Test(pinned, host_gemm_against_cublas_small_tiles, .init = gputest_require_device, .timeout = 480)
{
    /* Tiles of 32 and chunks of 4 KiB: many tiles, many chunks, rows split
     * across chunks (row widths above 4 KiB), every transpose.
     * Panels along k of 64 at least: the first tiles of a row or column
     * multiply their blocks in up to 4 panels (k 301: 128, 128, 45; 1030:
     * 320 x 3, 70), the others whole.
     * GPUTEST_SMALL (compute-sanitizer, where each of the thousands of
     * launches is slow): tiles of 64 and transposes NN and TT only; every
     * kernel and copy path still runs. */
    const bool small = gputest_small();
    gputile__gemm_host_set_tile(small ? 64 : 32);
    gputile__gemm_host_set_panel(64);
    gputile__stage_set_chunk_cap(4096);
    const struct {
        size_t m, n, k;
    } shapes[] = {{123, 77, 301}, {1, 1, 1}, {33, 1100, 5}, {250, 31, 1030}, {64, 64, 0}};
    const mem combos[][3] = {
        {MEM_PAGEABLE, MEM_PAGEABLE, MEM_PAGEABLE}, {MEM_PINNED, MEM_PINNED, MEM_PINNED},
        {MEM_PINNED, MEM_PAGEABLE, MEM_PAGEABLE},   {MEM_PAGEABLE, MEM_PINNED, MEM_PINNED},
        {MEM_DEVICE, MEM_PAGEABLE, MEM_PAGEABLE},   {MEM_PAGEABLE, MEM_DEVICE, MEM_PINNED},
        {MEM_PAGEABLE, MEM_PAGEABLE, MEM_DEVICE},   {MEM_DEVICE, MEM_DEVICE, MEM_PAGEABLE},
    };
    /* Small products go through one bounce buffer (packed: into the
     * device buffer beside it up to 256 KiB); then again (NN and TT) with
     * everything up to 16 MiB packed (larger ones into a workspace), and
     * with packing off (each operand copied on its own). */
    static const size_t packing[] = {0, (size_t)16 << 20, 1};
    for (int p = 0; p < 3; ++p) {
        gputile__gemm_host_set_packed(packing[p]);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
            for (size_t c = 0; c < sizeof combos / sizeof combos[0]; ++c)
                for (int t = 0; t < 4; t += small || p > 0 ? 3 : 1) {
                    float alpha = (t & 1) ? 2.0f : 1.0f,
                          beta = (c % 3 == 1) ? -1.0f : (t == 3 ? 3.0f : 0.0f);
                    if (shapes[s].k == 0)
                        beta = 2.0f;
                    gemm_case(shapes[s].m, shapes[s].n, shapes[s].k, (gputile_op)(t & 1),
                              (gputile_op)(t >> 1), alpha, beta, combos[c][0], combos[c][1],
                              combos[c][2]);
                }
    }
    gputile__gemm_host_set_packed(0);
    gputile__gemm_host_set_tile(0);
    gputile__gemm_host_set_panel(0);
    gputile__stage_set_chunk_cap(0);
}

Test(pinned, host_gemm_against_cublas_default_tiles, .init = gputest_require_device, .timeout = 480)
{
    /* Past one default tile (2048) both ways: 3 x 2 tiles, pageable and pinned.
     * GPUTEST_SMALL: the same tile counts and remainders with tiles of 256. */
    size_t t = 2048;
    if (gputest_small()) {
        t = 256;
        gputile__gemm_host_set_tile(t);
    }
    gemm_case(2 * t + 4, t + 1, 64, GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, 0.0f, MEM_PAGEABLE,
              MEM_PAGEABLE, MEM_PAGEABLE);
    gemm_case(t + 1, 2 * t + 4, 48, GPUTILE_OP_T, GPUTILE_OP_N, 2.0f, -1.0f, MEM_PINNED,
              MEM_PAGEABLE, MEM_PINNED);
    gemm_case(t + 52, t + 52, 33, GPUTILE_OP_N, GPUTILE_OP_T, 1.0f, 1.0f, MEM_PAGEABLE, MEM_PINNED,
              MEM_PAGEABLE);
    gputile__gemm_host_set_tile(0);
}

Test(pinned, host_matmul_random_floats, .init = gputest_require_device, .timeout = 300)
{
    /* gputile_matmul on pageable host views of random floats: within FP32
     * rounding of cuBLAS (different summation orders). */
    const size_t m = gputest_shrink(1000, 256, 64), n = gputest_shrink(900, 256, 64),
                 k = gputest_shrink(700, 128, 32);
    float *a = malloc(m * (k + 5) * sizeof(float)), *b = malloc(k * n * sizeof(float));
    float *c = malloc(m * n * sizeof(float));
    cr_assert(a && b && c);
    for (size_t i = 0; i < m * (k + 5); ++i)
        a[i] = gputest_uniform(-1, 1);
    for (size_t i = 0; i < k * n; ++i)
        b[i] = gputest_uniform(-1, 1);
    gputile_matrix A = gputile_matrix_view(a + 2, k, m, k + 5), B = gputile_matrix_view(b, n, k, n);
    gputile_matrix C = gputile_matrix_view(c, n, m, n);
    gputile_matrix dA = on_device(A), dB = on_device(B), dC = on_device(C);
    gputest_cublas_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, dA, dB, 0.0f, dC);
    float *want = malloc(m * n * sizeof(float));
    GPUTEST_CUDA(cudaMemcpy(want, dC.elements, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    gputile__gemm_host_set_tile(300);
    gputile__gemm_host_set_panel(k / 4); /* 4 panels along k */
    OK(gputile_matmul(A, B, C));
    gputile__gemm_host_set_tile(0);
    gputile__gemm_host_set_panel(0);
    for (size_t i = 0; i < m * n; ++i)
        cr_assert(fabsf(c[i] - want[i]) <= 2e-6f * k, "C[%zu] = %g, cuBLAS %g", i, c[i], want[i]);
    GPUTEST_CUDA(cudaFree(dA.elements));
    GPUTEST_CUDA(cudaFree(dB.elements));
    GPUTEST_CUDA(cudaFree(dC.elements));
    free(a), free(b), free(c), free(want);
}
