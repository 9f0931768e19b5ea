/* SPDX-License-Identifier: MIT */
/*
 * fuzz_args.c: libFuzzer target for the argument checks of every public
 * entry point (`make fuzz'; tests/fuzz/README).
 *
 * The input is read as a choice of entry point followed by its arguments:
 * sizes (small, boundary and raw 64-bit values), pointers (NULL, into a
 * poisoned arena at any byte offset, or raw addresses up to the top of the
 * address space), floats (NaN, infinities, raw bits), options structs with
 * every field fuzzed, and arrays (batches of views, device lists), in heap
 * blocks of exactly their size (AddressSanitizer catches a read past them). The library is linked against cuda_stub.c: a
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
 *    ranges for views of different strides or misaligned offsets, or
 *    across the problems of a batch), and conditions whose status the man
 *    page leaves open (a batch of none, an algorithm that takes no batches).
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

/* Does the float at a share a byte with one of the floats at xs[0..n)
 * (sorted), i.e. is some xs[i] in [a - 3, a + 3]? */
static bool near(const uintptr_t *xs, size_t n, uintptr_t a)
{
    size_t lo = 0, hi = n; /* the first xs[lo] >= a - 3 */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (xs[mid] + 3 < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && xs[lo] <= a + 3;
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
        for (size_t j = 0; j < y.width; ++j)
            if (near(xs, n, y0 + (i * y.stride + j) * 4))
                return true;
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

/* fz_gemm_options(), with a copy of what the call is given in *before
 * (when not NULL) to compare the options with after it. */
static gputile_gemm_options *fz_gemm_options_kept(reader *r, gputile_gemm_options *before)
{
    gputile_gemm_options *o = fz_gemm_options(r);
    if (o)
        *before = *o;
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

/* The options after the call (before: as the caller passed them): untouched
 * on failure; on success only the *_used fields change, to what
 * gputile_matmul(3) says they report. */
static void gemm_options_after(const char *call, gputile_status s, const gputile_gemm_options *o,
                               const gputile_gemm_options *before)
{
    if (o && s != GPUTILE_SUCCESS && memcmp(o, before, sizeof *before) != 0)
        fail("wrote the options of a failed call", call, s);
    if (o && s == GPUTILE_SUCCESS) {
        if (o->size != before->size || o->algorithm != before->algorithm ||
            o->precision != before->precision || o->split_k != before->split_k ||
            o->reserved != before->reserved)
            fail("changed an input field of the options", call, s);
        if (o->algorithm_used < GPUTILE_ALGO_NAIVE || o->algorithm_used >= N_ALGORITHMS ||
            (o->algorithm != GPUTILE_ALGO_AUTO && o->algorithm_used != o->algorithm))
            fail("algorithm_used is not the algorithm requested or a named one", call, s);
        if (o->split_k_used < 1 || (o->split_k > 0 && o->split_k_used > o->split_k))
            fail("split_k_used outside 1..split_k", call, s);
    }
}

static size_t op_rows(int t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.width : m.height;
}
static size_t op_cols(int t, gputile_matrix m)
{
    return t == GPUTILE_OP_T ? m.height : m.width;
}

/* Makes C's shape agree with op(A) op(B) more often than chance would. */
static void agree(reader *r, int ta, int tb, gputile_matrix a, gputile_matrix b, gputile_matrix *c)
{
    if (u8(r) % 3 == 0) {
        c->height = op_rows(ta, a);
        c->width = op_cols(tb, b);
        if (u8(r) % 2)
            c->stride = c->width + u8(r) % 4;
    }
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
    agree(r, ta, tb, a, b, &c);
    float alpha = fz_float(r), beta = fz_float(r);
    gputile_gemm_options before;
    gputile_gemm_options *o = matmul ? NULL : fz_gemm_options_kept(r, &before);

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
    gemm_options_after(call, s, o, &before);
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
        else if (is_float && nbins > 0 &&
                 !isfinite((float)((double)nbins / ((double)upper - (double)lower))))
            must |= B(GPUTILE_ERROR_INVALID_VALUE); /* the scale overflows float */
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
                else if (type == GPUTILE_SAMPLE_F32 &&
                         !isfinite((double)e->nbins / (e->upper - e->lower)))
                    must |= I; /* the scale overflows double */
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
            if ((uintptr_t)in->samples % size != 0 ||
                (!empty && in->height > 1 && in->row_stride_bytes % size != 0))
                must |= I; /* (the stride is not read for one row) */
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

/* ---- batched GEMM (issue 20) ------------------------------------------------------
 * gputile_gemm_strided_batched() and gputile_gemm_batched(); the oracle from
 * the header's batched section and gputile_gemm_batched(3). Each problem
 * is checked as gputile_gemm()'s (`must'). count = 0 is a no-op that the
 * page does not order against the checks, so there every condition is
 * `may'. What only a batch has (a C footprint above stride_c, a batch past
 * the address space) is `must' for a non-empty C and `may' for an empty
 * one (a no-op). C sharing elements with another problem's operand is
 * `must' (counted element by element for small batches); meeting address
 * ranges across the problems of a batch are `may' (conservative, as the
 * page allows). */

/* The algorithms a batch runs (the page: the BATCHED, REGBLOCK and ASYNC ones). */
static bool batch_algorithm(int32_t algorithm)
{
    switch (algorithm) {
    case GPUTILE_ALGO_REGBLOCK_128:
    case GPUTILE_ALGO_REGBLOCK_64:
    case GPUTILE_ALGO_REGBLOCK_128_W64:
    case GPUTILE_ALGO_REGBLOCK_128X256:
    case GPUTILE_ALGO_REGBLOCK_64X128:
    case GPUTILE_ALGO_REGBLOCK_64X128_X3:
    case GPUTILE_ALGO_BATCHED_16:
    case GPUTILE_ALGO_BATCHED_32:
    case GPUTILE_ALGO_BATCHED_64:
    case GPUTILE_ALGO_BATCHED_8X64:
    case GPUTILE_ALGO_BATCHED_64X8:
    case GPUTILE_ALGO_BATCHED_8X32:
    case GPUTILE_ALGO_BATCHED_32X8:
    case GPUTILE_ALGO_BATCHED_16_KSPLIT:
    case GPUTILE_ALGO_BATCHED_32_KSPLIT:
    case GPUTILE_ALGO_ASYNC_128X128:
    case GPUTILE_ALGO_ASYNC_128X256:
    case GPUTILE_ALGO_ASYNC_64X128:
    case GPUTILE_ALGO_ASYNC_128X64:
    case GPUTILE_ALGO_ASYNC_64X64:
    case GPUTILE_ALGO_ASYNC_128X32:
    case GPUTILE_ALGO_ASYNC_32X128:
    case GPUTILE_ALGO_ASYNC_64X64_W8:
    case GPUTILE_ALGO_ASYNC_64X32:
    case GPUTILE_ALGO_ASYNC_32X64:
        return true;
    default:
        return false;
    }
}

/* A batch's options: each field as in gputile_gemm(3) (must). split_k is
 * not used by batches and the TF32 precisions run the FP32 rows, so
 * gputile_gemm()'s rules on the algorithm-precision pair and on the split
 * may apply or not (may). A named algorithm that takes no batches is
 * UNSUPPORTED, which the page does not order before the device's answer
 * (may). */
static void batched_options_oracle(const gputile_gemm_options *o, unsigned *must, unsigned *may)
{
    if (o == NULL)
        return;
    unsigned gemm = 0;
    gemm_options_oracle(o, &gemm);
    if (o->size < sizeof *o || o->algorithm < 0 || o->algorithm >= N_ALGORITHMS ||
        (o->precision != GPUTILE_PRECISION_FP32 && o->precision != GPUTILE_PRECISION_FP32_3XTF32 &&
         o->precision != GPUTILE_PRECISION_TF32) ||
        o->reserved != 0)
        *must |= B(GPUTILE_ERROR_INVALID_VALUE);
    *may |= gemm;
    if (o->algorithm != GPUTILE_ALGO_AUTO && !batch_algorithm(o->algorithm))
        *may |= B(GPUTILE_ERROR_UNSUPPORTED);
}

/* A batch's options after the call: untouched on failure; on success the
 * input fields unchanged and, where the call reports a plan (a no-op may
 * not), split_k_used 1 and the algorithm named, or for AUTO one that runs
 * batches. */
static void batched_options_after(const char *call, gputile_status s, const gputile_gemm_options *o,
                                  const gputile_gemm_options *before)
{
    if (o == NULL)
        return;
    if (s != GPUTILE_SUCCESS) {
        if (memcmp(o, before, sizeof *before) != 0)
            fail("wrote the options of a failed call", call, s);
        return;
    }
    if (o->size != before->size || o->algorithm != before->algorithm ||
        o->precision != before->precision || o->split_k != before->split_k ||
        o->reserved != before->reserved)
        fail("changed an input field of the options", call, s);
    if (o->algorithm_used == before->algorithm_used && o->split_k_used == before->split_k_used)
        return;
    if (o->split_k_used != 1)
        fail("split_k_used of a batch is not 1", call, s);
    if (o->algorithm == GPUTILE_ALGO_AUTO ? !batch_algorithm(o->algorithm_used)
                                          : o->algorithm_used != o->algorithm)
        fail("algorithm_used is not the algorithm named or one that runs batches", call, s);
}

static void fz_ops(reader *r, int *ta, int *tb)
{
    unsigned ops = u8(r);
    *ta = ops & 1 ? fz_i32(r) : (int)(ops >> 1 & 1);
    *tb = ops & 4 ? fz_i32(r) : (int)(ops >> 3 & 1);
}

/* One problem's conditions as gputile_gemm()'s, but for aliasing:
 * transposes, each matrix on its own (ok[0..2]: a, b, c valid), shapes. */
static void problem_oracle(int ta, int tb, gputile_matrix a, gputile_matrix b, gputile_matrix c,
                           bool ok[3], unsigned *must)
{
    bool ops_ok =
        (ta == GPUTILE_OP_N || ta == GPUTILE_OP_T) && (tb == GPUTILE_OP_N || tb == GPUTILE_OP_T);
    if (!ops_ok)
        *must |= B(GPUTILE_ERROR_INVALID_VALUE);
    ok[0] = matrix_ok(a, must);
    ok[1] = matrix_ok(b, must);
    ok[2] = matrix_ok(c, must);
    if (ops_ok && (op_rows(ta, a) != c.height || op_cols(tb, b) != c.width ||
                   op_cols(ta, a) != op_rows(tb, b)))
        *must |= B(GPUTILE_ERROR_SHAPE_MISMATCH);
}

/* Elements from m's first to its last, inclusive; unsigned arithmetic, so
 * anything for an invalid m. */
static size_t footprint(gputile_matrix m)
{
    return (m.height ? (m.height - 1) * m.stride : 0) + m.width;
}

/* A batch stride: 0 (one matrix for every problem), about the footprint
 * (problems side by side, or overlapping by an element or two), twice it,
 * small, or anything. */
static size_t fz_batch_stride(reader *r, gputile_matrix m)
{
    switch (u8(r) % 6) {
    case 0:
        return 0;
    case 1:
    case 2:
        return footprint(m) + u8(r) % 6 - 2;
    case 3:
        return 2 * footprint(m);
    case 4:
        return u8(r) % 100;
    default:
        return fz_size(r);
    }
}

static size_t fz_count(reader *r)
{
    switch (u8(r) % 4) {
    case 0:
        return u8(r) % 3;
    case 1:
        return u8(r) % 6;
    case 2:
        return u8(r) % 72;
    default:
        return fz_size(r);
    }
}

/* The bytes `count` (>= 1) problems of m span, `stride` elements apart
 * (from the first problem's start to the last's end; an empty matrix
 * spans nothing), saturated at 2^100. */
static unsigned __int128 batch_bytes(gputile_matrix m, size_t stride, size_t count)
{
    const unsigned __int128 e =
        (unsigned __int128)(count - 1) * stride + (empty(m) ? 0 : footprint(m));
    return e > (unsigned __int128)1 << 98 ? (unsigned __int128)1 << 100 : e * 4;
}

/* One operand's batch (the operand valid): past the end of the address
 * space (*past), or over half of it, which gputile_matmul(3) calls an
 * overflow for one matrix (may). True when the batch is addressable. */
static bool batch_fits(gputile_matrix m, size_t stride, size_t count, unsigned *past, unsigned *may)
{
    const unsigned __int128 bytes = batch_bytes(m, stride, count);
    if (wraps(m.elements, bytes)) {
        *past |= B(GPUTILE_ERROR_OVERFLOW);
        return false;
    }
    if (bytes > SIZE_MAX / 2)
        *may |= B(GPUTILE_ERROR_OVERFLOW);
    return true;
}

/* The addresses of every element of `count` problems of m, `stride`
 * elements apart (one problem when stride is 0), sorted, in xs[0..*n);
 * false when there are more than BATCH_BRUTE. */
#define BATCH_BRUTE 4096
static bool batch_addresses(gputile_matrix m, size_t stride, size_t count, uintptr_t *xs, size_t *n)
{
    const size_t problems = stride == 0 ? 1 : count, each = m.width * m.height;
    if (each > BATCH_BRUTE || problems > BATCH_BRUTE / each)
        return false;
    *n = 0;
    for (size_t p = 0; p < problems; ++p)
        for (size_t i = 0; i < m.height; ++i)
            for (size_t j = 0; j < m.width; ++j)
                xs[(*n)++] = (uintptr_t)m.elements + (p * stride + i * m.stride + j) * 4;
    qsort(xs, *n, sizeof xs[0], cmp_addr);
    return true;
}

/* The Cs of a strided batch against the problems of one input (both
 * valid, not empty, addressable): C_i sharing an element with X_j (must);
 * the batches' address ranges meeting (may). One problem each:
 * aliasing() says. */
static void batch_aliasing(gputile_matrix c, size_t sc, gputile_matrix x, size_t sx, size_t count,
                           unsigned *must, unsigned *may)
{
    if (count == 1 || (sc == 0 && sx == 0))
        return;
    const uintptr_t c0 = (uintptr_t)c.elements, x0 = (uintptr_t)x.elements;
    if (!(c0 < x0 + batch_bytes(x, sx, count) && x0 < c0 + batch_bytes(c, sc, count)))
        return;
    *may |= B(GPUTILE_ERROR_ALIASING);
    static uintptr_t cs[BATCH_BRUTE], xs[BATCH_BRUTE];
    size_t nc, nx;
    if (!batch_addresses(c, sc, count, cs, &nc) || !batch_addresses(x, sx, count, xs, &nx))
        return;
    for (size_t i = 0; i < nx; ++i)
        if (near(cs, nc, xs[i])) {
            *must |= B(GPUTILE_ERROR_ALIASING);
            return;
        }
}

static void fuzz_gemm_strided_batched(reader *r)
{
    int ta, tb;
    fz_ops(r, &ta, &tb);
    gputile_matrix a = fz_matrix(r), b = fz_matrix(r), c = fz_matrix(r);
    agree(r, ta, tb, a, b, &c);
    const size_t sa = fz_batch_stride(r, a), sb = fz_batch_stride(r, b);
    const size_t sc = fz_batch_stride(r, c), count = fz_count(r);
    const float alpha = fz_float(r), beta = fz_float(r);
    gputile_gemm_options before;
    gputile_gemm_options *o = fz_gemm_options_kept(r, &before);

    unsigned must = 0, may = 0;
    bool ok[3];
    batched_options_oracle(o, &must, &may);
    problem_oracle(ta, tb, a, b, c, ok, &must);
    if (ok[2] && ok[0])
        aliasing(c, a, &must, &may);
    if (ok[2] && ok[1])
        aliasing(c, b, &must, &may);
    if (count > 0 && ok[2]) { /* the problems after the first */
        unsigned *batch = empty(c) ? &may : &must;
        if (count > (size_t)INT64_MAX) /* a count past int64: the library may call it one */
            may |= B(GPUTILE_ERROR_OVERFLOW);
        if (count > 1 && !empty(c) && sc < footprint(c))
            must |= B(GPUTILE_ERROR_ALIASING);
        const bool fit_c = batch_fits(c, sc, count, batch, &may);
        const bool fit_a = ok[0] && batch_fits(a, sa, count, empty(a) ? &may : batch, &may);
        const bool fit_b = ok[1] && batch_fits(b, sb, count, empty(b) ? &may : batch, &may);
        if (!empty(c) && fit_c && fit_a && !empty(a))
            batch_aliasing(c, sc, a, sa, count, &must, &may);
        if (!empty(c) && fit_c && fit_b && !empty(b))
            batch_aliasing(c, sc, b, sb, count, &must, &may);
    }
    if (count == 0) {
        may |= must;
        must = 0;
    }

    const char *call = "gputile_gemm_strided_batched";
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_gemm_strided_batched((gputile_op)ta, (gputile_op)tb, alpha, a, sa, b,
                                                    sb, beta, c, sc, count, NULL, o);
    judge(call, s, must, may, count == 0 || empty(c) ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
    batched_options_after(call, s, o, &before);
    free(o);
}

/* A view of a batch of views: base's shape mostly (its place, stride or
 * both changed; or problem i's place after i footprints of base), at
 * times any matrix. */
#define MAX_VIEWS 12
static gputile_matrix fz_view(reader *r, gputile_matrix base, size_t i)
{
    gputile_matrix m = base;
    switch (u8(r) % 8) {
    case 0:
    case 1:
        return m;
    case 2:
    case 3:
        m.elements = (float *)((uintptr_t)m.elements + 4 * (i * footprint(m) + u8(r) % 3));
        return m;
    case 4:
        m.elements = (float *)((uintptr_t)m.elements + 4 * (uintptr_t)(u8(r) % 64));
        return m;
    case 5:
        m.elements = fz_ptr(r);
        return m;
    case 6:
        m.stride = m.width + u8(r) % 8;
        m.elements = fz_ptr(r);
        return m;
    default:
        return fz_matrix(r);
    }
}

static void fuzz_gemm_batched(reader *r)
{
    int ta, tb;
    fz_ops(r, &ta, &tb);
    gputile_matrix base[3] = {fz_matrix(r), fz_matrix(r), fz_matrix(r)};
    agree(r, ta, tb, base[0], base[1], &base[2]);
    const size_t count = u8(r) % 4 == 0 ? u8(r) % (MAX_VIEWS + 1) : u8(r) % 5;
    const unsigned nulls = u8(r) % 8 == 0 ? u8(r) : 0;
    gputile_matrix *v[3], saved[3][MAX_VIEWS];
    for (int k = 0; k < 3; ++k) { /* heap arrays of exactly count views */
        v[k] = nulls >> k & 1 ? NULL : malloc(count * sizeof *v[k]);
        for (size_t i = 0; v[k] && i < count; ++i)
            saved[k][i] = v[k][i] = fz_view(r, base[k], i);
    }
    const float alpha = fz_float(r), beta = fz_float(r);
    gputile_gemm_options before;
    gputile_gemm_options *o = fz_gemm_options_kept(r, &before);

    unsigned must = 0, may = 0;
    batched_options_oracle(o, &must, &may);
    if (!(ta == GPUTILE_OP_N || ta == GPUTILE_OP_T) || !(tb == GPUTILE_OP_N || tb == GPUTILE_OP_T))
        must |= B(GPUTILE_ERROR_INVALID_VALUE);
    if (count > 0 && (v[0] == NULL || v[1] == NULL || v[2] == NULL))
        must |= B(GPUTILE_ERROR_NULL_POINTER);
    else if (count > 0) {
        bool ok[MAX_VIEWS][3];
        for (size_t i = 0; i < count; ++i) {
            problem_oracle(ta, tb, v[0][i], v[1][i], v[2][i], ok[i], &must);
            for (int k = 0; k < 3; ++k)
                if (v[k][i].width != v[k][0].width || v[k][i].height != v[k][0].height)
                    must |= B(GPUTILE_ERROR_SHAPE_MISMATCH);
        }
        /* some C against any problem's A or B and every other C; exact
         * for views of one row stride, by address ranges otherwise */
        for (size_t i = 0; i < count; ++i)
            for (size_t j = 0; ok[i][2] && j < count; ++j) {
                if (ok[j][0])
                    aliasing(v[2][i], v[0][j], &must, &may);
                if (ok[j][1])
                    aliasing(v[2][i], v[1][j], &must, &may);
                if (j > i && ok[j][2])
                    aliasing(v[2][i], v[2][j], &must, &may);
            }
    }
    const bool noop = count == 0 || (v[2] != NULL && empty(v[2][0]));
    if (count == 0) {
        may |= must;
        must = 0;
    }

    const char *call = "gputile_gemm_batched";
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_gemm_batched((gputile_op)ta, (gputile_op)tb, alpha, v[0], v[1], beta,
                                            v[2], count, NULL, o);
    judge(call, s, must, may, noop ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
    batched_options_after(call, s, o, &before);
    for (int k = 0; k < 3; ++k) {
        if (v[k] && count && memcmp(v[k], saved[k], count * sizeof *v[k]) != 0)
            fail("wrote into an array of views", call, s);
        free(v[k]);
    }
    free(o);
}

/* ---- several devices and the distributed layout (issue 22) ----
 * gputile_gemm_devices(3): the list's checks need no device, and the
 * matrices' are gputile_gemm()'s; only then is the device count asked
 * (here: no device, so NO_DEVICE, or INVALID_VALUE for an ordinal that is
 * not a device of this machine, learnt from the device). */
static void fuzz_gemm_devices(reader *r)
{
    const int ndevices = u8(r) % 4 == 0 ? fz_i32(r) : (int)(u8(r) % 70) - 2;
    /* a list of exactly ndevices entries; past 64, which the page checks
     * before it reads the list, at most 256 */
    const size_t n = ndevices <= 0 ? 0 : ndevices <= 256 ? (size_t)ndevices : 256;
    int *devices = u8(r) % 8 == 0 ? NULL : malloc(n * sizeof *devices), saved[256];
    for (size_t i = 0; devices && i < n; ++i)
        saved[i] = devices[i] = u8(r) % 8 == 0   ? fz_i32(r)
                                : u8(r) % 6 == 0 ? (int)(u8(r) % 70) - 2
                                                 : (int)i;
    int ta, tb;
    fz_ops(r, &ta, &tb);
    gputile_matrix a = fz_matrix(r), b = fz_matrix(r), c = fz_matrix(r);
    agree(r, ta, tb, a, b, &c);
    const float alpha = fz_float(r), beta = fz_float(r);
    gputile_gemm_options before;
    gputile_gemm_options *o = fz_gemm_options_kept(r, &before);

    unsigned must = 0, may = 0;
    bool ok[3];
    if (devices == NULL)
        must |= B(GPUTILE_ERROR_NULL_POINTER);
    if (ndevices < 1 || ndevices > 64)
        must |= B(GPUTILE_ERROR_INVALID_VALUE);
    else if (devices != NULL)
        for (int i = 0; i < ndevices; ++i) { /* ordinals in 0..63, distinct */
            if (devices[i] < 0 || devices[i] >= 64)
                must |= B(GPUTILE_ERROR_INVALID_VALUE);
            for (int j = 0; j < i; ++j)
                if (devices[j] == devices[i])
                    must |= B(GPUTILE_ERROR_INVALID_VALUE);
        }
    gemm_options_oracle(o, &must);
    problem_oracle(ta, tb, a, b, c, ok, &must);
    if (ok[2] && ok[0])
        aliasing(c, a, &must, &may);
    if (ok[2] && ok[1])
        aliasing(c, b, &must, &may);
    if (!empty(c)) /* no device here: no ordinal is one of this machine's */
        may |= B(GPUTILE_ERROR_INVALID_VALUE);

    const char *call = "gputile_gemm_devices";
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_gemm_devices(devices, ndevices, (gputile_op)ta, (gputile_op)tb,
                                            alpha, a, b, beta, c, o);
    judge(call, s, must, may, empty(c) ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
    if (must == 0 && s == GPUTILE_ERROR_INVALID_VALUE && fuzz_cuda_calls == 0)
        fail("an ordinal rejected without asking the device", call, s);
    gemm_options_after(call, s, o, &before);
    if (devices && n && memcmp(devices, saved, n * sizeof *devices) != 0)
        fail("wrote into the list of devices", call, s);
    free(devices);
    free(o);
}

/* gputile_dist_block(): pure arithmetic, no device. The result against
 * the page's rule (rank q holds ceil((total - q) / ranks) items, the
 * items i = q mod ranks counted), and for up to 64 ranks, that the blocks
 * tile [0, total) in rank order. */
#define UNWRITTEN ((size_t)0xa5a5a5a5a5a5a5a5u)
static void fuzz_dist_block(reader *r)
{
    const size_t total = u8(r) % 2 ? u8(r) % 72 : fz_size(r);
    const int ranks = u8(r) % 4 == 0 ? fz_i32(r) : (int)(u8(r) % 20) - 2;
    const int rank = u8(r) % 4 == 0 ? fz_i32(r) : (int)(u8(r) % 24) - 2;
    size_t offset = UNWRITTEN, count = UNWRITTEN;
    size_t *po = u8(r) % 8 == 0 ? NULL : &offset, *pc = u8(r) % 8 == 0 ? NULL : &count;
    unsigned must = 0;
    if (po == NULL || pc == NULL)
        must |= B(GPUTILE_ERROR_NULL_POINTER);
    if (ranks <= 0 || rank < 0 || rank >= ranks)
        must |= B(GPUTILE_ERROR_INVALID_VALUE);

    const char *call = "gputile_dist_block";
    fuzz_cuda_calls = 0;
    gputile_status s = gputile_dist_block(total, ranks, rank, po, pc);
    judge(call, s, must, 0, GPUTILE_SUCCESS);
    if (fuzz_cuda_calls != 0)
        fail("asked the device", call, s);
    if (s != GPUTILE_SUCCESS) {
        if (offset != UNWRITTEN || count != UNWRITTEN)
            fail("wrote an out pointer of a failed call", call, s);
        return;
    }
    /* rank q's items: q, q + ranks, ... below total; the ranks before it
     * hold the first ones */
    const unsigned __int128 t = total, p = (unsigned __int128)ranks, q = (unsigned __int128)rank;
    const unsigned __int128 want_count = q < t ? (t - q + p - 1) / p : 0;
    const unsigned __int128 want_offset = q * (t / p) + (q < t % p ? q : t % p);
    if (count != want_count || offset != want_offset)
        fail("offset or count not the page's", call, s);
    if (ranks > 64)
        return;
    unsigned __int128 next = 0;
    for (int k = 0; k < ranks; ++k) {
        size_t o = UNWRITTEN, n = UNWRITTEN;
        if (gputile_dist_block(total, ranks, k, &o, &n) != GPUTILE_SUCCESS)
            fail("a rank in [0, ranks) rejected", call, s);
        if (o != next || n < t / p || n > t / p + 1)
            fail("blocks not consecutive or not balanced to within one", call, s);
        next += n;
    }
    if (next != total)
        fail("blocks do not cover [0, total)", call, s);
}

/* gputile_copy_cache(3): nothing is ever cached here (registering needs
 * the device), so every uncache is of an unknown address, also right after
 * a cache that failed. */
static void fuzz_copy_cache(reader *r)
{
    const void *host = fz_ptr(r);
    const size_t bytes = u8(r) % 2 ? u8(r) % 9 : fz_size(r);
    const unsigned what = u8(r) % 3; /* cache, uncache, or both */
    const long page = sysconf(_SC_PAGESIZE);
    gputile_status s;
    if (what != 1) {
        unsigned must = 0, may = 0;
        if (host == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        if (bytes == 0)
            must |= B(GPUTILE_ERROR_INVALID_VALUE);
        else if (wraps(host, bytes))
            must |= B(GPUTILE_ERROR_OVERFLOW);
        else if (wraps(host, (unsigned __int128)bytes + (unsigned)(page - 1))) /* its pages */
            may |= B(GPUTILE_ERROR_OVERFLOW);
        fuzz_cuda_calls = 0;
        s = gputile_copy_cache(host, bytes);
        judge("gputile_copy_cache", s, must, may, GPUTILE_ERROR_NO_DEVICE);
    }
    if (what != 0) {
        unsigned must = B(GPUTILE_ERROR_UNKNOWN_POINTER);
        if (host == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        fuzz_cuda_calls = 0;
        s = gputile_copy_uncache(host);
        judge("gputile_copy_uncache", s, must, 0, GPUTILE_SUCCESS);
    }
}

/* gputile_device_free() and the facade's device matrices. Freeing NULL
 * is a no-op that asks nothing of the device; anything else is CUDA's to
 * judge (here: no device). The facade's allocation checks its sizes
 * before the device (the stride is the width rounded up to
 * GPUTILE_DEVICE_ROW_ALIGN, and height x stride floats must fit a size_t),
 * allocates nothing for an empty matrix, and leaves *m untouched on any
 * error; its free clears *m only on success. */
static void fuzz_device_memory(reader *r)
{
    const unsigned what = u8(r) % 3;
    gputile_matrix m = {1, 2, 3, (float *)UNTOUCHED}, before;
    gputile_status s;
    if (what == 0) {
        void *p = fz_ptr(r);
        fuzz_cuda_calls = 0;
        s = gputile_device_free(p);
        judge("gputile_device_free", s, 0, 0,
              p == NULL ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
        if (p == NULL && fuzz_cuda_calls != 0)
            fail("asked the device to free NULL", "gputile_device_free", s);
        return;
    }
    gputile_matrix *pm = u8(r) % 8 == 0 ? NULL : &m;
    if (what == 1) {
        const size_t width = u8(r) % 2 ? u8(r) : fz_size(r);
        const size_t height = u8(r) % 2 ? u8(r) % 4 : fz_size(r);
        const size_t align = GPUTILE_DEVICE_ROW_ALIGN;
        const unsigned __int128 stride = ((unsigned __int128)width + align - 1) / align * align;
        const unsigned __int128 bytes = stride * height * sizeof(float);
        unsigned must = 0, may = 0;
        if (pm == NULL)
            must |= B(GPUTILE_ERROR_NULL_POINTER);
        else if (stride > SIZE_MAX || bytes > SIZE_MAX)
            must |= B(GPUTILE_ERROR_OVERFLOW);
        else if (width > SIZE_MAX - align) /* the facade's own bound, a little short of it */
            may |= B(GPUTILE_ERROR_OVERFLOW);
        before = m;
        fuzz_cuda_calls = 0;
        s = gputile_matrix_alloc_device(pm, width, height);
        judge("gputile_matrix_alloc_device", s, must, may,
              bytes == 0 ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
        if (s != GPUTILE_SUCCESS && memcmp(&m, &before, sizeof m) != 0)
            fail("wrote *m of a failed call", "gputile_matrix_alloc_device", s);
        if (s == GPUTILE_SUCCESS &&
            (fuzz_cuda_calls != 0 || m.width != width || m.height != height ||
             m.stride != (size_t)stride || m.elements != NULL))
            fail("an empty matrix not described as asked, or allocated",
                 "gputile_matrix_alloc_device", s);
        return;
    }
    m = fz_matrix(r);
    before = m;
    fuzz_cuda_calls = 0;
    s = gputile_matrix_free_device(pm);
    judge("gputile_matrix_free_device", s, pm == NULL ? B(GPUTILE_ERROR_NULL_POINTER) : 0, 0,
          m.elements == NULL ? GPUTILE_SUCCESS : GPUTILE_ERROR_NO_DEVICE);
    if (s != GPUTILE_SUCCESS && memcmp(&m, &before, sizeof m) != 0)
        fail("wrote *m of a failed call", "gputile_matrix_free_device", s);
    if (s == GPUTILE_SUCCESS &&
        (m.width != 0 || m.height != 0 || m.stride != 0 || m.elements != NULL))
        fail("*m not cleared", "gputile_matrix_free_device", s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    memset(arena, POISON, sizeof arena);
    const unsigned pick = u8(&r);
    /* >= 240: the image calls; 232..239: the batched GEMMs, several devices,
     * the copy cache and the distributed layout; 230, 231: device memory
     * (so the other entries keep their corpus) */
    switch (pick >= 240   ? 10 + pick % 2
            : pick >= 232 ? 12 + (pick - 232)
            : pick >= 230 ? 20
                          : pick % 10) {
    case 20:
        fuzz_device_memory(&r);
        break;
    case 12:
    case 13:
        fuzz_gemm_strided_batched(&r);
        break;
    case 14:
    case 15:
        fuzz_gemm_batched(&r);
        break;
    case 16:
    case 17:
        fuzz_gemm_devices(&r);
        break;
    case 18:
        fuzz_copy_cache(&r);
        break;
    case 19:
        fuzz_dist_block(&r);
        break;
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
