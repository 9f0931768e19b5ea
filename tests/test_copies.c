/* SPDX-License-Identifier: MIT */
/*
 * test_copies.c (GPU): gputile_copy's methods for pageable memory (issue
 * 21): sizes at each crossover of the device's policy row, one byte either
 * side, both directions, every byte and guard band checked; each method
 * forced across its own boundaries (bounce pieces, the bounce buffer's
 * size, the staging ring); back-to-back host->device copies that return
 * before their DMA ends; the registration cache (semantics, errors, copies
 * that reach past a cached range); the short path on every pair of memory
 * kinds, whichever side it asks first; and copies racing registrations and
 * gputile_pinned_unregister() of unrelated buffers in another thread.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, sysconf */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "gputile.h"
#include "support/gpu.h"
#include "support/expect.h"

/* libgputile internals that tests may turn (lib/copy_policy.h): methods
 * DIRECT 0, BOUNCE 1, STAGED 2; directions host->device 0, device->host 1. */
void gputile__copy_force(int method);
gputile_status gputile__copy_crossovers(int dir, size_t *bounce_from, size_t *staged_from);
enum { DIRECT, BOUNCE, STAGED };
enum { H2D, D2H };
static const char *const method_name[] = {"direct", "bounce", "staged"};

static const size_t KiB = (size_t)1 << 10, MiB = (size_t)1 << 20;
#define GUARD 4096

/* Pageable host -> device -> pageable host of n bytes with poisoned guard
 * bands on every destination; the source is overwritten as soon as the
 * upload returns (it may be reused then), the download's destination is
 * read as soon as it returns (it holds the data then). */
static void round_trip(size_t n, cudaStream_t stream, const char *what)
{
    unsigned char *src = malloc(n + 2 * GUARD), *dst = malloc(n + 2 * GUARD);
    unsigned char *want = malloc(n + 1), *back = malloc(n + 2 * GUARD), *dev;
    cr_assert(src && dst && want && back);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, n + 2 * GUARD));
    GPUTEST_CUDA(cudaMemset(dev, 0xa5, n + 2 * GUARD));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    gputest_fill_random_bytes(want, n);
    memcpy(src + GUARD, want, n);

    OK(gputile_copy(dev + GUARD, src + GUARD, n, stream));
    memset(src + GUARD, 0x11, n);
    memset(dst, 0x5c, n + 2 * GUARD);
    OK(gputile_copy(dst + GUARD, dev + GUARD, n, stream)); /* after the upload, in stream order */
    size_t at = gputest_first_diff(dst + GUARD, want, n);
    cr_assert_eq(at, n, "%s, %zu bytes: byte %zu differs after the round trip", what, n, at);
    cr_assert_eq(gputest_count_not(dst, GUARD, 0x5c), 0, "%s, %zu bytes: host guard before written",
                 what, n);
    cr_assert_eq(gputest_count_not(dst + GUARD + n, GUARD, 0x5c), 0,
                 "%s, %zu bytes: host guard after written", what, n);

    GPUTEST_CUDA(cudaMemcpy(back, dev, n + 2 * GUARD, cudaMemcpyDeviceToHost));
    cr_assert_eq(gputest_count_not(back, GUARD, 0xa5), 0,
                 "%s, %zu bytes: device guard before written", what, n);
    cr_assert_eq(gputest_count_not(back + GUARD + n, GUARD, 0xa5), 0,
                 "%s, %zu bytes: device guard after written", what, n);
    cr_assert_eq(gputest_first_diff(back + GUARD, want, n), n, "%s, %zu bytes: device bytes", what,
                 n);

    GPUTEST_CUDA(cudaFree(dev));
    free(src);
    free(dst);
    free(want);
    free(back);
}

static gputile_pool_stats pool_stats(void)
{
    gputile_pool_stats st = GPUTILE_POOL_STATS_INIT;
    OK(gputile_pool_get_stats(&st));
    return st;
}

/* ---- the crossovers ---------------------------------------------------------- */

