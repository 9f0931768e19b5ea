/* SPDX-License-Identifier: MIT */
/*
 * transfer.c: gputile-bench transfer.
 *
 *   gputile-bench transfer [--csv] [--runs N] [--warmup N] [--max-mib N]
 *                          [--no-rates] [--no-sweep] [--no-alloc] [--no-gemm]
 *                          [--gemm-n N] [--gemm-max N] [--gemm-packed BYTES]
 *   gputile-bench transfer --crossovers [--csv] [--runs N] [--warmup N]
 *
 * 1. Host->device and device->host GB/s, 4 KiB to 4 GiB (--max-mib caps
 *    it), for: pageable cudaMemcpyAsync (the plain call); gputile_copy()
 *    from the same pageable memory forced to each of its methods (direct,
 *    bounce) and as its policy picks (staged); the same buffer after
 *    gputile_copy_cache() (cached: the warm-up is the first iteration, the
 *    median is of the later ones); the pinned DMA; a kernel on mapped
 *    memory. Targets (issue 21): staged >= 1.0x pageable at every size;
 *    staged >= 0.95x pinned from 1 GiB and >= 0.9x from 256 MiB; cached >=
 *    0.95x pinned (checked from 64 MiB).
 * 1a. --crossovers: gputile_copy forced to each method a quarter-octave
 *    apart from 4 KiB to 64 MiB, the fastest per size, and the row of
 *    crossovers for lib/copy_policy.h.
 * 1b. The host's own copy rate (pageable to pinned and back, the copy
 *    threads alone, 1 to 16 threads, with the load average), then the
 *    staging knobs (slot size, slots, copy threads) swept at 256 MiB,
 *    so the defaults can be chosen from measurements.
 * 2. The cost of a 1 GiB pinned block: fresh cudaHostAlloc, cudaHostRegister,
 *    gputile_pool_alloc() of a cached block. Target: pooled >= 1000x faster.
 * 3. GEMM on host matrices, n^3 for n = 8, 16, ..., 8192 (--gemm-max caps
 *    it, --gemm-n picks one): the hand-written ("seed") flow (pageable
 *    cudaMemcpy in, libgputile's device kernel, cudaMemcpy out, buffers
 *    allocated once), the same from pinned memory (the pinned sequential
 *    flow), gputile_gemm on pageable and pinned host matrices (what
 *    gputile_matmul does), cublasXt on the same host matrices, and the
 *    kernel alone. Targets (issue 21): gputile (pageable) <= 1.0x the
 *    hand-written pageable flow at every n, <= 0.8x the pinned sequential
 *    flow from 4096^3. --gemm-packed sets the most bytes of host operands
 *    the direct flow packs into one bounce buffer (1: never; for tuning
 *    lib/gemm_host.h's GPUTILE__GEMM_HOST_PACKED_BYTES).
 *    Before the timing, gputile's results on pageable and pinned host
 *    matrices are compared with the seed's flow within the GPU suite's
 *    bound, (k + 4) FLT_EPSILON |A||B| per element (the two sum in
 *    different orders); a wrong size is reported, left out of the table,
 *    and the command exits 1 after the other sections.
 *
 * Every item is timed with CUDA events on one stream, interleaved, medians
 * (bench_time). Calls that block the host (pageable copies, gputile_copy
 * from pageable memory, gputile_gemm on host matrices) are ordered on the
 * stream, so their events bracket them; cublasXt runs on its own streams,
 * so its item first drains the bench stream.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cublasXt.h>

#include "bench.h"
#include "gputile.h"
#include "../tests/support/ref64.h"

cudaError_t bench_zero_copy(void *dst, const void *src, size_t bytes, int sms, cudaStream_t stream);
/* libgputile's staging knobs (internal; lib/staged_copy.h): largest chunk,
 * slots per ring, copy threads; 0 restores a default. */
void gputile__stage_tune(size_t chunk, int slots, int threads);
/* libgputile internal (lib/copy_policy.h): every later pageable copy takes
 * method 0 DIRECT, 1 BOUNCE, 2 STAGED; -1 restores the policy. */
void gputile__copy_force(int method);
/* libgputile internal (lib/gemm_host.h): the most bytes the host GEMM's
 * direct flow packs (1: never; 0 restores the default). */
void gputile__gemm_host_set_packed(size_t bytes);

static int bench_cc_major(void)
{
    int dev, major;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    return major;
}

