/* SPDX-License-Identifier: MIT */
/*
 * fuzz_args.c: libFuzzer target for the argument checks of every public
 * entry point (`make fuzz'; tests/fuzz/README).
 *
 * The input is read as a choice of entry point followed by its arguments:
 * sizes (small, boundary and raw 64-bit values), pointers (NULL, into a
 * poisoned arena at any byte offset, or raw addresses up to the top of the
 * address space), floats (NaN, infinities, raw bits), options structs with
 * every field fuzzed, in heap blocks of exactly their size (AddressSanitizer
 * catches a read past them). The library is linked against cuda_stub.c: a
 * machine without a device, where the first CUDA call answers
 * cudaErrorNoDevice. So a call either rejects its arguments, stops at the
 * device with GPUTILE_ERROR_NO_DEVICE, or succeeds as a no-op.
 *
 * For each call an independent oracle, written from the header and the man
 * pages (not from lib/), lists the statuses the arguments justify:
 *  - `must`: conditions that certainly hold (stride < width, a NULL
 *    pointer, a byte extent past SIZE_MAX / 2 or the top of the address
 *    space, shapes that disagree, elements that really share memory,
 *    counted element by element); the call must fail with one of them;
 *  - `may`: conservative rejections the API allows (overlap by address
 *    ranges for views of different strides or misaligned offsets).
 * The target aborts (a libFuzzer crash) when a call:
 *  - returns a status outside must | may, or accepts arguments with a
 *    `must` condition, or rejects arguments without any;
 *  - asks the device anything before every argument check has passed;
 *  - writes anything on failure: the arena, an options struct, an out
 *    pointer (and on success writes outside what the API allows);
 *  - reaches a kernel launcher (cuda_stub.c aborts there).
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gputile.h"
#include "gputile_facade.h"
#include "fuzz.h"
#include "../../kernels/gemm_variants.h"

/* The GEMM variants (kernels/gemm_variants.h): the oracle's rules for
 * algorithms and precisions come from the same rows as the library's. */
static const struct {
    int algorithm, precision;
    unsigned flags;
} rows[] = {
#define ROW(id, algorithm, name, precision, bm, bn, bk, threads, per_sm, tm, tn, flags) \
    {algorithm, precision, flags},
    GPUTILE__GEMM_VARIANTS(ROW)
#undef ROW
};
/* Algorithm ids run from AUTO (0) to the largest a row names, with no gap. */
static int n_algorithms(void)
{
    int n = 1;
    for (size_t v = 0; v < sizeof rows / sizeof rows[0]; ++v)
        n = rows[v].algorithm >= n ? rows[v].algorithm + 1 : n;
    return n;
}
#define N_ALGORITHMS n_algorithms()

/* ---- reading the input ------------------------------------------------------ */
typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint64_t take(reader *r, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) {
        v = v << 8 | (r->n ? *r->p : 0);
        if (r->n) {
            ++r->p;
            --r->n;
        }
    }
    return v;
}
static unsigned u8(reader *r)
{
    return (unsigned)take(r, 1);
}

/* Sizes: zero and small values, values around 2^31, 2^32, 2^61 (2^63
 * bytes of floats) and SIZE_MAX, and raw 64-bit values. */
static size_t fz_size(reader *r)
{
    int8_t d = (int8_t)u8(r);
    switch (u8(r) % 9) {
    case 0:
        return u8(r) % 4;
    case 1:
    case 2:
        return u8(r) % 72;
    case 3:
        return (size_t)take(r, 2);
    case 4:
        return (size_t)take(r, 8);
    case 5:
        return SIZE_MAX - (size_t)(uint8_t)d;
    case 6:
        return ((size_t)1 << 61) + (size_t)(intptr_t)d;
    case 7:
        return ((size_t)1 << 31) + (size_t)(intptr_t)d;
    default:
        return ((size_t)1 << 32) + (size_t)(intptr_t)d;
    }
}

static int32_t fz_i32(reader *r)
{
    switch (u8(r) % 5) {
    case 0:
        return (int32_t)(u8(r) % 24) - 4;
    case 1:
        return (int32_t)take(r, 4);
    case 2:
        return INT32_MAX - (int32_t)(u8(r) % 4);
    case 3:
        return INT32_MIN + (int32_t)(u8(r) % 4);
    default:
        return (int32_t)(take(r, 3) % (1u << 24));
    }
}