Test(copies, sizes_around_each_crossover, .init = gputest_require_device, .timeout = 240)
{
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int dir = H2D; dir <= D2H; ++dir) {
        size_t bounce_from, staged_from;
        OK(gputile__copy_crossovers(dir, &bounce_from, &staged_from));
        cr_assert(bounce_from > 1 && staged_from > bounce_from, "policy row out of order");
        const size_t at[] = {bounce_from, staged_from};
        for (int c = 0; c < 2; ++c)
            for (size_t n = at[c] - 1; n <= at[c] + 1; ++n)
                round_trip(n, n % 2 ? stream : NULL,
                           dir == H2D ? "crossover (h2d row)" : "crossover (d2h row)");
    }
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    cr_assert_eq(pool_stats().in_use_blocks, 0, "staging buffers leaked");
}

Test(copies, each_method_across_its_boundaries, .init = gputest_require_device, .timeout = 300)
{
    /* 1 byte; odd pages; one bounce piece and two, three, four (pieces of
     * 1 MiB); the bounce buffer's size and one byte past it (staged
     * instead); a copy of several slots in each direction, uneven. */
    static const size_t sizes[] = {
        1,           4095,           65537,    MiB - 1,        2 * MiB + 5,       3 * MiB + 4097,
        4 * MiB - 1, (16 << 20) - 1, 16 << 20, (16 << 20) + 1, (37 << 20) + 12345};
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (int m = DIRECT; m <= STAGED; ++m) {
        gputile__copy_force(m);
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
            round_trip(sizes[i], i % 2 ? stream : NULL, method_name[m]);
    }
    gputile__copy_force(-1);
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    cr_assert_eq(pool_stats().in_use_blocks, 0, "staging buffers leaked");
}

Test(copies, uploads_back_to_back_reuse_the_bounce_buffers, .init = gputest_require_device,
     .timeout = 120)
{
    /* Host->device bounce copies return before their DMAs end: twelve in a
     * row (three times the buffers per device), each source overwritten at
     * once, must all land intact. */
    enum { COPIES = 12 };
    const size_t n = 3 * MiB + 777;
    unsigned char *src = malloc(n), *want = malloc(COPIES * n), *back = malloc(COPIES * n), *dev;
    cr_assert(src && want && back);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, COPIES * n));
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    gputest_fill_random_bytes(want, COPIES * n);
    gputile__copy_force(BOUNCE);
    for (int i = 0; i < COPIES; ++i) {
        memcpy(src, want + i * n, n);
        OK(gputile_copy(dev + i * n, src, n, stream));
    }
    gputile__copy_force(-1);
    GPUTEST_CUDA(cudaStreamSynchronize(stream));
    GPUTEST_CUDA(cudaMemcpy(back, dev, COPIES * n, cudaMemcpyDeviceToHost));
    size_t at = gputest_first_diff(back, want, COPIES * n);
    cr_assert_eq(at, COPIES * n, "byte %zu (copy %zu) differs", at, at / n);
    GPUTEST_CUDA(cudaStreamDestroy(stream));
    GPUTEST_CUDA(cudaFree(dev));
    free(src);
    free(want);
    free(back);
}

Test(copies, a_pending_error_of_the_callers_survives, .init = gputest_require_device,
     .timeout = 120)
{
    /* The caller's own failed call leaves a (non-sticky) error pending;
     * bounce and staged copies, whose slot searches ask events (a pending
     * event's cudaErrorNotReady would replace it), must leave it for the
     * caller's cudaGetLastError(). */
    const size_t n = 3 * MiB + 5;
    unsigned char *src = malloc(n), *dev;
    cr_assert_not_null(src);
    gputest_fill_random_bytes(src, n);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 2 * n));
    for (int m = BOUNCE; m <= STAGED; ++m) {
        cr_assert_neq(cudaMemcpy(dev, src, 1, (enum cudaMemcpyKind)99), cudaSuccess);
        gputile__copy_force(m);
        OK(gputile_copy(dev, src, n, NULL));
        OK(gputile_copy(dev + n, src, n, NULL)); /* the first one's slots may still be busy */
        OK(gputile_copy(src, dev, n, NULL));
        gputile__copy_force(-1);
        cr_assert_eq(cudaGetLastError(), cudaErrorInvalidMemcpyDirection,
                     "method %d: the caller's pending error was cleared", m);
    }
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(dev));
    free(src);
}