static const size_t MiB = (size_t)1 << 20;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void check(gputile_status s, const char *what)
{
    if (s != GPUTILE_SUCCESS) {
        fprintf(stderr, "gputile-bench: transfer: %s: %s (%s)\n", what, gputile_status_name(s),
                gputile_last_cuda_error_name());
        exit(1);
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "gputile-bench: transfer: out of host memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

/* Touches every page and writes a pattern (so pageable memory is resident). */
static void fill(void *p, size_t n)
{
    uint32_t x = 0x12345678u, *w = p;
    for (size_t i = 0; i < n / 4; ++i) {
        x = x * 1664525u + 1013904223u;
        w[i] = x;
    }
}

/* ---- 1. rates ------------------------------------------------------------- */

typedef enum { H2D, D2H } direction;

/* What an item runs: the driver's call, gputile_copy with the policy, or
 * gputile_copy forced to one method (lib/copy_policy.h), or the zero-copy
 * kernel on mapped memory. */
enum { K_CUDA, K_GPUTILE, K_FORCE_DIRECT, K_FORCE_BOUNCE, K_FORCE_STAGED, K_MAPPED };

typedef struct copy_ctx {
    direction dir;
    void *host, *dev;
    size_t bytes;
    int kind;
    int sms;
    int reps; /* back-to-back copies per timed run */
} copy_ctx;

static void enqueue_one(const copy_ctx *c, cudaStream_t stream)
{
    void *dst = c->dir == H2D ? c->dev : c->host;
    const void *src = c->dir == H2D ? c->host : c->dev;
    switch (c->kind) {
    case K_CUDA:
        BENCH_CUDA(cudaMemcpyAsync(dst, src, c->bytes,
                                   c->dir == H2D ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                                   stream));
        break;
    case K_GPUTILE:
        check(gputile_copy(dst, src, c->bytes, stream), "gputile_copy");
        break;
    case K_FORCE_DIRECT:
    case K_FORCE_BOUNCE:
    case K_FORCE_STAGED:
        gputile__copy_force(c->kind - K_FORCE_DIRECT);
        check(gputile_copy(dst, src, c->bytes, stream), "gputile_copy (forced method)");
        gputile__copy_force(-1);
        break;
    case K_MAPPED:
        BENCH_CUDA(bench_zero_copy(dst, src, c->bytes, c->sms, stream));
        break;
    }
}

/* Small copies run back to back in each timed run, enough of them to last
 * about as long as one 16 MiB copy (up to 64): the per-call cost a loop of
 * copies pays, with the run's fixed costs (events, the drain) spread out.
 * Every copy item starts on a drained stream (bench.h). */
static int reps_for(size_t bytes)
{
    return bytes >= 16 * MiB ? 1 : 16 * MiB / bytes < 64 ? (int)(16 * MiB / bytes) : 64;
}

static void enqueue_copy(void *arg, cudaStream_t stream)
{
    const copy_ctx *c = arg;
    for (int r = 0; r < c->reps; ++r)
        enqueue_one(c, stream);
}

/* Columns: pageable cudaMemcpy (the plain call), gputile_copy forced to
 * each method, gputile_copy as the policy picks (staged), a cached buffer
 * (gputile_copy_cache, 2nd+ iteration: the warm-up is the first), the
 * pinned DMA, a kernel on mapped memory. */
enum { M_PAGEABLE, M_DIRECT, M_BOUNCE, M_STAGED, M_CACHED, M_PINNED, M_MAPPED, N_METHODS };
static const char *const method_name[N_METHODS] = {"pageable", "direct", "bounce",       "staged",
                                                   "cached",   "pinned", "mapped-kernel"};
#define BOUNCE_MAX ((size_t)16 << 20) /* lib/copy_policy.h: GPUTILE__BOUNCE_BYTES */

static void print_rate_header(const bench_options *o)
{
    if (o->csv) {
        printf("section,direction,bytes,method,ms,GBps\n");
        return;
    }
    printf("\nTransfer rates, GB/s (median of %d runs). pageable: cudaMemcpyAsync from malloc'd\n"
           "memory; direct/bounce: gputile_copy forced to that method; staged: gputile_copy as\n"
           "the policy picks; cached: gputile_copy of a gputile_copy_cache'd buffer (2nd+ "
           "iteration); pinned: the DMA\n",
           o->runs);
    printf("%-4s %9s", "dir", "size");
    for (int m = 0; m < N_METHODS; ++m)
        printf(" %13s", method_name[m]);
    printf(" %16s %15s %15s\n", "staged/pageable", "staged/pinned", "cached/pinned");
    printf("%-4s %9s", "", "");
    for (int m = 0; m < N_METHODS; ++m)
        printf(" %13s", "");
    printf(" %16s %15s %15s\n", "(>= 1.0)", "(>=.9/.95)", "(>= 0.95)");
}

/* "ok"/"MISS" for a ratio with a target, blank without one. */
static const char *verdict(bool has_target, bool met)
{
    return !has_target ? "     " : met ? " ok  " : " MISS";
}

static void rates(const bench_options *o, size_t max_bytes, cudaStream_t stream)
{
    static const size_t sizes[] = {(size_t)4 << 10,   (size_t)64 << 10, (size_t)1 << 20,
                                   (size_t)4 << 20,   (size_t)16 << 20, (size_t)64 << 20,
                                   (size_t)256 << 20, (size_t)1 << 30,  (size_t)4 << 30};
    int dev, sms;
    BENCH_CUDA(cudaGetDevice(&dev));
    BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));

    bench_progress("transfer: allocating %zu MiB of pageable, pinned and device memory",
                   max_bytes / MiB);
    void *pageable = xmalloc(max_bytes), *pinned, *devbuf, *mapped_dev;
    fill(pageable, max_bytes);
    check(gputile_pinned_alloc(&pinned, max_bytes, GPUTILE_PINNED_MAPPED | GPUTILE_PINNED_PORTABLE),
          "pinned alloc");
    fill(pinned, max_bytes);
    check(gputile_pinned_device_pointer(&mapped_dev, pinned), "device pointer");
    BENCH_CUDA(cudaMalloc(&devbuf, max_bytes));

    print_rate_header(o);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0] && sizes[z] <= max_bytes; ++z) {
        const size_t bytes = sizes[z];
        for (int d = H2D; d <= D2H; ++d) {
            bench_progress("transfer: %s %zu KiB", d == H2D ? "host->device" : "device->host",
                           bytes >> 10);
            const int reps = reps_for(bytes);
            copy_ctx c[N_METHODS] = {
                [M_PAGEABLE] = {d, pageable, devbuf, bytes, K_CUDA, sms, reps},
                [M_DIRECT] = {d, pageable, devbuf, bytes, K_FORCE_DIRECT, sms, reps},
                [M_BOUNCE] = {d, pageable, devbuf, bytes, K_FORCE_BOUNCE, sms, reps},
                [M_STAGED] = {d, pageable, devbuf, bytes, K_GPUTILE, sms, reps},
                [M_CACHED] = {d, pageable, devbuf, bytes, K_GPUTILE, sms, reps},
                [M_PINNED] = {d, pinned, devbuf, bytes, K_CUDA, sms, reps},
                [M_MAPPED] = {d, mapped_dev, devbuf, bytes, K_MAPPED, sms, reps},
            };
            bench_item items[N_METHODS];
            for (int m = 0; m < N_METHODS; ++m)
                items[m] = (bench_item){method_name[m], enqueue_copy, &c[m], 0, true};
            /* Everything on the pageable buffer uncached (bench_time rotates
             * the order each round); the bounce buffer holds at most
             * BOUNCE_MAX (a larger forced bounce copy would be staged). */
            bench_item run[N_METHODS];
            int order[N_METHODS], n = 0;
            for (int m = 0; m < N_METHODS; ++m)
                if (m != M_CACHED && (m != M_BOUNCE || bytes <= BOUNCE_MAX)) {
                    order[n] = m;
                    run[n++] = items[m];
                }
            bench_time(run, n, o, stream);
            for (int i = 0; i < n; ++i)
                items[order[i]].median_ms = run[i].median_ms / reps;
            /* Then the same buffer cached: its first copy is bench_time's
             * warm-up, so the median is of the 2nd+ iterations. */
            check(gputile_copy_cache(pageable, bytes), "gputile_copy_cache");
            bench_item cached_pair[2] = {items[M_CACHED], items[M_PINNED]};
            bench_time(cached_pair, 2, o, stream);
            items[M_CACHED].median_ms = cached_pair[0].median_ms / reps;
            double pinned_again = cached_pair[1].median_ms / reps;
            check(gputile_copy_uncache(pageable), "gputile_copy_uncache");

            const char *dn = d == H2D ? "h2d" : "d2h";
            if (o->csv) {
                for (int m = 0; m < N_METHODS; ++m)
                    if (m != M_BOUNCE || bytes <= BOUNCE_MAX)
                        printf("rate,%s,%zu,%s,%.4f,%.2f\n", dn, bytes, method_name[m],
                               items[m].median_ms, bytes / items[m].median_ms / 1e6);
                printf("rate,%s,%zu,pinned-beside-cached,%.4f,%.2f\n", dn, bytes, pinned_again,
                       bytes / pinned_again / 1e6);
            } else {
                if (bytes < MiB)
                    printf("%-4s %5zu KiB", dn, bytes >> 10);
                else
                    printf("%-4s %5zu MiB", dn, bytes / MiB);
                for (int m = 0; m < N_METHODS; ++m)
                    if (m == M_BOUNCE && bytes > BOUNCE_MAX)
                        printf(" %13s", "-");
                    else
                        printf(" %13.2f", bytes / items[m].median_ms / 1e6);
                double sp = items[M_PAGEABLE].median_ms / items[M_STAGED].median_ms;
                double sd = items[M_PINNED].median_ms / items[M_STAGED].median_ms;
                double cd = pinned_again / items[M_CACHED].median_ms;
                const bool big = bytes >= ((size_t)256 << 20);
                const double want = bytes >= ((size_t)1 << 30) ? 0.95 : 0.9;
                printf(" %10.2fx%s %9.3fx%s %9.3fx%s\n", sp, verdict(true, sp >= 1.0), sd,
                       verdict(big, sd >= want), cd, verdict(bytes >= 64 * MiB, cd >= 0.95));
            }
            fflush(stdout);
        }
    }
    BENCH_CUDA(cudaFree(devbuf));
    check(gputile_pinned_free(pinned), "free");
    free(pageable);
}