static float fz_float(reader *r)
{
    static const float special[] = {0.0f, -0.0f,   1.0f,     -1.0f,   0.5f,   INFINITY, -INFINITY,
                                    NAN,  FLT_MAX, -FLT_MAX, FLT_MIN, 1e-45f, 3.0e38f,  -3.0e38f};
    switch (u8(r) % 3) {
    case 0:
        return special[u8(r) % (sizeof special / sizeof special[0])];
    case 1:
        return (float)((int)(u8(r) % 64) - 32);
    default: {
        uint32_t bits = (uint32_t)take(r, 4);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

/* ---- memory the calls may be given ---------------------------------------------
 * The arena is poisoned before every call and compared after it. */
#define ARENA_BYTES 16384
static unsigned char arena[ARENA_BYTES] __attribute__((aligned(64)));
static unsigned char arena_copy[ARENA_BYTES];
#define POISON 0xa5

static void *fz_ptr(reader *r)
{
    switch (u8(r) % 6) {
    case 0:
        return NULL;
    case 1:
        return arena + take(r, 2) % ARENA_BYTES; /* any byte */
    case 2:
    case 3:
        return arena + 4 * (take(r, 2) % (ARENA_BYTES / 4)); /* whole floats */
    case 4:
        return (void *)(uintptr_t)(UINTPTR_MAX - take(r, 2)); /* the top */
    default:
        return (void *)(uintptr_t)take(r, 8); /* anywhere; never read */
    }
}

/* A matrix: mostly small views into the arena with strides near their
 * width (so that views overlap in interesting ways), else anything. */
static gputile_matrix fz_matrix(reader *r)
{
    gputile_matrix m;
    if (u8(r) % 4 != 0) {
        m.width = u8(r) % 40;
        m.height = u8(r) % 40;
        unsigned d = u8(r);
        m.stride = d < 16 ? m.width - (d % 3) : m.width + d % 24;
        m.elements = fz_ptr(r);
    } else {
        m.width = fz_size(r);
        m.height = fz_size(r);
        m.stride = u8(r) % 2 ? m.width + u8(r) % 8 : fz_size(r);
        m.elements = fz_ptr(r);
    }
    return m;
}

/* ---- the oracle -------------------------------------------------------------------- */
#define B(status) (1u << (status))

static void fail(const char *what, const char *call, gputile_status s)
{
    fprintf(stderr, "fuzz_args: %s: %s (returned %s)\n", call, what, gputile_status_name(s));
    abort();
}

static bool empty(gputile_matrix m)
{
    return m.width == 0 || m.height == 0;
}

/* The matrix's own conditions (gputile_matrix in gputile(7)); true when it
 * is valid, so that its extent means something. */
static bool matrix_ok(gputile_matrix m, unsigned *must)
{
    if (m.stride < m.width) {
        *must |= B(GPUTILE_ERROR_INVALID_MATRIX);
        return false;
    }
    if (empty(m))
        return true;
    if (m.elements == NULL) {
        *must |= B(GPUTILE_ERROR_NULL_POINTER);
        return false;
    }
    if ((uintptr_t)m.elements % sizeof(float) != 0) { /* not a float pointer: gputile_matmul(3) */
        *must |= B(GPUTILE_ERROR_INVALID_VALUE);
        return false;
    }
    unsigned __int128 bytes = ((unsigned __int128)(m.height - 1) * m.stride + m.width) * 4;
    if (bytes > SIZE_MAX / 2 || (uintptr_t)m.elements + bytes > (unsigned __int128)UINTPTR_MAX) {
        *must |= B(GPUTILE_ERROR_OVERFLOW);
        return false;
    }
    return true;
}

static int cmp_addr(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return a < b ? -1 : a > b;
}

/* Do some element of x and some element of y share a byte? Counted element
 * by element for small views (*exact set); for large ones only whether the
 * address ranges meet is known (*ranges). Both valid and non-empty. */
#define BRUTE_LIMIT 1600
static bool shares_memory(gputile_matrix x, gputile_matrix y, bool *ranges, bool *exact)
{
    uintptr_t x0 = (uintptr_t)x.elements, y0 = (uintptr_t)y.elements;
    uintptr_t x1 = x0 + ((x.height - 1) * x.stride + x.width) * 4;
    uintptr_t y1 = y0 + ((y.height - 1) * y.stride + y.width) * 4;
    *ranges = x0 < y1 && y0 < x1;
    *exact = !*ranges;
    if (!*ranges || x.width * x.height > BRUTE_LIMIT || y.width * y.height > BRUTE_LIMIT)
        return *ranges;
    static uintptr_t xs[BRUTE_LIMIT];
    size_t n = 0;
    for (size_t i = 0; i < x.height; ++i)
        for (size_t j = 0; j < x.width; ++j)
            xs[n++] = x0 + (i * x.stride + j) * 4;
    qsort(xs, n, sizeof xs[0], cmp_addr);
    *exact = true;
    for (size_t i = 0; i < y.height; ++i)
        for (size_t j = 0; j < y.width; ++j) {
            uintptr_t a = y0 + (i * y.stride + j) * 4; /* shares a byte with [a - 3, a + 3] */
            size_t lo = 0, hi = n;                     /* the first xs[lo] >= a - 3 */
            while (lo < hi) {
                size_t mid = (lo + hi) / 2;
                if (xs[mid] + 3 < a)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < n && xs[lo] <= a + 3)
                return true;
        }
    return false;
}

/* The output o must not share memory with the input i (both valid). The
 * library is exact for views of one stride whose distance is whole
 * elements (gputile_matmul(3): ALIASING), and may answer by address ranges
 * otherwise. */
static void aliasing(gputile_matrix o, gputile_matrix i, unsigned *must, unsigned *may)
{
    if (empty(o) || empty(i))
        return;
    bool ranges, exact;
    bool shared = shares_memory(o, i, &ranges, &exact);
    bool same_grid =
        o.stride == i.stride && ((uintptr_t)o.elements - (uintptr_t)i.elements) % 4 == 0;
    if (exact && shared)
        *must |= B(GPUTILE_ERROR_ALIASING);
    else if (!exact || (ranges && !same_grid))
        *may |= B(GPUTILE_ERROR_ALIASING);
}

/* The verdict: `accepted` is the status the call must return when no
 * condition holds (NO_DEVICE at the device, or SUCCESS for a no-op). */
static void judge(const char *call, gputile_status s, unsigned must, unsigned may,
                  gputile_status accepted)
{
    if (fuzz_cuda_calls != 0 && must != 0)
        fail("asked the device before rejecting its arguments", call, s);
    if (must == 0 && s == accepted)
        return;
    if (s == GPUTILE_SUCCESS || (unsigned)s >= 32 || !((must | may) & B(s))) {
        char what[160];
        snprintf(what, sizeof what,
                 "status not justified by the arguments (must 0x%x, may 0x%x, "
                 "accepted %s)",
                 must, may, gputile_status_name(accepted));
        fail(what, call, s);
    }
    if (accepted == GPUTILE_ERROR_NO_DEVICE && s == GPUTILE_ERROR_NO_DEVICE && fuzz_cuda_calls == 0)
        fail("NO_DEVICE without asking the device", call, s);
}

/* ---- entry points --------------------------------------------------------------- */
static gputile_gemm_options *fz_gemm_options(reader *r)
{
    if (u8(r) % 4 == 0)
        return NULL;
    gputile_gemm_options *o = malloc(sizeof *o); /* exactly: ASan sees a read past it */
    *o = (gputile_gemm_options)GPUTILE_GEMM_OPTIONS_INIT;
    unsigned which = u8(r);
    if (which & 1)
        o->size = u8(r) % 2 ? sizeof *o - 4 * (u8(r) % 7) : fz_size(r);
    o->algorithm = which & 2 ? fz_i32(r) : (int32_t)(u8(r) % (N_ALGORITHMS + 1));
    if (which & 4)
        o->precision = u8(r) % 2 ? fz_i32(r) : (int32_t)(u8(r) % 3);
    o->split_k = which & 8 ? fz_i32(r) : (int32_t)(u8(r) % 9);
    o->algorithm_used = fz_i32(r);
    o->split_k_used = fz_i32(r);
    if (which & 16)
        o->reserved = fz_i32(r);
    return o;
}

static void gemm_options_oracle(const gputile_gemm_options *o, unsigned *must)
{
    if (o == NULL)
        return;
    /* gputile_matmul(3), Precisions: a named algorithm runs in the
     * precisions its rows of kernels/gemm_variants.h name (a wgmma algorithm
     * needs a TF32 precision, an FP32 algorithm FP32, and 3xTF32 runs on
     * 128x128 only), and takes a split of k where its row does */
    bool precision_ok = o->precision == GPUTILE_PRECISION_FP32 ||
                        o->precision == GPUTILE_PRECISION_FP32_3XTF32 ||
                        o->precision == GPUTILE_PRECISION_TF32;
    bool pair_ok = o->algorithm == GPUTILE_ALGO_AUTO, splits = o->algorithm == GPUTILE_ALGO_AUTO;
    for (size_t v = 0; v < sizeof rows / sizeof rows[0]; ++v)
        if (rows[v].algorithm == o->algorithm && rows[v].precision == o->precision) {
            pair_ok = true;
            splits = rows[v].flags & GPUTILE__GEMM_SPLITK;
        }
    if (o->size < sizeof *o || o->algorithm < 0 || o->algorithm >= N_ALGORITHMS || !precision_ok ||
        !pair_ok || o->reserved != 0 || o->split_k < 0 || o->split_k > GPUTILE_MAX_SPLIT_K ||
        (o->split_k > 1 && !splits))
        *must |= B(GPUTILE_ERROR_INVALID_VALUE);
}

static size_t op_rows(int t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.width : m.height;
}
static size_t op_cols(int t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.height : m.width;
}

static void fuzz_gemm(reader *r, bool matmul)
{
    int ta = GPUTILE_OP_N, tb = GPUTILE_OP_N;
    unsigned ops = u8(r);
    if (!matmul) {
        ta = ops & 1 ? fz_i32(r) : (int)(ops >> 1 & 1);
        tb = ops & 4 ? fz_i32(r) : (int)(ops >> 3 & 1);
    }
    gputile_matrix a = fz_matrix(r), b = fz_matrix(r), c = fz_matrix(r);
    if (u8(r) % 3 == 0) { /* make the shapes agree more often than chance would */
        c.height = op_rows(ta, a);
        c.width = op_cols(tb, b);
        if (u8(r) % 2)
            c.stride = c.width + u8(r) % 4;
    }
    float alpha = fz_float(r), beta = fz_float(r);
    gputile_gemm_options *o = matmul ? NULL : fz_gemm_options(r);
    gputile_gemm_options before;
    if (o)
        before = *o;

    unsigned must = 0, may = 0;
    gemm_options_oracle(o, &must);
    bool ops_ok =
        (ta == GPUTILE_OP_N || ta == GPUTILE_OP_T) && (tb == GPUTILE_OP_N || tb == GPUTILE_OP_T);
    if (!ops_ok)
        must |= B(GPUTILE_ERROR_INVALID_VALUE);
    bool ok_a = matrix_ok(a, &must), ok_b = matrix_ok(b, &must), ok_c = matrix_ok(c, &must);
    bool ok = ok_a && ok_b && ok_c;
    if (ops_ok && (op_rows(ta, a) != c.height || op_cols(tb, b) != c.width ||
                   op_cols(ta, a) != op_rows(tb, b)))
        must |= B(GPUTILE_ERROR_SHAPE_MISMATCH);
    if (ok) {
        aliasing(c, a, &must, &may);
        aliasing(c, b, &must, &may);
    }

    fuzz_cuda_calls = 0;
    gputile_status s =
        matmul ? gputile_matmul(a, b, c)
               : gputile_gemm((gputile_op)ta, (gputile_op)tb, alpha, a, b, beta, c, NULL, o);
    const char *call = matmul ? "gputile_matmul" : "gputile_gemm";
    judge(call, s, must, may, empty(c) ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
    if (o && s != GPUTILE_SUCCESS && memcmp(o, &before, sizeof before) != 0)
        fail("wrote the options of a failed call", call, s);
    if (o && s == GPUTILE_SUCCESS) {
        if (o->size != before.size || o->algorithm != before.algorithm ||
            o->precision != before.precision || o->split_k != before.split_k ||
            o->reserved != before.reserved)
            fail("changed an input field of the options", call, s);
        if (o->algorithm_used < GPUTILE_ALGO_NAIVE || o->algorithm_used >= N_ALGORITHMS ||
            (o->algorithm != GPUTILE_ALGO_AUTO && o->algorithm_used != o->algorithm))
            fail("algorithm_used is not the algorithm requested or a named one", call, s);
        if (o->split_k_used < 1 || (o->split_k > 0 && o->split_k_used > o->split_k))
            fail("split_k_used outside 1..split_k", call, s);
    }
    free(o);
}

static void fuzz_matrix_copy(reader *r)
{
    gputile_matrix d = fz_matrix(r), s0 = fz_matrix(r);
    if (u8(r) % 2) {
        d.width = s0.width;
        d.height = s0.height;
    }
    unsigned must = 0, may = 0;
    bool ok_d = matrix_ok(d, &must), ok_s = matrix_ok(s0, &must);
    bool ok = ok_d && ok_s;
    if (d.width != s0.width || d.height != s0.height)
        must |= B(GPUTILE_ERROR_SHAPE_MISMATCH);
    if (ok)
        aliasing(d, s0, &must, &may);
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_matrix_copy(d, s0, NULL);
    judge("gputile_matrix_copy", s, must, may,
          empty(s0) ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
}

static gputile_histogram_options *fz_hist_options(reader *r)
{
    if (u8(r) % 4 == 0)
        return NULL;
    gputile_histogram_options *o = malloc(sizeof *o);
    *o = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    unsigned which = u8(r);
    if (which & 1)
        o->size = u8(r) % 2 ? sizeof *o - 4 * (u8(r) % 9) : fz_size(r);
    o->tier = which & 2 ? fz_i32(r) : (int32_t)(u8(r) % 4);
    o->cluster_size = which & 4 ? fz_i32(r) : (int32_t)(u8(r) % 18);
    if (which & 8)
        o->reserved = fz_i32(r);
    o->tier_used = fz_i32(r);
    o->blocks_used = fz_i32(r);
    return o;
}

static void hist_options_oracle(const gputile_histogram_options *o, unsigned *must)
{
    if (o == NULL)
        return;
    if (o->size < sizeof *o || o->tier < GPUTILE_HIST_TIER_AUTO ||
        o->tier > GPUTILE_HIST_TIER_SEED || o->reserved != 0 || o->cluster_size < 0 ||
        o->cluster_size > 16 ||
        (o->cluster_size != 0 && o->tier != GPUTILE_HIST_TIER_DSM &&
         o->tier != GPUTILE_HIST_TIER_SEED))
        *must |= B(GPUTILE_ERROR_INVALID_VALUE);
}

static bool wraps(const void *p, unsigned __int128 bytes)
{
    return (uintptr_t)p + bytes > (unsigned __int128)UINTPTR_MAX;
}

static void fuzz_histogram(reader *r, bool is_float, bool plan)
{
    const void *samples = fz_ptr(r);
    size_t n = u8(r) % 2 ? u8(r) % 64 : fz_size(r);
    int32_t nbins = u8(r) % 2 ? (int32_t)(u8(r) % 40) : fz_i32(r);
    uint64_t *counts = fz_ptr(r);
    int mode = u8(r) % 4 == 0 ? fz_i32(r) : (int)(u8(r) % 2);
    float lower = fz_float(r), upper = fz_float(r);
    gputile_histogram_options *o = fz_hist_options(r);
    gputile_histogram_options before;
    if (o)
        before = *o;

    unsigned must = 0, may = 0;
    gputile_status s;
    const char *call;
    hist_options_oracle(o, &must);
    if (nbins <= 0)
        must |= B(GPUTILE_ERROR_INVALID_VALUE);
    if (plan) {
        call = "gputile_histogram_plan";
        if (o == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_histogram_plan(nbins, o);
    } else {
        if (is_float &&
            (!isfinite(lower) || !isfinite(upper) || !(lower < upper) || !isfinite(upper - lower)))
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        if (mode != GPUTILE_HIST_OVERWRITE && mode != GPUTILE_HIST_ACCUMULATE)
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        if (counts == NULL || (samples == NULL && n != 0))
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if ((uintptr_t)counts % 8 != 0 || (uintptr_t)samples % 4 != 0)
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        unsigned __int128 sbytes = (unsigned __int128)n * 4;
        unsigned __int128 cbytes = nbins > 0 ? (unsigned __int128)nbins * 8 : 0;
        if (sbytes > SIZE_MAX / 2 || wraps(samples, sbytes) || wraps(counts, cbytes))
            must |= B(GPUTILE_ERROR_OVERFLOW);
        else if (sbytes != 0 && cbytes != 0 && (uintptr_t)samples < (uintptr_t)counts + cbytes &&
                 (uintptr_t)counts < (uintptr_t)samples + sbytes)
            must |= B(GPUTILE_ERROR_ALIASING);
        fuzz_cuda_calls = 0;
        if (is_float) {
            call = "gputile_histogram_f32";
            s = gputile_histogram_f32(samples, n, lower, upper, nbins, counts,
                                      (gputile_hist_mode)mode, NULL, o);
        } else {
            call = "gputile_histogram_i32";
            s = gputile_histogram_i32(samples, n, nbins, counts, (gputile_hist_mode)mode, NULL, o);
        }
    }
    judge(call, s, must, may, GPUTILE_ERROR_NO_DEVICE);
    if (o && memcmp(o, &before, sizeof before) != 0)
        fail("wrote the options of a failed call", call, s);
    free(o);
}

/* ---- histograms of images (issue 19) ----
 * The input struct, per-channel bins or edges (heap arrays of exactly
 * `channels` entries, edges arrays of exactly nedges values), counts
 * pointers; the oracle from gputile_histogram_even(3). */
static double fz_double(reader *r)
{
    switch (u8(r) % 4) {
    case 0:
        return (double)fz_float(r);
    case 1:
        return (double)((int)(u8(r) % 300) - 20);
    case 2:
        return (u8(r) % 2 ? -1.0 : 1.0) * (8589934592.0 + (double)((int)(u8(r) % 5) - 2));
    default: {
        uint64_t bits = take(r, 8);
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    }
}

static void fuzz_histogram_image(reader *r, bool range)
{
    static const size_t size_of[] = {1, 2, 2, 4, 4};
    const int32_t type = u8(r) % 8 == 0 ? fz_i32(r) : (int32_t)(u8(r) % 5);
    const int32_t channels = u8(r) % 8 == 0 ? fz_i32(r) : (int32_t)(u8(r) % 4) + 1;
    const bool good_header = type >= 0 && type <= 4 && channels >= 1 && channels <= 4;
    const int nch = good_header ? channels : 4; /* array entries to allocate */
    gputile_hist_input *in = malloc(sizeof *in);
    *in = (gputile_hist_input)GPUTILE_HIST_INPUT_INIT;
    if (u8(r) % 16 == 0)
        in->size = u8(r) % 2 ? sizeof *in - 8 : fz_size(r);
    in->samples = fz_ptr(r);
    in->type = type;
    in->channels = channels;
    in->width = u8(r) % 2 ? u8(r) % 24 : fz_size(r);
    in->height = u8(r) % 2 ? u8(r) % 24 : fz_size(r);
    const size_t row =
        good_header && in->width <= 64 ? in->width * (size_t)channels * size_of[type] : 0;
    in->row_stride_bytes = u8(r) % 2 ? row + u8(r) % 20 - 4 : fz_size(r);
    uint64_t **counts = u8(r) % 16 == 0 ? NULL : malloc((size_t)nch * sizeof *counts);
    gputile_hist_even *levels = NULL;
    int32_t *nedges = NULL;
    double **edges = NULL;
    if (counts)
        for (int c = 0; c < nch; ++c)
            counts[c] = fz_ptr(r);
    if (!range && u8(r) % 16 != 0) {
        levels = malloc((size_t)nch * sizeof *levels);
        for (int c = 0; c < nch; ++c) {
            levels[c].nbins = u8(r) % 2 ? (int32_t)(u8(r) % 40) : fz_i32(r);
            levels[c].reserved = u8(r) % 16 == 0 ? fz_i32(r) : 0;
            levels[c].lower = fz_double(r);
            levels[c].upper = u8(r) % 2 ? levels[c].lower + (double)(u8(r) % 300) : fz_double(r);
        }
    }
    if (range && u8(r) % 16 != 0) {
        nedges = malloc((size_t)nch * sizeof *nedges);
        edges = malloc((size_t)nch * sizeof *edges);
        for (int c = 0; c < nch; ++c) {
            nedges[c] = u8(r) % 4 ? (int32_t)(u8(r) % 12) : fz_i32(r);
            edges[c] = NULL;
            if (u8(r) % 16 != 0 && nedges[c] >= 0 && nedges[c] <= 12) {
                edges[c] = malloc((size_t)(nedges[c] ? nedges[c] : 1) * sizeof(double));
                double x = fz_double(r);
                for (int32_t i = 0; i < nedges[c]; ++i) {
                    edges[c][i] = x;
                    x = u8(r) % 8 ? x + (double)(u8(r) % 50) / 4.0 : fz_double(r);
                }
            }
        }
    }
    const int mode = u8(r) % 8 == 0 ? fz_i32(r) : (int)(u8(r) % 2);
    gputile_histogram_options *o = fz_hist_options(r);
    gputile_histogram_options before;
    if (o)
        before = *o;

    /* the oracle, in the man page's words */
    unsigned must = 0;
    const unsigned I = B(GPUTILE_ERROR_INVALID_VALUE), NUL = B(GPUTILE_ERROR_NULL_POINTER);
    if (in->size < sizeof *in || !good_header)
        must |= I;
    if (counts == NULL || (range ? nedges == NULL || edges == NULL : levels == NULL))
        must |= NUL;
    hist_options_oracle(o, &must);
    if (mode != GPUTILE_HIST_OVERWRITE && mode != GPUTILE_HIST_ACCUMULATE)
        must |= I;
    if (must == 0) {
        const size_t size = size_of[type];
        const bool empty = in->width == 0 || in->height == 0;
        unsigned __int128 nbins[4];
        for (int c = 0; c < channels; ++c) {
            if (range) {
                const int32_t n = nedges[c];
                nbins[c] = n > 1 ? (unsigned __int128)(n - 1) : 0;
                if (n < 2 || n > GPUTILE_HIST_MAX_BINS + 1)
                    must |= I;
                else if (edges[c] == NULL)
                    must |= NUL;
                else
                    for (int32_t i = 0; i < n; ++i)
                        if (!isfinite(edges[c][i]) || (i > 0 && !(edges[c][i - 1] < edges[c][i])))
                            must |= I;
            } else {
                const gputile_hist_even *e = &levels[c];
                nbins[c] = e->nbins > 0 ? (unsigned __int128)e->nbins : 0;
                if (e->nbins < 1 || e->nbins > GPUTILE_HIST_MAX_BINS || e->reserved != 0 ||
                    !isfinite(e->lower) || !isfinite(e->upper) || !(e->lower < e->upper) ||
                    !isfinite(e->upper - e->lower))
                    must |= I;
                else if (type != GPUTILE_SAMPLE_F32 &&
                         (floor(e->lower) != e->lower || floor(e->upper) != e->upper ||
                          e->lower < -8589934592.0 || e->upper > 8589934592.0))
                    must |= I;
            }
        }
        if (must == 0) {
            for (int c = 0; c < channels; ++c)
                if (counts[c] == NULL)
                    must |= NUL;
            if (!empty && in->samples == NULL)
                must |= NUL;
            for (int c = 0; c < channels; ++c)
                if ((uintptr_t)counts[c] % 8 != 0)
                    must |= I;
            if ((uintptr_t)in->samples % size != 0 || in->row_stride_bytes % size != 0)
                must |= I;
            const unsigned __int128 rowb =
                (unsigned __int128)in->width * (unsigned __int128)channels * size;
            const unsigned __int128 extent =
                empty ? 0 : (unsigned __int128)(in->height - 1) * in->row_stride_bytes + rowb;
            if (rowb > SIZE_MAX / 2 || extent > SIZE_MAX / 2 || wraps(in->samples, extent))
                must |= B(GPUTILE_ERROR_OVERFLOW);
            if (!empty && in->height > 1 && in->row_stride_bytes < rowb)
                must |= I;
            for (int c = 0; c < channels; ++c)
                if (wraps(counts[c], nbins[c] * 8))
                    must |= B(GPUTILE_ERROR_OVERFLOW);
            if (!(must & B(GPUTILE_ERROR_OVERFLOW)))
                for (int c = 0; c < channels; ++c) {
                    const uintptr_t a = (uintptr_t)counts[c];
                    const unsigned __int128 ab = nbins[c] * 8;
                    const uintptr_t sp = (uintptr_t)in->samples;
                    if (extent && ab && sp < a + ab && a < sp + extent)
                        must |= B(GPUTILE_ERROR_ALIASING);
                    for (int d = 0; d < c; ++d) {
                        const uintptr_t b = (uintptr_t)counts[d];
                        const unsigned __int128 bb = nbins[d] * 8;
                        if (ab && bb && a < b + bb && b < a + ab)
                            must |= B(GPUTILE_ERROR_ALIASING);
                    }
                }
        }
    }
    /* Several conditions at once: whichever the library checks first is
     * right, so any of them. */
    fuzz_cuda_calls = 0;
    const char *call = range ? "gputile_histogram_range" : "gputile_histogram_even";
    gputile_status s =
        range ? gputile_histogram_range(in, nedges, (const double *const *)edges, counts,
                                        (gputile_hist_mode)mode, NULL, o)
              : gputile_histogram_even(in, levels, counts, (gputile_hist_mode)mode, NULL, o);
    judge(call, s, must, 0, GPUTILE_ERROR_NO_DEVICE);
    if (o && memcmp(o, &before, sizeof before) != 0)
        fail("wrote the options of a failed call", call, s);
    free(o);
    if (edges)
        for (int c = 0; c < nch; ++c)
            free(edges[c]);
    free(edges);
    free(nedges);
    free(levels);
    free(counts);
    free(in);
}

static unsigned fz_flags(reader *r)
{
    return u8(r) % 3 == 0 ? (unsigned)take(r, 4) : u8(r) % 8;
}

/* Out pointers start with this value; a failed call must leave it. */
#define UNTOUCHED ((void *)(uintptr_t)0x5eed)

static void check_out(const char *call, gputile_status s, void **out)
{
    if (out != NULL && *out != UNTOUCHED)
        fail("wrote the out pointer of a failed call", call, s);
}

static void fuzz_pinned(reader *r)
{
    void *slot = UNTOUCHED;
    void **out = u8(r) % 5 == 0 ? NULL : &slot;
    void *p = fz_ptr(r);
    size_t bytes = u8(r) % 2 ? u8(r) % 9 : fz_size(r);
    unsigned flags = fz_flags(r);
    unsigned must = 0, may = 0;
    gputile_status s;
    const char *call;
    const long page = sysconf(_SC_PAGESIZE);

    switch (u8(r) % 9) {
    case 0:
        call = "gputile_pinned_alloc";
        if (out == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if (bytes == 0 || (flags & ~7u))
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        fuzz_cuda_calls = 0;
        s = gputile_pinned_alloc(out, bytes, flags);
        judge(call, s, must, may, GPUTILE_ERROR_NO_DEVICE);
        break;
    case 1:
        call = "gputile_pool_alloc";
        if (out == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if (bytes == 0 || (flags & ~7u))
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        else if (bytes > (size_t)page) { /* size classes: 4 per power of two */
            unsigned lg = 63u - (unsigned)__builtin_clzll((unsigned long long)(bytes - 1));
            unsigned __int128 step = (unsigned __int128)1 << (lg - 2);
            if ((bytes + step - 1) / step * step > SIZE_MAX)
                must |= B(GPUTILE_ERROR_OVERFLOW);
        }
        fuzz_cuda_calls = 0;
        s = gputile_pool_alloc(out, bytes, flags);
        judge(call, s, must, may, GPUTILE_ERROR_NO_DEVICE);
        break;
    case 2:
        call = "gputile_pinned_register";
        if (p == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if (bytes == 0 || (flags & ~3u))
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        if (p != NULL && (uintptr_t)p + (unsigned __int128)bytes + (unsigned)(page - 1) >
                             (unsigned __int128)UINTPTR_MAX)
            must |= B(GPUTILE_ERROR_OVERFLOW);
        fuzz_cuda_calls = 0;
        s = gputile_pinned_register(p, bytes, flags);
        judge(call, s, must, may, GPUTILE_ERROR_NO_DEVICE);
        break;
    case 3: /* nothing was ever pinned: every non-NULL pointer is unknown */
        call = "gputile_pinned_unregister";
        must |= p == NULL ? B(GPUTILE_ERROR_NULL_POINTER) : B(GPUTILE_ERROR_UNKNOWN_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_pinned_unregister(p);
        judge(call, s, must, may, GPUTILE_SUCCESS);
        break;
    case 4:
        call = "gputile_pinned_free";
        if (p != NULL)
            must |= B(GPUTILE_ERROR_UNKNOWN_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_pinned_free(p);
        judge(call, s, must, may, GPUTILE_SUCCESS);
        break;
    case 5:
        call = "gputile_pool_free";
        if (p != NULL)
            must |= B(GPUTILE_ERROR_UNKNOWN_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_pool_free(p);
        judge(call, s, must, may, GPUTILE_SUCCESS);
        break;
    case 6:
        call = "gputile_pinned_device_pointer";
        if (out == NULL || p == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        else
            must |= B(GPUTILE_ERROR_UNKNOWN_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_pinned_device_pointer(out, p);
        judge(call, s, must, may, GPUTILE_SUCCESS);
        break;
    case 7:
        call = "gputile_device_alloc";
        if (out == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if (bytes == 0)
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        fuzz_cuda_calls = 0;
        s = gputile_device_alloc(out, bytes);
        judge(call, s, must, may, GPUTILE_ERROR_NO_DEVICE);
        break;
    default: {
        call = "gputile_copy";
        void *src = fz_ptr(r);
        if (p == NULL || src == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        else if (bytes != 0) {
            if (wraps(p, bytes) || wraps(src, bytes))
                must |= B(GPUTILE_ERROR_OVERFLOW);
            else if ((uintptr_t)p < (uintptr_t)src + bytes && (uintptr_t)src < (uintptr_t)p + bytes)
                must |= B(GPUTILE_ERROR_ALIASING);
        }
        fuzz_cuda_calls = 0;
        s = gputile_copy(p, src, bytes, NULL);
        judge(call, s, must, may,
              p != NULL && src != NULL && bytes == 0 ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
        break;
    }
    }
    if (s != GPUTILE_SUCCESS)
        check_out(call, s, out);
}

/* gputile_pool_get_stats() writes the fields its size covers, and nothing
 * beyond them (a caller may know a smaller or larger struct). */
static void fuzz_pool_stats(reader *r)
{
    size_t limit = u8(r) % 2 ? fz_size(r) : GPUTILE_POOL_DEFAULT_LIMIT;
    gputile_status s = gputile_pool_set_limit(limit);
    if (s != GPUTILE_SUCCESS) /* nothing is cached: nothing to free */
        fail("setting the limit of an empty pool failed", "gputile_pool_set_limit", s);
    enum { ROOM = sizeof(gputile_pool_stats) + 32 };
    unsigned char *buf = malloc(ROOM), before[ROOM];
    memset(buf, POISON, ROOM);
    size_t size = u8(r) % 2 ? u8(r) % ROOM : fz_size(r);
    memcpy(buf, &size, sizeof size);
    memcpy(before, buf, ROOM);
    gputile_pool_stats *st = u8(r) % 8 == 0 ? NULL : (gputile_pool_stats *)(void *)buf;
    unsigned must = 0;
    if (st == NULL)
        must |= B(GPUTILE_ERROR_NULL_POINTER);
    else if (size < 2 * sizeof(size_t)) /* at least size and limit */
        must |= B(GPUTILE_ERROR_INVALID_VALUE);
    fuzz_cuda_calls = 0;
    s = gputile_pool_get_stats(st);
    judge("gputile_pool_get_stats", s, must, 0, GPUTILE_SUCCESS);
    size_t written = s != GPUTILE_SUCCESS ? 0 : size < sizeof *st ? size : sizeof *st;
    if (memcmp(buf + written, before + written, ROOM - written) != 0)
        fail("wrote past the size its caller gave", "gputile_pool_get_stats", s);
    if (s == GPUTILE_SUCCESS) {
        gputile_pool_stats got = {0};
        memcpy(&got, buf, written);
        if (got.size != size || got.limit != limit || (written >= 32 && got.in_use_blocks != 0))
            fail("size, limit or blocks in use not as set", "gputile_pool_get_stats", s);
    }
    free(buf);
}

static void fuzz_names(reader *r)
{
    int v = fz_i32(r);
    bool status = v >= 0 && v < GPUTILE_STATUS_END_;
    if (gputile_strerror(v) == NULL || gputile_status_name(v) == NULL)
        fail("NULL text", "gputile_strerror", (gputile_status)0);
    if (status != (strcmp(gputile_status_name(v), "GPUTILE_UNKNOWN") != 0))
        fail("name of a status", "gputile_status_name", (gputile_status)0);
    if ((gputile_algorithm_name(v) != NULL) != (v >= 0 && v < N_ALGORITHMS))
        fail("name of an algorithm", "gputile_algorithm_name", (gputile_status)0);
    if ((gputile_hist_tier_name(v) != NULL) != (v >= 0 && v <= GPUTILE_HIST_TIER_SEED))
        fail("name of a tier", "gputile_hist_tier_name", (gputile_status)0);
}

/* The facade's checked sub-matrix, on parents that describe real memory
 * (the arena), at any row, column and size. */
static void fuzz_submatrix(reader *r)
{
    gputile_matrix m = {u8(r) % 64, u8(r) % 64, 0, NULL};
    unsigned d = u8(r);
    m.stride = d < 16 && m.width > 2 ? m.width - (d % 3) : m.width + d % 8;
    if (m.stride >= m.width && m.height != 0 &&
        ((m.height - 1) * m.stride + m.width) * 4 > ARENA_BYTES) /* keep it inside the arena */
        m.height = ARENA_BYTES / 4 / (m.stride + 1);
    m.elements = u8(r) % 8 == 0 ? NULL : (float *)(void *)arena;
    size_t row = fz_size(r), col = fz_size(r), w = fz_size(r), h = fz_size(r);
    gputile_matrix out = {1, 2, 3, (float *)UNTOUCHED}, before = out;
    gputile_matrix *pout = u8(r) % 8 == 0 ? NULL : &out;
    unsigned must = 0;
    if (pout == NULL || m.elements == NULL)
        must |= B(GPUTILE_ERROR_NULL_POINTER);
    else if (m.stride < m.width)
        must |= B(GPUTILE_ERROR_INVALID_MATRIX);
    else if ((unsigned __int128)row + h > m.height || (unsigned __int128)col + w > m.width)
        must |= B(GPUTILE_ERROR_OUT_OF_BOUNDS);
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_submatrix(m, row, col, w, h, pout);
    judge("gputile_submatrix", s, must, 0, GPUTILE_SUCCESS);
    if (s != GPUTILE_SUCCESS && memcmp(&out, &before, sizeof out) != 0)
        fail("wrote *out of a failed call", "gputile_submatrix", s);
    if (s == GPUTILE_SUCCESS && (out.width != w || out.height != h || out.stride != m.stride))
        fail("view of the wrong shape", "gputile_submatrix", s);
    if (s == GPUTILE_SUCCESS && w && h && out.elements != m.elements + row * m.stride + col)
        fail("view at the wrong place", "gputile_submatrix", s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    memset(arena, POISON, sizeof arena);
    const unsigned pick = u8(&r);
    /* >= 240: the image calls (so the other entries keep their corpus) */
    switch (pick >= 240 ? 10 + pick % 2 : pick % 10) {
    case 10:
        fuzz_histogram_image(&r, false);
        break;
    case 11:
        fuzz_histogram_image(&r, true);
        break;
    case 0:
        fuzz_gemm(&r, false);
        break;
    case 1:
        fuzz_gemm(&r, true);
        break;
    case 2:
        fuzz_matrix_copy(&r);
        break;
    case 3:
        fuzz_histogram(&r, false, false);
        break;
    case 4:
        fuzz_histogram(&r, true, false);
        break;
    case 5:
        fuzz_histogram(&r, false, true);
        break;
    case 6:
        fuzz_pinned(&r);
        break;
    case 7:
        fuzz_pool_stats(&r);
        break;
    case 8:
        fuzz_names(&r);
        break;
    default:
        fuzz_submatrix(&r);
        break;
    }
    memset(arena_copy, POISON, sizeof arena_copy);
    if (memcmp(arena, arena_copy, sizeof arena) != 0)
        fail("wrote into memory it was given", "a call", (gputile_status)0);
    return 0;
}