/* The two streams of the tests below: stream 1 held by a host function
 * (gputest_hold_stream, its watchdog lets go after 30 s), stream 2 free,
 * bounce copies forced. */
typedef struct held_pair {
    cudaStream_t s1, s2;
    gputest_hold hold;
} held_pair;

static void held_pair_start(held_pair *p)
{
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&p->s1, cudaStreamNonBlocking));
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&p->s2, cudaStreamNonBlocking));
    gputest_hold_stream(&p->hold, p->s1, 30);
    gputile__copy_force(BOUNCE);
}

/* Stream 2's copies complete while stream 1 is still held (nothing queued
 * on it has run, and the watchdog did not have to let it go); then stream
 * 1 is let go and drained, and both streams destroyed. */
static void held_pair_finish(held_pair *p)
{
    gputile__copy_force(-1);
    GPUTEST_CUDA(cudaStreamSynchronize(p->s2));
    cr_assert_eq(cudaStreamQuery(p->s1), cudaErrorNotReady, "stream 1 ran before it was let go");
    cr_assert(gputest_release(&p->hold), "the watchdog let stream 1 go");
    GPUTEST_CUDA(cudaStreamSynchronize(p->s1));
    GPUTEST_CUDA(cudaStreamDestroy(p->s1));
    GPUTEST_CUDA(cudaStreamDestroy(p->s2));
}

Test(copies, a_bounce_copy_never_waits_for_another_streams_work, .init = gputest_require_device,
     .timeout = 60)
{
    /* Stream 1 is held by a host function; a bounce upload queued behind
     * it leaves its buffer busy until the hold ends. An upload on stream 2
     * must not wait for that (a free buffer is pinned instead): before,
     * it took the busy one and waited, here until the watchdog let stream 1
     * go. */
    const size_t n = 3 * MiB + 9;
    unsigned char *src1 = malloc(n), *src2 = malloc(n), *back = malloc(n), *dev;
    cr_assert(src1 && src2 && back);
    gputest_fill_random_bytes(src1, n);
    gputest_fill_random_bytes(src2, n);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 2 * n));
    held_pair h;
    held_pair_start(&h);
    OK(gputile_copy(dev, src1, n, h.s1)); /* returns once queued: its DMA waits for the hold */
    OK(gputile_copy(dev + n, src2, n, h.s2));
    held_pair_finish(&h);
    GPUTEST_CUDA(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
    cr_assert_eq(gputest_first_diff(back, src1, n), n, "stream 1's upload");
    GPUTEST_CUDA(cudaMemcpy(back, dev + n, n, cudaMemcpyDeviceToHost));
    cr_assert_eq(gputest_first_diff(back, src2, n), n, "stream 2's upload");
    GPUTEST_CUDA(cudaFree(dev));
    free(src1);
    free(src2);
    free(back);
}