/* ---- 1a. --crossovers: the policy table, measured -----------------------------
 * gputile_copy forced to each method at sizes a quarter-octave apart from
 * 4 KiB to 64 MiB, both directions (medians, order rotated), the fastest
 * per size, and the crossovers read off them: the BOUNCE method from the
 * first size where it beats DIRECT by more than 2% and DIRECT never wins
 * again by more than 2%, STAGED likewise against the faster of the other
 * two. The last line is the row for lib/copy_policy.h. */
static size_t crossover(const double *slow, const double *fast, const size_t *sz, int n)
{
    size_t from = 0; /* 0: never */
    for (int i = n - 1; i >= 0; --i) {
        if (slow[i] == 0 || fast[i] == 0)
            continue; /* not measured */
        if (fast[i] <= 0.98 * slow[i])
            from = sz[i];
        else if (slow[i] < 0.98 * fast[i])
            break;
    }
    return from;
}

static void crossovers(const bench_options *o, cudaStream_t stream)
{
    enum { MAXN = 64 };
    size_t sz[MAXN];
    int n = 0;
    for (double x = 4096; x <= (double)(64 * MiB) + 1 && n < MAXN; x *= 1.189207115) /* 2^(1/4) */
        sz[n++] = ((size_t)x + 4095) & ~(size_t)4095;
    void *page = xmalloc(64 * MiB), *dev;
    fill(page, 64 * MiB);
    BENCH_CUDA(cudaMalloc(&dev, 64 * MiB));
    size_t result[2][2];
    if (!o->csv)
        printf("\nCrossovers: gputile_copy forced to each method, microseconds (median of %d "
               "runs)\n%-4s %10s %10s %10s %10s %10s %8s\n",
               o->runs, "dir", "bytes", "pageable", "direct", "bounce", "staged", "best");
    for (int d = H2D; d <= D2H; ++d) {
        double t[3][MAXN] = {{0}};
        for (int i = 0; i < n; ++i) {
            bench_progress("transfer: crossovers %s %zu bytes", d == H2D ? "h2d" : "d2h", sz[i]);
            const int reps = reps_for(sz[i]);
            copy_ctx c[4] = {{d, page, dev, sz[i], K_CUDA, 0, reps},
                             {d, page, dev, sz[i], K_FORCE_DIRECT, 0, reps},
                             {d, page, dev, sz[i], K_FORCE_BOUNCE, 0, reps},
                             {d, page, dev, sz[i], K_FORCE_STAGED, 0, reps}};
            const int k = sz[i] <= BOUNCE_MAX ? 4 : 3; /* bounce only where it exists */
            const int idx[4] = {0, 1, 3, 2};           /* bounce last, so it can be left out */
            bench_item items[4];
            for (int j = 0; j < k; ++j)
                items[j] = (bench_item){"", enqueue_copy, &c[idx[j]], 0, true};
            bench_time(items, k, o, stream); /* rotates the order each round */
            double us[4] = {0, 0, 0, 0};
            for (int j = 0; j < k; ++j)
                us[(copy_ctx *)items[j].ctx - c] = items[j].median_ms * 1e3 / reps;
            t[0][i] = us[1], t[1][i] = us[2], t[2][i] = us[3];
            int best = 0;
            for (int m = 1; m < 3; ++m)
                if (t[m][i] > 0 && t[m][i] < t[best][i])
                    best = m;
            static const char *const names[] = {"direct", "bounce", "staged"};
            if (o->csv)
                printf("crossover,%s,%zu,%.2f,%.2f,%.2f,%.2f,%s\n", d == H2D ? "h2d" : "d2h", sz[i],
                       us[0], us[1], us[2], us[3], names[best]);
            else
                printf("%-4s %10zu %10.1f %10.1f %10.1f %10.1f %8s\n", d == H2D ? "h2d" : "d2h",
                       sz[i], us[0], us[1], us[2], us[3], names[best]);
            fflush(stdout);
        }
        double fastest[MAXN];
        for (int i = 0; i < n; ++i)
            fastest[i] = t[1][i] > 0 && t[1][i] < t[0][i] ? t[1][i] : t[0][i];
        result[d][0] = crossover(t[0], t[1], sz, n);
        result[d][1] = crossover(fastest, t[2], sz, n);
    }
    for (int d = 0; d < 2; ++d)
        for (int k = 0; k < 2; ++k)
            if (result[d][k] == 0)
                result[d][k] = (size_t)-1; /* never: the method is not taken */
    printf("%s%s: bounce from %zu, staged from %zu; d2h: bounce from %zu, staged from %zu "
           "(SIZE_MAX: never)\n",
           o->csv ? "# " : "\n", "h2d", result[0][0], result[0][1], result[1][0], result[1][1]);
    printf("%slib/copy_policy.h row: X(%d, %zu, %zu, %zu, %zu)\n", o->csv ? "# " : "",
           bench_cc_major(), result[0][0], result[0][1], result[1][0], result[1][1]);
    BENCH_CUDA(cudaFree(dev));
    free(page);
}

/* ---- 1b'. the host's own copy rate --------------------------------------------
 * Pageable to pinned memory and back by the library's copy threads alone
 * (no DMA), 256 MiB, for 1 to 16 threads: the ceiling the staged copies'
 * host side works under on this machine, with its load average. A staged
 * rate far under the pinned DMA's while this rate is high points at the
 * pipeline; both low, at the host (other work on its cores, its memory). */
void gputile__copy_threads_set(int threads);
void gputile__parallel_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height);

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void host_ceiling(const bench_options *o)
{
    const size_t bytes = 256 * MiB;
    static const int threads[] = {1, 2, 4, 8, 12, 16};
    enum { REPS = 5 };
    void *page = xmalloc(bytes), *pinned;
    fill(page, bytes);
    BENCH_CUDA(cudaHostAlloc(&pinned, bytes, cudaHostAllocDefault));
    memset(pinned, 0, bytes);
    double load[3] = {0, 0, 0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f != NULL) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = -1;
        fclose(f);
    }
    if (!o->csv)
        printf("\nHost copy rate: the library's copy threads, 256 MiB, no DMA, GB/s (load "
               "average %.2f %.2f %.2f)\n%8s %12s %12s\n",
               load[0], load[1], load[2], "threads", "to pinned", "from pinned");
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
        gputile__copy_threads_set(threads[t]);
        double gb[2];
        for (int d = 0; d < 2; ++d) {
            void *dst = d == 0 ? pinned : page, *src = d == 0 ? page : pinned;
            double ms[REPS];
            gputile__parallel_copy2d(dst, bytes, src, bytes, bytes, 1); /* warm-up */
            for (int r = 0; r < REPS; ++r) {
                const double t0 = now_ms();
                gputile__parallel_copy2d(dst, bytes, src, bytes, bytes, 1);
                ms[r] = now_ms() - t0;
            }
            qsort(ms, REPS, sizeof ms[0], cmp_double);
            gb[d] = bytes / ms[REPS / 2] / 1e6;
            if (o->csv)
                printf("host,%d,%zu,%s,%.4f,%.2f\n", threads[t], bytes,
                       d == 0 ? "to-pinned" : "from-pinned", ms[REPS / 2], gb[d]);
        }
        if (!o->csv)
            printf("%8d %12.2f %12.2f\n", threads[t], gb[0], gb[1]);
        fflush(stdout);
    }
    gputile__copy_threads_set(0);
    BENCH_CUDA(cudaFreeHost(pinned));
    free(page);
}