Test(copies, a_bounce_copy_never_waits_for_another_streams_work_once_every_buffer_is_pinned,
     .init = gputest_require_device, .timeout = 60)
{
    /* Stream 1 is held; one bounce upload per buffer (lib/copy_policy.h:
     * GPUTILE__BOUNCE_SLOTS, 4) is queued behind the hold, so every buffer
     * is pinned and busy. An upload and a download on stream 2 must still
     * not wait for stream 1 (they go direct): before, they took a busy
     * buffer and waited for its event, here until the watchdog let stream 1
     * go. */
    enum { SLOTS = 4 };
    const size_t n = 1 * MiB + 3;
    unsigned char *src[SLOTS + 1], *back = malloc(n), *down = malloc(n + 2 * GUARD), *dev, *other;
    cr_assert(back && down);
    for (int i = 0; i <= SLOTS; ++i) {
        cr_assert((src[i] = malloc(n)) != NULL);
        gputest_fill_random_bytes(src[i], n);
    }
    GPUTEST_CUDA(gputest_malloc((void **)&dev, (SLOTS + 1) * n));
    GPUTEST_CUDA(gputest_malloc((void **)&other, n));
    GPUTEST_CUDA(cudaMemcpy(other, src[0], n, cudaMemcpyHostToDevice));
    memset(down, 0xA5, n + 2 * GUARD);
    held_pair h;
    held_pair_start(&h);
    for (int i = 0; i < SLOTS; ++i) /* each returns once queued behind the hold */
        OK(gputile_copy(dev + (size_t)i * n, src[i], n, h.s1));
    OK(gputile_copy(dev + (size_t)SLOTS * n, src[SLOTS], n, h.s2));
    OK(gputile_copy(down + GUARD, other, n, h.s2)); /* complete on return */
    held_pair_finish(&h);
    for (int i = 0; i <= SLOTS; ++i) {
        GPUTEST_CUDA(cudaMemcpy(back, dev + (size_t)i * n, n, cudaMemcpyDeviceToHost));
        cr_assert_eq(gputest_first_diff(back, src[i], n), n, "upload %d (stream %d)", i,
                     i < SLOTS ? 1 : 2);
    }
    cr_assert_eq(gputest_first_diff(down + GUARD, src[0], n), n, "stream 2's download");
    for (size_t g = 0; g < GUARD; ++g)
        cr_assert(down[g] == 0xA5 && down[GUARD + n + g] == 0xA5, "guard byte %zu", g);
    GPUTEST_CUDA(cudaFree(dev));
    GPUTEST_CUDA(cudaFree(other));
    for (int i = 0; i <= SLOTS; ++i)
        free(src[i]);
    free(back);
    free(down);
}

Test(copies, pageable_copies_on_a_stream_of_another_device, .init = gputest_require_device,
     .timeout = 120)
{
    /* CUDA queues a copy on a stream of any device; the library's bounce
     * buffers and staging ring record events on that stream, which must
     * then belong to the stream's device, not the current one (before, the
     * event record failed from the bounce size up: GPUTILE_ERROR_CUDA, a
     * download left unwritten). The current device is left as it was. */
    int count = 0;
    GPUTEST_CUDA(cudaGetDeviceCount(&count));
    if (count < 2)
        cr_skip_test("one device: a stream of another device needs two");
    const size_t sizes[] = {200 * KiB + 1, 3 * MiB + 5, 40 * MiB + 7};
    const size_t most = 40 * MiB + 7;
    unsigned char *src = malloc(most), *back = malloc(most + 2 * GUARD), *dev;
    cr_assert(src && back);
    GPUTEST_CUDA(cudaSetDevice(1));
    cudaStream_t s;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GPUTEST_CUDA(gputest_malloc((void **)&dev, most));
    GPUTEST_CUDA(cudaSetDevice(0));
    for (int m = -1; m <= STAGED; ++m)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
            const size_t n = sizes[i];
            gputest_fill_random_bytes(src, n);
            memset(back, 0x5A, n + 2 * GUARD);
            gputile__copy_force(m);
            OK(gputile_copy(dev, src, n, s));
            OK(gputile_copy(back + GUARD, dev, n, s));
            gputile__copy_force(-1);
            GPUTEST_CUDA(cudaStreamSynchronize(s));
            int current = -1;
            GPUTEST_CUDA(cudaGetDevice(&current));
            cr_assert_eq(current, 0, "the current device changed (%s, %zu bytes)",
                         m < 0 ? "auto" : method_name[m], n);
            cr_assert_eq(gputest_first_diff(back + GUARD, src, n), n, "%s, %zu bytes",
                         m < 0 ? "auto" : method_name[m], n);
            for (size_t g = 0; g < GUARD; ++g)
                cr_assert(back[g] == 0x5A && back[GUARD + n + g] == 0x5A, "guard byte %zu", g);
        }
    GPUTEST_CUDA(cudaSetDevice(1));
    GPUTEST_CUDA(cudaStreamDestroy(s));
    GPUTEST_CUDA(cudaFree(dev));
    GPUTEST_CUDA(cudaSetDevice(0));
    free(src);
    free(back);
}

/* ---- the short path: every pair of kinds, either side asked first ------------------ */

enum { PAGE_A, PAGE_B, PINNED, MANAGED, DEV_A, DEV_B, KINDS };
static const char *const kind_name[] = {"pageable", "pageable", "pinned",
                                        "managed",  "device",   "device"};

static bool is_host_kind(int k)
{
    return k <= PINNED;
}

/* n bytes into or out of memory of any kind (the driver's own copies). */
static void put(int kind, void *dst, const unsigned char *src, size_t n)
{
    if (kind >= DEV_A)
        GPUTEST_CUDA(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice));
    else
        memcpy(dst, src, n);
}

static void get(int kind, unsigned char *dst, const void *src, size_t n)
{
    GPUTEST_CUDA(cudaDeviceSynchronize());
    if (kind >= DEV_A)
        GPUTEST_CUDA(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost));
    else
        memcpy(dst, src, n);
}

Test(copies, short_path_every_pair_after_either_direction, .init = gputest_require_device,
     .timeout = 120)
{
    /* The short path asks the driver about the side that was device
     * memory in the last copy first, and about the other only when the
     * first is host memory (lib/copy.c): a copy each way before every pair
     * puts either side first. Host to host is refused and writes nothing. */
    const size_t n = 4096 + 3;
    for (int dir = H2D; dir <= D2H; ++dir) {
        size_t bounce_from, staged_from;
        OK(gputile__copy_crossovers(dir, &bounce_from, &staged_from));
        cr_assert(n < bounce_from, "%zu bytes would not take the short path", n);
    }
    unsigned char *mem[KINDS], *want = malloc(n), *poison = malloc(n), *back = malloc(n);
    unsigned char *scratch_host = malloc(64), *scratch_dev;
    cr_assert(want && poison && back && scratch_host);
    mem[PAGE_A] = malloc(n), mem[PAGE_B] = malloc(n);
    cr_assert(mem[PAGE_A] && mem[PAGE_B]);
    OK(gputile_pinned_alloc((void **)&mem[PINNED], n, 0));
    GPUTEST_CUDA(cudaMallocManaged((void **)&mem[MANAGED], n, cudaMemAttachGlobal));
    GPUTEST_CUDA(gputest_malloc((void **)&mem[DEV_A], n));
    GPUTEST_CUDA(gputest_malloc((void **)&mem[DEV_B], n));
    GPUTEST_CUDA(gputest_malloc((void **)&scratch_dev, 64));
    memset(poison, 0x5c, n);
    memset(scratch_host, 1, 64);
    for (int prime = H2D; prime <= D2H; ++prime)
        for (int from = 0; from < KINDS; ++from)
            for (int to = 0; to < KINDS; ++to) {
                if (from == to)
                    continue;
                gputest_fill_random_bytes(want, n);
                put(from, mem[from], want, n);
                put(to, mem[to], poison, n);
                OK(prime == H2D ? gputile_copy(scratch_dev, scratch_host, 64, NULL)
                                : gputile_copy(scratch_host, scratch_dev, 64, NULL));
                const gputile_status st = gputile_copy(mem[to], mem[from], n, NULL);
                get(to, back, mem[to], n);
                if (is_host_kind(from) && is_host_kind(to)) {
                    cr_assert_eq(st, GPUTILE_ERROR_INVALID_VALUE, "%s to %s: %s", kind_name[from],
                                 kind_name[to], gputile_status_name(st));
                    cr_assert_eq(gputest_count_not(back, n, 0x5c), 0, "%s to %s: written",
                                 kind_name[from], kind_name[to]);
                } else {
                    cr_assert_eq(st, GPUTILE_SUCCESS, "%s to %s (after a %s copy): %s",
                                 kind_name[from], kind_name[to], prime == H2D ? "h2d" : "d2h",
                                 gputile_status_name(st));
                    const size_t at = gputest_first_diff(back, want, n);
                    cr_assert_eq(at, n, "%s to %s: byte %zu differs", kind_name[from],
                                 kind_name[to], at);
                }
            }
    OK(gputile_pinned_free(mem[PINNED]));
    GPUTEST_CUDA(cudaFree(mem[MANAGED]));
    GPUTEST_CUDA(cudaFree(mem[DEV_A]));
    GPUTEST_CUDA(cudaFree(mem[DEV_B]));
    GPUTEST_CUDA(cudaFree(scratch_dev));
    free(mem[PAGE_A]);
    free(mem[PAGE_B]);
    free(want);
    free(poison);
    free(back);
    free(scratch_host);
}