/* ---- 1b. the staging knobs, swept ---------------------------------------------
 * gputile_copy from pageable memory at 256 MiB for chunk sizes, buffer
 * counts and copy-thread counts around the defaults: the measurements the
 * defaults in lib/staged_copy.h and lib/copy_threads.h are chosen from. */
static void sweep(const bench_options *o, cudaStream_t stream)
{
    const size_t bytes = 256 * MiB;
    static const size_t chunks[] = {1, 2, 4};
    static const int slots[] = {16, 32, 48};
    static const int threads[] = {8, 12, 16};
    void *page = xmalloc(bytes), *dev;
    fill(page, bytes);
    BENCH_CUDA(cudaMalloc(&dev, bytes));
    double best[2] = {0, 0};
    char best_what[2][64] = {"", ""};
    if (!o->csv)
        printf("\nStaging knobs: gputile_copy of 256 MiB pageable memory, GB/s (defaults: "
               "lib/staged_copy.h, lib/copy_threads.h)\n"
               "%9s %8s %8s %8s %8s\n",
               "chunk", "slots", "threads", "h2d", "d2h");
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; ++c)
        for (size_t b = 0; b < sizeof slots / sizeof slots[0]; ++b)
            for (size_t t = 0; t < sizeof threads / sizeof threads[0]; ++t) {
                gputile__stage_tune(chunks[c] * MiB, slots[b], threads[t]);
                bench_progress("transfer: sweep chunk %zu MiB, %d slots, %d threads", chunks[c],
                               slots[b], threads[t]);
                copy_ctx ctx[2] = {{H2D, page, dev, bytes, K_GPUTILE, 0, 1},
                                   {D2H, page, dev, bytes, K_GPUTILE, 0, 1}};
                bench_item items[2] = {{"h2d", enqueue_copy, &ctx[0], 0, true},
                                       {"d2h", enqueue_copy, &ctx[1], 0, true}};
                bench_time(items, 2, o, stream);
                double gb[2];
                for (int d = 0; d < 2; ++d) {
                    gb[d] = bytes / items[d].median_ms / 1e6;
                    if (gb[d] > best[d]) {
                        best[d] = gb[d];
                        snprintf(best_what[d], sizeof best_what[d], "%zu MiB, %d slots, %d threads",
                                 chunks[c], slots[b], threads[t]);
                    }
                }
                if (o->csv)
                    printf("sweep,%zuMiB/%d/%d,%zu,staged-h2d,%.4f,%.2f\nsweep,%zuMiB/%d/"
                           "%d,%zu,staged-d2h,%.4f,%.2f\n",
                           chunks[c], slots[b], threads[t], bytes, items[0].median_ms, gb[0],
                           chunks[c], slots[b], threads[t], bytes, items[1].median_ms, gb[1]);
                else
                    printf("%5zu MiB %8d %8d %8.2f %8.2f\n", chunks[c], slots[b], threads[t], gb[0],
                           gb[1]);
                fflush(stdout);
            }
    gputile__stage_tune(0, 0, 0);
    if (!o->csv)
        printf("best h2d: %.2f GB/s (%s); best d2h: %.2f GB/s (%s)\n", best[0], best_what[0],
               best[1], best_what[1]);
    check(gputile_pool_release(), "pool release");
    BENCH_CUDA(cudaFree(dev));
    free(page);
}

/* ---- 2. allocation cost ---------------------------------------------------- */