/* ---- the registration cache ---------------------------------------------------- */

static bool driver_says_pinned(const void *p)
{
    struct cudaPointerAttributes a;
    GPUTEST_CUDA(cudaPointerGetAttributes(&a, p));
    return a.type == cudaMemoryTypeHost;
}

Test(copies, cache_semantics_and_errors, .init = gputest_require_device, .timeout = 120)
{
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 8 * MiB + 123;
    unsigned char *mem = aligned_alloc(page, 16 * MiB), *buf = mem + 100; /* unaligned start */
    unsigned char *want = malloc(n), *dev;
    cr_assert(mem && want);
    GPUTEST_CUDA(gputest_malloc((void **)&dev, 16 * MiB));
    gputest_fill_random_bytes(want, n);
    memcpy(buf, want, n);

    OK(gputile_copy_cache(buf, n));
    cr_assert(driver_says_pinned(buf) && driver_says_pinned(buf + n - 1), "not registered");
    OK(gputile_copy_cache(buf, n));     /* again: a no-op */
    OK(gputile_copy_cache(buf, n / 2)); /* a smaller range at the same address: a no-op */
    EXPECT(gputile_copy_cache(buf, 10 * MiB), GPUTILE_ERROR_ALREADY_REGISTERED); /* larger */
    EXPECT(gputile_copy_cache(buf + 4096, 100), GPUTILE_ERROR_ALREADY_REGISTERED);
    EXPECT(gputile_pinned_register(buf + 8192, 100, 0), GPUTILE_ERROR_ALREADY_REGISTERED);
    EXPECT(gputile_pinned_unregister(buf), GPUTILE_ERROR_UNKNOWN_POINTER); /* not its kind */
    EXPECT(gputile_copy_uncache(buf + 1), GPUTILE_ERROR_UNKNOWN_POINTER);

    /* Copies of the cached buffer take no staging buffer and keep the
     * pageable contract: complete on return, both ways. */
    gputile_pool_stats before = pool_stats();
    cudaStream_t stream;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    OK(gputile_copy(dev, buf, n, stream));
    memset(buf, 0x33, n); /* after the return: must not reach the device */
    OK(gputile_copy(buf, dev, n, stream));
    cr_assert_eq(gputest_first_diff(buf, want, n), n, "cached round trip");
    gputile_pool_stats after = pool_stats();
    cr_assert_eq(after.hits + after.misses, before.hits + before.misses,
                 "a cached copy used staging buffers");

    /* A range that starts in the cached buffer and reaches past it is
     * pageable memory: staged, right either way. */
    unsigned char *tail = buf + n - 4096;
    memset(tail + 4096, 0x77, 3 * MiB);
    OK(gputile_copy(dev, tail, 3 * MiB + 4096, stream));
    memset(tail, 0, 3 * MiB + 4096);
    OK(gputile_copy(tail, dev, 3 * MiB + 4096, stream));
    cr_assert_eq(gputest_first_diff(tail, want + n - 4096, 4096), 4096,
                 "partial range: cached part");
    cr_assert_eq(gputest_count_not(tail + 4096, 3 * MiB, 0x77), 0, "partial range: pageable part");

    OK(gputile_copy_uncache(buf));
    EXPECT(gputile_copy_uncache(buf), GPUTILE_ERROR_UNKNOWN_POINTER);
    cr_assert(!driver_says_pinned(buf), "still registered after gputile_copy_uncache");
    memcpy(buf, want, n);
    round_trip(n, stream, "after uncache");
    OK(gputile_copy_cache(buf, n)); /* and again after the drop */
    OK(gputile_copy_uncache(buf));

    GPUTEST_CUDA(cudaStreamDestroy(stream));
    GPUTEST_CUDA(cudaFree(dev));
    free(mem);
    free(want);
    cr_assert_eq(pool_stats().in_use_blocks, 0);
}