static void alloc_cost(const bench_options *o)
{
    const size_t gib = (size_t)1 << 30;
    enum { FRESH = 5, POOLED = 1001 };
    double fresh[FRESH], reg[FRESH], pooled[POOLED];
    bench_progress("transfer: pinning 1 GiB %d times each way", FRESH);
    void *page = xmalloc(gib);
    fill(page, gib);
    for (int i = 0; i < FRESH; ++i) {
        void *p;
        double t0 = now_ms();
        BENCH_CUDA(cudaHostAlloc(&p, gib, cudaHostAllocDefault));
        fresh[i] = now_ms() - t0;
        BENCH_CUDA(cudaFreeHost(p));
        t0 = now_ms();
        BENCH_CUDA(cudaHostRegister(page, gib, cudaHostRegisterDefault));
        reg[i] = now_ms() - t0;
        BENCH_CUDA(cudaHostUnregister(page));
    }
    free(page);
    check(gputile_pool_release(), "pool release");
    void *p;
    check(gputile_pool_alloc(&p, gib, 0), "pool alloc");
    check(gputile_pool_free(p), "pool free");
    for (int i = 0; i < POOLED; ++i) {
        double t0 = now_ms();
        check(gputile_pool_alloc(&p, gib, 0), "pool alloc");
        pooled[i] = now_ms() - t0;
        check(gputile_pool_free(p), "pool free");
    }
    check(gputile_pool_release(), "pool release");
    qsort(fresh, FRESH, sizeof(double), cmp_double);
    qsort(reg, FRESH, sizeof(double), cmp_double);
    qsort(pooled, POOLED, sizeof(double), cmp_double);
    double f = fresh[FRESH / 2], r = reg[FRESH / 2], q = pooled[POOLED / 2];
    if (o->csv) {
        printf("alloc,1GiB,%zu,cudaHostAlloc,%.4f,\n", gib, f);
        printf("alloc,1GiB,%zu,cudaHostRegister,%.4f,\n", gib, r);
        printf("alloc,1GiB,%zu,gputile_pool_alloc,%.6f,\n", gib, q);
    } else {
        printf("\nPinned 1 GiB (median): cudaHostAlloc %.1f ms, cudaHostRegister %.1f ms, "
               "gputile_pool_alloc of a cached block %.2f us: %.0fx faster than fresh%s\n",
               f, r, q * 1e3, f / q, f / q >= 1000 ? " ok" : " MISS (target 1000x)");
    }
    fflush(stdout);
}

/* ---- 3. GEMM on host matrices ----------------------------------------------- */

typedef struct gemm_ctx {
    size_t n;
    float *ha, *hb, *hc; /* host (pageable or pinned) */
    float *da, *db, *dc; /* device */
    cublasXtHandle_t xt;
    int kind;
} gemm_ctx;

enum {
    G_KERNEL,
    G_SEED_PAGEABLE,
    G_SEED_PINNED,
    G_GPUTILE_PAGEABLE,
    G_GPUTILE_PINNED,
    G_XT_PAGEABLE,
    G_XT_PINNED,
    N_GEMM
};
static const char *const gemm_name[N_GEMM] = {
    "kernel-alone",   "seed-pageable",     "seed-pinned",    "gputile-pageable",
    "gputile-pinned", "cublasXt-pageable", "cublasXt-pinned"};

static gputile_matrix mat(float *p, size_t n)
{
    gputile_matrix m = {n, n, n, p};
    return m;
}

static void device_gemm(gemm_ctx *g, cudaStream_t stream)
{
    check(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, mat(g->da, g->n), mat(g->db, g->n), 0.0f,
                       mat(g->dc, g->n), stream, NULL),
          "device gemm");
}

static void enqueue_gemm(void *arg, cudaStream_t stream)
{
    gemm_ctx *g = arg;
    const size_t bytes = g->n * g->n * sizeof(float);
    switch (g->kind) {
    case G_KERNEL:
        device_gemm(g, stream);
        break;
    case G_SEED_PAGEABLE:
    case G_SEED_PINNED: /* the seed's flow: copy all in, multiply, copy out */
        BENCH_CUDA(cudaMemcpyAsync(g->da, g->ha, bytes, cudaMemcpyHostToDevice, stream));
        BENCH_CUDA(cudaMemcpyAsync(g->db, g->hb, bytes, cudaMemcpyHostToDevice, stream));
        device_gemm(g, stream);
        BENCH_CUDA(cudaMemcpyAsync(g->hc, g->dc, bytes, cudaMemcpyDeviceToHost, stream));
        break;
    case G_GPUTILE_PAGEABLE:
    case G_GPUTILE_PINNED:
        check(gputile_gemm(GPUTILE_OP_N, GPUTILE_OP_N, 1.0f, mat(g->ha, g->n), mat(g->hb, g->n),
                           0.0f, mat(g->hc, g->n), stream, NULL),
              "host gemm");
        break;
    case G_XT_PAGEABLE:
    case G_XT_PINNED: {
        /* cublasXt uses its own streams: start after the bench stream drains. */
        BENCH_CUDA(cudaStreamSynchronize(stream));
        const float one = 1.0f, zero = 0.0f;
        /* row-major C = A B is column-major C^T = B^T A^T */
        cublasStatus_t st = cublasXtSgemm(g->xt, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one,
                                          g->hb, g->n, g->ha, g->n, &zero, g->hc, g->n);
        if (st != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "gputile-bench: transfer: cublasXtSgemm: status %d\n", (int)st);
            exit(1);
        }
        break;
    }
    }
}

/* The largest |x - y| over n elements as a share of the GPU suite's bound
 * for two FP32 products of the same inputs that sum in different orders
 * (tests/test_gemm.c): (k + 4) FLT_EPSILON |alpha| sum |a||b| + FLT_MIN,
 * with scale = |alpha| |A||B| per element (float64, gputest_gemm_ref64).
 * Above 1 is a wrong result; NaN counts as 1e30. */
static double worst_share_of_bound(const float *x, const float *y, const double *scale, size_t n,
                                   size_t k)
{
    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        double d = fabs((double)x[i] - y[i]);
        double bound = (double)(k + 4) * FLT_EPSILON * scale[i] + FLT_MIN;
        if (d != d)
            return 1e30;
        if (d / bound > worst)
            worst = d / bound;
    }
    return worst;
}

/* |A||B| (alpha = 1) for the n x n device matrices a and b, on the host. */
static double *error_scale(const float *a, const float *b, size_t n)
{
    double *ref, *scale, *h = xmalloc(n * n * sizeof(double));
    BENCH_CUDA(cudaMalloc((void **)&ref, n * n * sizeof(double)));
    BENCH_CUDA(cudaMalloc((void **)&scale, n * n * sizeof(double)));
    BENCH_CUDA(gputest_gemm_ref64(0, 0, (int64_t)n, (int64_t)n, (int64_t)n, 1.0f, a, (int64_t)n, b,
                                  (int64_t)n, 0.0f, NULL, (int64_t)n, ref, scale));
    BENCH_CUDA(cudaMemcpy(h, scale, n * n * sizeof(double), cudaMemcpyDeviceToHost));
    BENCH_CUDA(cudaFree(ref));
    BENCH_CUDA(cudaFree(scale));
    return h;
}

/* One size of the host-matrix GEMM table; false when a result is wrong. */
static bool gemm_size(const bench_options *o, size_t n, cudaStream_t stream, cublasXtHandle_t xt)
{
    const size_t bytes = n * n * sizeof(float);
    bench_progress("transfer: host-matrix GEMM %zu^3: allocating", n);
    float *pa = xmalloc(bytes), *pb = xmalloc(bytes), *pc = xmalloc(bytes), *ref = xmalloc(bytes);
    float *qa, *qb, *qc, *da, *db, *dc;
    check(gputile_pinned_alloc((void **)&qa, bytes, 0), "pinned A");
    check(gputile_pinned_alloc((void **)&qb, bytes, 0), "pinned B");
    check(gputile_pinned_alloc((void **)&qc, bytes, 0), "pinned C");
    BENCH_CUDA(cudaMalloc((void **)&da, bytes));
    BENCH_CUDA(cudaMalloc((void **)&db, bytes));
    BENCH_CUDA(cudaMalloc((void **)&dc, bytes));
    uint32_t x = 7;
    for (size_t i = 0; i < n * n; ++i) {
        x = x * 1664525u + 1013904223u;
        pa[i] = qa[i] = (float)((x >> 8) & 0xffff) / 32768.0f - 1.0f;
        x = x * 1664525u + 1013904223u;
        pb[i] = qb[i] = (float)((x >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    memset(pc, 0, bytes);
    memset(qc, 0, bytes);

    gemm_ctx g[N_GEMM];
    bench_item items[N_GEMM];
    for (int k = 0; k < N_GEMM; ++k) {
        bool pinned = k == G_SEED_PINNED || k == G_GPUTILE_PINNED || k == G_XT_PINNED;
        g[k] =
            (gemm_ctx){n, pinned ? qa : pa, pinned ? qb : pb, pinned ? qc : pc, da, db, dc, xt, k};
        items[k] = (bench_item){gemm_name[k], enqueue_gemm, &g[k], 0, true};
    }
    /* Correctness first: the seed's flow gives the reference; gputile on
     * pageable and pinned host matrices must agree with it within the bound
     * the GPU suite allows two FP32 products (they sum in different orders:
     * AUTO may split k in the tail, the seed's flow runs the same call on
     * device matrices, and the host path runs it in tiles). */
    enqueue_gemm(&g[G_SEED_PAGEABLE], stream);
    BENCH_CUDA(cudaStreamSynchronize(stream));
    memcpy(ref, pc, bytes);
    memset(pc, 0, bytes);
    enqueue_gemm(&g[G_GPUTILE_PAGEABLE], stream);
    enqueue_gemm(&g[G_GPUTILE_PINNED], stream);
    BENCH_CUDA(cudaStreamSynchronize(stream));
    double *scale = error_scale(da, db, n); /* da, db hold A and B from the seed's flow */
    double e1 = worst_share_of_bound(pc, ref, scale, n * n, n);
    double e2 = worst_share_of_bound(qc, ref, scale, n * n, n);
    free(scale);
    const bool right = e1 <= 1 && e2 <= 1;
    if (!right)
        fprintf(stderr,
                "gputile-bench: transfer: host GEMM %zu^3 is WRONG: it differs from the "
                "seed's flow by up to %.3g (pageable) and %.3g (pinned) times the bound "
                "(k + 4) eps |A||B|; not timed\n",
                n, e1, e2);
    else
        bench_progress(
            "transfer: host-matrix GEMM %zu^3 agrees with the seed's flow: largest "
            "difference %.3f (pageable) and %.3f (pinned) of the bound (k + 4) eps |A||B|",
            n, e1, e2);
    if (!right)
        goto out;

    bench_progress("transfer: host-matrix GEMM %zu^3: timing %d items", n, N_GEMM);
    bench_options go = *o;
    bench_time(items, N_GEMM, &go, stream);

    double hand = items[G_SEED_PAGEABLE].median_ms, seq = items[G_SEED_PINNED].median_ms;
    double ours = items[G_GPUTILE_PAGEABLE].median_ms;
    if (o->csv) {
        for (int k = 0; k < N_GEMM; ++k)
            printf("gemm,%zu,%zu,%s,%.4f,\n", n, n, gemm_name[k], items[k].median_ms);
    } else {
        printf("%6zu", n);
        for (int k = 0; k < N_GEMM; ++k)
            printf(" %17.3f", items[k].median_ms);
        printf(" %10.2fx%s %10.2fx%s\n", ours / hand, ours / hand <= 1.0 ? " ok " : " MISS",
               ours / seq, n >= 4096 ? (ours / seq <= 0.8 ? " ok " : " MISS") : "     ");
    }
    fflush(stdout);

out:
    BENCH_CUDA(cudaFree(da));
    BENCH_CUDA(cudaFree(db));
    BENCH_CUDA(cudaFree(dc));
    check(gputile_pinned_free(qa), "free");
    check(gputile_pinned_free(qb), "free");
    check(gputile_pinned_free(qc), "free");
    free(pa), free(pb), free(pc), free(ref);
    return right;
}

/* The host-matrix GEMM table; false when a result was wrong. */
static bool gemm_section(const bench_options *o, size_t only_n, size_t max_n, cudaStream_t stream)
{
    cublasXtHandle_t xt;
    int devices[1];
    BENCH_CUDA(cudaGetDevice(&devices[0]));
    if (cublasXtCreate(&xt) != CUBLAS_STATUS_SUCCESS ||
        cublasXtDeviceSelect(xt, 1, devices) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "gputile-bench: transfer: cublasXt unavailable\n");
        exit(1);
    }
    if (!o->csv) {
        printf("\nGEMM on host matrices, n^3 FP32, ms (median of %d runs); same libgputile kernel "
               "in every flow but cublasXt. seed = the hand-written flow: cudaMemcpy in, device "
               "GEMM, cudaMemcpy out, buffers allocated once; gputile = gputile_gemm on the host "
               "matrices\n",
               o->runs);
        printf("%6s", "n");
        for (int k = 0; k < N_GEMM; ++k)
            printf(" %17s", gemm_name[k]);
        printf(" %12s %12s\n", "gputile/hand", "gputile/seq");
        printf("%6s %17s %17s %17s %17s %17s %17s %17s %12s %12s\n", "", "", "(hand-written)",
               "(pinned seq.)", "", "", "", "", "(<= 1.0)", "(<= 0.8)");
    }
    bool right = true;
    if (only_n)
        right = gemm_size(o, only_n, stream, xt);
    else
        for (size_t n = 8; n <= max_n; n *= 2)
            right &= gemm_size(o, n, stream, xt);
    cublasXtDestroy(xt);
    return right;
}

static const char transfer_usage[] =
    "usage: gputile-bench transfer [--csv] [--runs N] [--warmup N] [--max-mib N]\n"
    "       [--no-rates] [--no-sweep] [--no-alloc] [--no-gemm] [--gemm-n N] [--gemm-max N]\n"
    "       [--gemm-packed BYTES]\n"
    "       gputile-bench transfer --crossovers [--csv] [--runs N] [--warmup N]\n"
    "  --crossovers: only the fine sweep of gputile_copy's methods (direct, bounce,\n"
    "  staged) from 4 KiB to 64 MiB, and the crossover row for lib/copy_policy.h\n"
    "  --gemm-packed: the most bytes of host operands the host GEMM's direct flow\n"
    "  packs into one bounce buffer (1: never; tuning only)\n";

int bench_transfer(int argc, char **argv)
{
    bench_options o;
    argc = bench_parse_common(argc, argv, &o);
    size_t max_mib = 4096, gemm_n = 0, gemm_max = 8192;
    bool do_rates = true, do_alloc = true, do_gemm = true, do_sweep = true, do_cross = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--max-mib") == 0 && i + 1 < argc)
            max_mib = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--gemm-n") == 0 && i + 1 < argc)
            gemm_n = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--gemm-max") == 0 && i + 1 < argc)
            gemm_max = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--gemm-packed") == 0 && i + 1 < argc)
            gputile__gemm_host_set_packed(strtoull(argv[++i], NULL, 0));
        else if (strcmp(argv[i], "--crossovers") == 0)
            do_cross = true;
        else if (strcmp(argv[i], "--no-rates") == 0)
            do_rates = false;
        else if (strcmp(argv[i], "--no-sweep") == 0)
            do_sweep = false;
        else if (strcmp(argv[i], "--no-alloc") == 0)
            do_alloc = false;
        else if (strcmp(argv[i], "--no-gemm") == 0)
            do_gemm = false;
        else
            return bench_usage(transfer_usage, bench_is_help(argv[i]));
    }
    if (max_mib < 1)
        max_mib = 1;
    bench_require_device("transfer");
    cudaStream_t stream;
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    double t0 = now_ms();
    if (do_cross) { /* the sweep alone */
        crossovers(&o, stream);
        do_rates = do_sweep = do_alloc = do_gemm = false;
    }
    if (do_rates)
        rates(&o, max_mib * MiB, stream);
    if (do_sweep) {
        host_ceiling(&o);
        sweep(&o, stream);
    }
    if (do_alloc)
        alloc_cost(&o);
    bool right = true;
    if (do_gemm)
        right = gemm_section(&o, gemm_n, gemm_max, stream);
    BENCH_CUDA(cudaStreamDestroy(stream));
    check(gputile_pool_release(), "pool release");
    bench_progress("transfer: done in %.1f s%s", (now_ms() - t0) / 1e3,
                   right ? "" : "; a host GEMM result was WRONG");
    return right ? 0 : 1;
}