/* ---- copies racing unrelated registrations ---------------------------------------- */

typedef struct racer {
    volatile int *stop;
    int id;
    size_t errors;
} racer;

/* Registers and unregisters 64 unrelated buffers, over and over: the pin
 * table grows, shrinks and moves under the copies. */
static void *churn(void *arg)
{
    racer *r = arg;
    enum { BUFS = 64 };
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *bufs[BUFS];
    for (int i = 0; i < BUFS; ++i)
        bufs[i] = aligned_alloc(page, 2 * page);
    while (!*r->stop) {
        for (int i = 0; i < BUFS; ++i)
            r->errors += bufs[i] == NULL || gputile_pinned_register(bufs[i], page, 0) != 0;
        for (int i = BUFS - 1; i >= 0; --i)
            r->errors += bufs[i] != NULL && gputile_pinned_unregister(bufs[i]) != 0;
    }
    for (int i = 0; i < BUFS; ++i)
        free(bufs[i]);
    return NULL;
}

/* Copies of a cached buffer and of pageable buffers (every method) until
 * stopped, every byte checked. */
static void *copier(void *arg)
{
    racer *r = arg;
    const size_t sizes[] = {4 * KiB + r->id, 300 * KiB + 1, 2 * MiB + 3, 9 * MiB + 5};
    const size_t most = 9 * MiB + 5, pg = (size_t)sysconf(_SC_PAGESIZE);
    /* pages of its own: another copier's cached buffer must not share one */
    unsigned char *cached = aligned_alloc(pg, (most + pg - 1) / pg * pg);
    unsigned char *page = malloc(most), *back = malloc(most), *dev;
    cudaStream_t stream;
    if (cached == NULL || page == NULL || back == NULL ||
        cudaMalloc((void **)&dev, most) != cudaSuccess ||
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
        ++r->errors;
        return NULL;
    }
    gputest_fill_random_bytes(cached, most);
    gputest_fill_random_bytes(page, most);
    r->errors += gputile_copy_cache(cached, most) != 0;
    for (int round = 0; !*r->stop || round < 2; ++round)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
            unsigned char *src = (round + (int)i) % 2 ? cached : page;
            r->errors += gputile_copy(dev, src, sizes[i], stream) != 0;
            memset(back, 0, sizes[i]);
            r->errors += gputile_copy(back, dev, sizes[i], stream) != 0;
            r->errors += memcmp(back, src, sizes[i]) != 0;
        }
    r->errors += gputile_copy_uncache(cached) != 0;
    (void)cudaStreamDestroy(stream);
    (void)cudaFree(dev);
    free(cached);
    free(page);
    free(back);
    return NULL;
}

Test(copies, copies_race_unrelated_unregister, .init = gputest_require_device, .timeout = 120)
{
    enum { COPIERS = 4 };
    volatile int stop = 0;
    racer rs[COPIERS + 1];
    pthread_t t[COPIERS + 1];
    for (int i = 0; i <= COPIERS; ++i) {
        rs[i] = (racer){&stop, i, 0};
        cr_assert_eq(pthread_create(&t[i], NULL, i == 0 ? churn : copier, &rs[i]), 0);
    }
    struct timespec two = {2, 0};
    nanosleep(&two, NULL);
    stop = 1;
    size_t errors = 0;
    for (int i = 0; i <= COPIERS; ++i) {
        pthread_join(t[i], NULL);
        errors += rs[i].errors;
    }
    cr_assert_eq(errors, 0, "%zu failed calls or wrong bytes under concurrent unregistration",
                 errors);
    cr_assert_eq(pool_stats().in_use_blocks, 0);
}
