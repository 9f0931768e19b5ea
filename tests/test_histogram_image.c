/* SPDX-License-Identifier: MIT */
/*
 * test_histogram_image.c (GPU): gputile_histogram_even() and
 * gputile_histogram_range() against an exact CPU reference, on fresh
 * random inputs each run, in every tier that holds the bins (AUTO, SHARED,
 * GLOBAL), for every sample type (U8, U16, I16, I32, F32), 1 to 4
 * channels each with its own bins, regions of interest at odd offsets
 * inside larger images with odd pitches (the pixels around the region
 * hold values that would count if read), contiguous images (one long row,
 * more than one launch's chunk), empty images, samples at every bin
 * boundary and one step (1, or 1 ulp) either side, NaN, +-inf and -0.0,
 * edges that are not floats or not integers, bin counts at the shared
 * tier's limit and +-1 (with 32-bit and with 16-bit counts), more than
 * 65,535 samples in one bin of 16-bit counts, accumulate mode. Each channel's counts sit between
 * guard words; overwrite-mode counts are poisoned first, accumulate-mode
 * counts start from random values; every word, guards included, is
 * compared.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "gputile.h"
#include "support/gpu.h"

#define GUARD 4
#define POISON 0xDEADBEEFDEADBEEFull

/* PAIR: two adjacent even/odd values only (both 16-bit halves of one
 * packed word hot, so their wraps and carries meet). */
enum kind { UNIFORM, FEW, EQUAL, EDGES, PAIR };
static const char *kind_name[] = {"uniform", "16-distinct", "all-equal", "edges", "pair"};
static const char *type_name[] = {"u8", "u16", "i16", "i32", "f32"};
static const size_t type_size[] = {1, 2, 2, 4, 4};

#define CONTIG (-1)        /* pad: rows back to back */
#define NB_SHARED_MAX (-1) /* nb: the most bins per channel the shared tier holds */

struct img_case {
    int type, channels;
    size_t width, height;
    int pad;   /* bytes after each row (stride = row + pad), or CONTIG */
    int off;   /* bytes from a 256-byte boundary to the first sample */
    int range; /* 0: even bins; range bins: LINEAR, GEOMETRIC or CLUSTERED edges */
    int nb;    /* bins of channel 0 (channel c: nb + 3c), or NB_SHARED_MAX */
    int delta; /* added to a resolved NB_SHARED_MAX */
    int kind;
    int mode;
};

/* Range bins' edges (make_edges): uneven steps of about the same size;
 * steps growing geometrically away from 0 on both sides (a -0 edge for
 * floats, the last float edge past FLT_MAX); most edges packed into a
 * sliver, the rest spread. Each defeats a different coarse index in front
 * of the search: all must count exactly. */
enum { LINEAR = 1, GEOMETRIC = 2, CLUSTERED = 3 };

#define OVW GPUTILE_HIST_OVERWRITE
#define ACC GPUTILE_HIST_ACCUMULATE
#define U8 GPUTILE_SAMPLE_U8
#define U16 GPUTILE_SAMPLE_U16
#define I16 GPUTILE_SAMPLE_I16
#define I32 GPUTILE_SAMPLE_I32
#define F32 GPUTILE_SAMPLE_F32
#define C(t, ch, w, h, pad, off, rg, nb, d, k, m) \
    {                                             \
        t, ch, w, h, pad, off, rg, nb, d, k, m    \
    }

static struct img_case cases[] = {
    /* empty images */
    C(U8, 4, 0, 7, 3, 0, 0, 256, 0, UNIFORM, OVW),
    C(F32, 2, 5, 0, 0, 4, 1, 10, 0, UNIFORM, ACC),
    /* tiny, every type, odd offsets */
    C(U8, 1, 1, 1, CONTIG, 3, 0, 7, 0, UNIFORM, OVW),
    C(U8, 3, 5, 3, 1, 1, 0, 9, 0, EDGES, OVW),
    C(U16, 1, 7, 5, 2, 2, 0, 11, 0, EDGES, OVW),
    C(I16, 2, 9, 3, 6, 6, 1, 13, 0, EDGES, OVW),
    C(I32, 3, 3, 9, 4, 12, 0, 5, 0, EDGES, ACC),
    C(F32, 4, 6, 2, 12, 8, 1, 6, 0, EDGES, OVW),
    /* RGBA8 and friends: ROIs at odd offsets, odd pitches */
    C(U8, 4, 1000, 301, 13, 7, 0, 256, 0, UNIFORM, OVW),
    C(U8, 4, 997, 211, 3, 1, 0, 256, 0, FEW, OVW),
    C(U8, 4, 640, 480, 0, 0, 0, 256, 0, EQUAL, ACC),
    C(U8, 4, 333, 257, 5, 3, 1, 64, 0, UNIFORM, OVW),
    C(U8, 3, 1021, 97, 7, 2, 0, 256, 0, UNIFORM, OVW),
    C(U8, 3, 511, 64, 1, 5, 1, 33, 0, EDGES, OVW),
    C(U8, 2, 4099, 33, 9, 9, 0, 100, 0, UNIFORM, OVW),
    C(U8, 1, 100003, 11, 17, 15, 0, 256, 0, UNIFORM, OVW),
    C(U8, 1, 3000017, 1, CONTIG, 1, 0, 256, 0, UNIFORM, OVW),
    C(U8, 1, 1000, 14000, CONTIG, 0, 0, 256, 0, FEW, OVW), /* > one chunk, contiguous */
    C(U8, 4, 1001, 3333, CONTIG, 4, 0, 200, 0, UNIFORM, ACC),
    C(U8, 2, 777, 129, 3, 5, 0, 64, 0, UNIFORM, OVW), /* bins of 2^j values: words computed */
    C(U8, 1, 4096, 64, 0, 1, 0, 128, 0, FEW, ACC),
    /* 16-bit */
    C(U16, 1, 2049, 300, 6, 2, 0, 4096, 0, UNIFORM, OVW),
    C(U16, 1, 1000003, 1, CONTIG, 2, 0, 65536, 0, UNIFORM, OVW),
    C(U16, 1, 777, 555, 2, 14, 0, 65536, 0, FEW, ACC),
    C(U16, 2, 513, 257, 10, 6, 1, 1024, 0, UNIFORM, OVW),
    C(U16, 4, 300, 200, 8, 8, 0, 1000, 0, EDGES, OVW),
    C(I16, 1, 4097, 129, 2, 4, 0, 30000, 0, UNIFORM, OVW),
    C(I16, 3, 401, 199, 4, 10, 0, 500, 0, EDGES, OVW),
    C(I16, 4, 255, 255, 14, 2, 1, 20000, 0, UNIFORM, OVW),
    C(F32, 1, 3001, 97, 4, 4, 1, 100000, 0, UNIFORM, OVW), /* range keys past shared memory */
    /* 32-bit */
    C(I32, 1, 100001, 7, 4, 4, 0, 1000, 0, UNIFORM, OVW),
    C(I32, 2, 999, 301, 12, 8, 1, 64, 0, UNIFORM, OVW),
    C(I32, 4, 513, 129, 4, 12, 0, 70000, 0, UNIFORM, ACC),
    C(F32, 1, 1000003, 3, CONTIG, 4, 0, 4096, 0, UNIFORM, OVW),
    C(F32, 1, 2001, 499, 20, 12, 1, 64, 0, UNIFORM, OVW),
    C(F32, 1, 2001, 499, 20, 8, 1, 1024, 0, UNIFORM, OVW),
    C(F32, 2, 1024, 1024, 0, 0, 1, 1024, 0, EDGES, ACC),
    C(F32, 3, 299, 301, 4, 4, 0, 777, 0, EDGES, OVW),
    C(F32, 4, 333, 111, 8, 4, 0, 256, 0, FEW, OVW),
    /* 16-bit counts in shared memory: around where 32-bit counts stop
     * fitting (58,112 bins on H100/H200), every count past 65,535 */
    C(U16, 1, 1001, 1000, 2, 2, 0, 57000, 0, UNIFORM, OVW),
    C(U16, 1, 1001, 1000, 2, 2, 0, 58112, 0, UNIFORM, OVW),
    C(U16, 1, 1001, 1000, 2, 2, 0, 58113, 0, UNIFORM, OVW),
    C(U16, 1, 1001, 1000, 2, 2, 0, 60000, 0, FEW, OVW),
    C(U16, 1, 1500, 1500, 0, 0, 0, 65536, 0, EQUAL, OVW),
    C(U16, 1, 1500, 1501, 6, 2, 0, 65536, 0, PAIR, ACC),
    C(U16, 1, 3000017, 1, CONTIG, 2, 0, 65536, 0, PAIR, OVW),
    C(U16, 2, 1024, 1024, 4, 0, 0, 40000, 0, PAIR, OVW),
    C(I16, 1, 2000, 999, 2, 2, 0, 65536, 0, EQUAL, OVW),
    /* 65,536 bins of 16-bit samples by offset % 3: every value, one per
     * bin (0), every value, two per bin (1), from above the least (2) */
    C(I16, 1, 1001, 777, 4, 0, 0, 65536, 0, PAIR, ACC),
    C(I16, 1, 1001, 1777, 4, 4, 0, 65536, 0, EQUAL, OVW),
    C(U16, 1, 2001, 1001, 2, 10, 0, 65536, 0, EQUAL, OVW),
    C(U16, 1, 3001, 555, 2, 6, 0, 65536, 0, PAIR, OVW),
    C(U16, 1, 1003, 999, 2, 4, 0, 65536, 0, FEW, ACC),
    C(I16, 1, 999, 1003, 2, 8, 0, 65536, 0, UNIFORM, OVW),
    C(I32, 1, 999, 1001, 4, 4, 1, 40000, 0, FEW, OVW),
    /* fewer bins of 2^j 16-bit values covering the type (offset % 3 as
     * above: 0 from the least value, 1 twice as wide from below it) */
    C(U16, 1, 2049, 300, 6, 0, 0, 4096, 0, UNIFORM, OVW),
    C(I16, 3, 701, 203, 2, 4, 0, 256, 0, EDGES, ACC),
    C(U16, 2, 999, 301, 4, 6, 0, 1024, 0, FEW, OVW),
    C(I16, 1, 4097, 129, 2, 10, 0, 2, 0, UNIFORM, OVW),
    C(U16, 2, 301, 97, 0, 12, 0, 32768, 0, EDGES, OVW), /* past 32-bit counts: 16-bit */
    /* the shared tier's limit, and +-1 */
    C(U16, 1, 1025, 999, 2, 2, 0, NB_SHARED_MAX, -1, UNIFORM, OVW),
    C(U16, 1, 1025, 999, 2, 2, 0, NB_SHARED_MAX, 0, UNIFORM, OVW),
    C(U16, 1, 1025, 999, 2, 2, 0, NB_SHARED_MAX, 1, UNIFORM, OVW),
    C(F32, 1, 1025, 99, 4, 4, 1, NB_SHARED_MAX, 0, UNIFORM, ACC),
    C(F32, 1, 1025, 99, 4, 4, 1, NB_SHARED_MAX, 1, UNIFORM, OVW),
    /* range bins whose edges no one index fits */
    C(F32, 1, 2001, 299, 12, 4, GEOMETRIC, 1024, 0, EDGES, OVW),
    C(F32, 2, 1001, 257, 4, 8, GEOMETRIC, 63, 0, UNIFORM, OVW),
    C(F32, 1, 2001, 299, 8, 4, CLUSTERED, 999, 0, EDGES, OVW),
    C(F32, 3, 501, 129, 0, 0, CLUSTERED, 5000, 0, EDGES, ACC),
    C(F32, 1, 1025, 99, 4, 4, GEOMETRIC, NB_SHARED_MAX, 0, EDGES, OVW),
    C(I32, 1, 3001, 129, 4, 4, GEOMETRIC, 3000, 0, EDGES, OVW),
    C(I32, 2, 999, 301, 12, 8, CLUSTERED, 700, 0, EDGES, OVW),
    C(I16, 1, 2001, 199, 2, 6, GEOMETRIC, 300, 0, EDGES, OVW),
    C(U16, 4, 513, 129, 6, 2, CLUSTERED, 200, 0, EDGES, OVW),
    C(U16, 1, 2049, 129, 0, 0, LINEAR, 2, 0, UNIFORM, OVW),
};

/* ---- the bins of one channel --------------------------------------------- */

static double type_min(int t)
{
    return t == I16 ? -32768.0 : t == I32 ? -2147483648.0 : t == F32 ? -1e6 : 0.0;
}
static double type_max(int t)
{
    return t == U8    ? 255.0
           : t == U16 ? 65535.0
           : t == I16 ? 32767.0
           : t == I32 ? 2147483647.0
                      : 1e6;
}

static double rnd01(void)
{
    return (double)(gputest_rand() >> 11) / 9007199254740992.0;
}

/* Even bins for channel c: usually inside the type's range, sometimes
 * reaching beyond it on either side. */
static int even16_variant; /* make_even's 65,536 bins of 16-bit samples: 0..2 */

static gputile_hist_even make_even(int t, int32_t nbins)
{
    const double lo = type_min(t), hi = type_max(t), span = hi - lo;
    gputile_hist_even e = {nbins, 0, 0, 0};
    double a = lo + span * (rnd01() * 0.6 - 0.1), b = a + span * (0.2 + rnd01() * 0.9);
    if (t != F32) {
        a = floor(a);
        b = floor(b);
        if (b - a < 1)
            b = a + 1;
        if (nbins == 65536 && (t == U16 || t == I16)) {
            /* by the case's offset: one bin per value of the type, two
             * values per bin from at or below its least (every value
             * counted: the halves computed), one per value from above its
             * least (the bins searched) */
            const int v = even16_variant;
            a = lo + (v == 1   ? -2.0 * floor(rnd01() * 32768.0)
                      : v == 2 ? 1.0 + floor(rnd01() * 9.0)
                               : 0.0);
            b = a + (v == 1 ? 131072.0 : 65536.0);
        } else if ((t == U16 || t == I16) && (nbins & (nbins - 1)) == 0 && nbins < 65536 &&
                   even16_variant != 2) {
            /* fewer bins of 2^j values covering every value (32-bit counts,
             * each sample's word computed): from the least value (0), or
             * twice as wide from below it (1); else (2) random bounds */
            const double w = 65536.0 / nbins * (even16_variant == 1 ? 2.0 : 1.0);
            a = lo - (even16_variant == 1 ? floor(rnd01() * 65536.0) : 0.0);
            b = a + w * nbins;
        }
        if (t == U8 && (nbins & (nbins - 1)) == 0) { /* bins of 2^j values, j < 3 */
            /* 256 bins: every value counted, one value per bin from 0 in a
             * test's first channel (the multiply-add plan; one-channel cases
             * run it), 2 or 4 per bin from below 0 in the next */
            static int calls;
            const int j = nbins == 256 && calls++ % 2 == 0 ? 0 : 1 + (int)(rnd01() * 2.0);
            if (nbins == 256)
                a = -floor(rnd01() * 256.0 * ((1 << j) - 1));
            else /* bounds below 0, inside, beyond 255 */
                a = floor(rnd01() * 400.0) - 200.0;
            b = a + (double)nbins * (double)(1 << j);
        }
    } else {
        a = a / 7.0; /* not a float: rounding of the bounds matters */
        b = b / 7.0;
    }
    e.lower = a;
    e.upper = b;
    return e;
}

/* Edges made valid: integer types' edges rounded down, then each edge not
 * above the one before moved to the next float (or integer) above it. */
static void strictly_increasing(int t, int32_t nedges, double *e)
{
    for (int32_t i = 0; i < nedges; ++i) {
        if (t != F32)
            e[i] = floor(e[i]);
        if (i > 0 && !(e[i] > e[i - 1]))
            e[i] = t == F32 ? nextafter(e[i - 1], INFINITY) : e[i - 1] + 1;
    }
}

/* nedges sorted edges, growing geometrically away from 0 on both sides of
 * it (integers: rounded toward 0, kept strictly increasing). */
static void make_geometric_edges(int t, int32_t nedges, double *e)
{
    const int32_t neg = t == U16 || t == U8 ? 0 : nedges / 3;
    const double big = type_max(t), small = t == F32 ? 1e-30 : 1.0;
    for (int32_t i = 0; i < nedges; ++i) {
        const int32_t j = i < neg ? neg - 1 - i : i - neg; /* steps from 0 */
        const int32_t m = i < neg ? neg : nedges - neg;
        double v = small * pow(big / small, (double)j / (m > 1 ? m - 1 : 1));
        if (t != F32)
            v = floor(v);
        e[i] = i < neg ? -v : v;
    }
    if (t == F32) {
        if (neg > 0 && neg < nedges)
            e[neg] = -0.0; /* an edge at -0: +0 samples are in its bin too */
        if (nedges > 2)
            e[nedges - 1] = 1e39; /* above FLT_MAX: its key is +inf */
    }
    strictly_increasing(t, nedges, e);
}

/* nedges sorted edges: nine in ten within a thousandth of the span just
 * above its middle, the rest spread evenly around them. */
static void make_clustered_edges(int t, int32_t nedges, double *e)
{
    const double lo = type_min(t), hi = type_max(t), span = hi - lo;
    const int32_t packed = nedges - nedges / 10, spread = nedges - packed;
    const double mid = lo + span * 0.5 + span * 0.01 * rnd01();
    double x = lo + span * 0.05;
    int32_t i = 0;
    for (; i < spread / 2; ++i, x += (mid - lo) / (spread / 2 + 1))
        e[i] = x;
    for (int32_t j = 0; j < packed; ++j, ++i)
        e[i] = mid + span * 1e-3 * j / packed;
    for (x = mid + span * 2e-3; i < nedges; ++i, x += (hi - mid) * 0.9 / (spread - spread / 2))
        e[i] = x;
    strictly_increasing(t, nedges, e);
}

/* nedges sorted edges, integers or not, over about the type's range. */
static void make_edges(int t, int range, int32_t nedges, double *e)
{
    if (range == GEOMETRIC)
        return make_geometric_edges(t, nedges, e);
    if (range == CLUSTERED)
        return make_clustered_edges(t, nedges, e);
    const double lo = type_min(t), hi = type_max(t), span = hi - lo;
    double x = lo + span * (rnd01() * 0.2 - 0.1);
    const double mean = span * 1.1 / nedges;
    for (int32_t i = 0; i < nedges; ++i) {
        e[i] = x;
        double step = mean * (0.1 + 1.8 * rnd01()); /* uneven */
        if (t != F32 && i % 3 == 0)
            step = ceil(step); /* integer edges too */
        if (t == U8 || t == U16 || t == I16)
            step = step < 0.3 ? 0.3 : step;
        x += step;
        if (t == F32 && gputest_rand() % 4 == 0)
            x = nextafter(x, INFINITY); /* between floats */
    }
}

/* ---- samples ------------------------------------------------------------------ */

static double get_sample(int t, const unsigned char *p)
{
    switch (t) {
    case U8:
        return *p;
    case U16: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case I16: {
        int16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case I32: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

static void put_sample(int t, unsigned char *p, double x)
{
    if (t == F32) {
        float v = (float)x;
        memcpy(p, &v, 4);
        return;
    }
    x = x < type_min(t) ? type_min(t) : x > type_max(t) ? type_max(t) : floor(x);
    switch (t) {
    case U8:
        *p = (uint8_t)x;
        break;
    case U16: {
        uint16_t v = (uint16_t)x;
        memcpy(p, &v, 2);
    } break;
    case I16: {
        int16_t v = (int16_t)x;
        memcpy(p, &v, 2);
    } break;
    default: {
        int32_t v = (int32_t)x;
        memcpy(p, &v, 4);
    }
    }
}

/* Interesting values of one channel: every bin boundary and one step
 * either side, the bounds, the type's extremes, float specials. */
static size_t boundary_values(int t, int range, const gputile_hist_even *e, const double *edges,
                              int32_t nedges, double *out, size_t max)
{
    size_t n = 0;
#define ADD(v)              \
    do {                    \
        if (n < max)        \
            out[n++] = (v); \
    } while (0)
    const int32_t nb = range ? nedges - 1 : e->nbins;
    for (int32_t i = 0; i <= nb && n + 8 < max; ++i) {
        double b = range ? edges[i] : e->lower + (e->upper - e->lower) * i / nb;
        if (t == F32) {
            float f = (float)b;
            ADD(f);
            ADD(nextafterf(f, INFINITY));
            ADD(nextafterf(f, -INFINITY));
        } else {
            ADD(ceil(b));
            ADD(ceil(b) - 1);
            ADD(ceil(b) + 1);
            ADD(floor(b));
        }
    }
    ADD(type_min(t));
    ADD(type_max(t));
    if (t == F32) {
        ADD(NAN);
        ADD(INFINITY);
        ADD(-INFINITY);
        ADD(-0.0);
        ADD(0.0);
        ADD(FLT_MAX);
        ADD(-FLT_MAX);
        ADD(FLT_MIN);
    } else if (t == I32) {
        ADD(-2147483648.0);
        ADD(2147483647.0);
    }
#undef ADD
    return n;
}

/* ---- the reference -------------------------------------------------------------- */

static int64_t ref_even(int t, const gputile_hist_even *e, double x)
{
    if (t == F32) {
        if (!(x >= e->lower && x < e->upper))
            return -1;
        const double s = (double)e->nbins / (e->upper - e->lower);
        const double v = (x - e->lower) * s;
        return v < (double)e->nbins ? (int64_t)v : e->nbins - 1;
    }
    const int64_t lo = (int64_t)e->lower, hi = (int64_t)e->upper, xi = (int64_t)x;
    if (xi < lo || xi >= hi)
        return -1;
    return (int64_t)((unsigned __int128)(uint64_t)(xi - lo) * (uint64_t)e->nbins /
                     (uint64_t)(hi - lo));
}

static int64_t ref_range(const double *edges, int32_t nedges, double x)
{
    if (!(x >= edges[0] && x < edges[nedges - 1]))
        return -1;
    int32_t lo = 0, hi = nedges - 1; /* edges[lo] <= x < edges[hi] */
    while (hi - lo > 1) {
        int32_t mid = lo + (hi - lo) / 2;
        if (edges[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ---- the plan's limit ------------------------------------------------------------ */

/* The most bins of one channel of type t that the shared tier holds
 * (found with empty images, whose calls report the plan). */
static int32_t shared_max(int t, int range)
{
    uint64_t *d;
    const int32_t top = 1 << 18;
    GPUTEST_CUDA(gputest_malloc((void **)&d, (size_t)top * 8));
    double *edges = malloc(((size_t)top + 1) * sizeof *edges);
    cr_assert_not_null(edges);
    for (int32_t i = 0; i <= top; ++i)
        edges[i] = i;
    int32_t lo = 1, hi = top; /* shared at lo, not at hi */
    while (hi - lo > 1) {
        int32_t mid = lo + (hi - lo) / 2;
        gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
        in.type = t;
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        uint64_t *cp[1] = {d};
        gputile_status s;
        if (range) {
            int32_t ne[1] = {mid + 1};
            const double *ep[1] = {edges};
            s = gputile_histogram_range(&in, ne, ep, cp, OVW, NULL, &o);
        } else {
            gputile_hist_even e = {mid, 0, 0, (double)mid};
            s = gputile_histogram_even(&in, &e, cp, OVW, NULL, &o);
        }
        if (s == GPUTILE_SUCCESS && o.tier_used == GPUTILE_HIST_TIER_SHARED)
            lo = mid;
        else
            hi = mid;
    }
    free(edges);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(d));
    return lo;
}

/* ---- one case ---------------------------------------------------------------------- */

struct channel {
    gputile_hist_even even;
    int32_t nedges;
    double *edges;
    int32_t nbins;
    uint64_t *dcounts, *init, *got, *want;
};

static bool full_size; /* run_case: no GPUTEST_SMALL shrinking (large_images) */

static void run_case(struct img_case tc)
{
    const int t = tc.type, ch = tc.channels;
    const size_t size = type_size[t];
    size_t width = full_size ? tc.width : gputest_shrink(tc.width, 1 << 12, 256),
           height = full_size ? tc.height : gputest_shrink(tc.height, 64, 16);
    const size_t row_bytes = width * ch * size;
    const size_t stride = tc.pad == CONTIG ? row_bytes : row_bytes + (size_t)tc.pad;
    int32_t nb = tc.nb;
    if (nb == NB_SHARED_MAX)
        nb = shared_max(t, tc.range) + tc.delta;
    char what[256];
    snprintf(what, sizeof what, "%s x%d %zux%zu pad %d off %d %s nbins %d %s %s", type_name[t], ch,
             width, height, tc.pad, tc.off, tc.range ? "range" : "even", nb, kind_name[tc.kind],
             tc.mode == ACC ? "accumulate" : "overwrite");
    cr_log_info("%s", what);

    /* The parent image: the ROI plus a margin of rows above and below and
     * bytes before and after; all of it random samples. */
    const size_t margin_rows = height ? 2 : 0;
    const size_t total = tc.off + (height + 2 * margin_rows) * stride + 64;
    unsigned char *host = malloc(total);
    cr_assert_not_null(host);

    struct channel c[4];
    memset(c, 0, sizeof c);
    double few[16];
    even16_variant = tc.off % 3;
    for (int k = 0; k < ch; ++k) {
        /* 8-bit samples in a power of two of bins: every channel alike, so
         * that bins of 2^j values (the computed-word plan) cover them all */
        c[k].nbins = (t == U8 || t == U16 || t == I16) && (nb & (nb - 1)) == 0 ? nb : nb + 3 * k;
        if (tc.range) {
            c[k].nedges = c[k].nbins + 1;
            c[k].edges = malloc((size_t)c[k].nedges * sizeof(double));
            cr_assert_not_null(c[k].edges);
            make_edges(t, tc.range, c[k].nedges, c[k].edges);
        } else {
            c[k].even = make_even(t, c[k].nbins);
        }
    }
    /* values: by kind, per channel */
    double *special[4] = {NULL};
    size_t nspecial[4] = {0};
    for (int k = 0; k < ch; ++k) {
        special[k] = malloc(4096 * 4 * sizeof(double));
        cr_assert_not_null(special[k]);
        nspecial[k] =
            boundary_values(t, tc.range, &c[k].even, c[k].edges, c[k].nedges, special[k], 4096 * 4);
    }
    const double lo = type_min(t), hi = type_max(t);
    for (int i = 0; i < 16; ++i)
        few[i] = lo + (hi - lo) * rnd01();
    const double equal = lo + (hi - lo) * rnd01();
    for (size_t b = 0; b + size <= total; b += size) {
        const int k = (int)((b / size) % (size_t)ch);
        double x;
        switch (tc.kind) {
        case FEW:
            x = few[gputest_rand() % 16];
            break;
        case EQUAL:
            x = equal;
            break;
        case PAIR:
            x = 2 * floor(equal / 2) + (double)(gputest_rand() % 2);
            break;
        case EDGES:
            x = gputest_rand() % 2 ? special[k][gputest_rand() % nspecial[k]]
                                   : lo + (hi - lo) * rnd01();
            break;
        default:
            x = lo - (hi - lo) * 0.05 + (hi - lo) * 1.1 * rnd01();
        }
        put_sample(t, host + b, x);
    }
    const size_t roi = tc.off + margin_rows * stride;
    unsigned char *dev;
    GPUTEST_CUDA(gputest_malloc((void **)&dev, total));
    GPUTEST_CUDA(cudaMemcpy(dev, host, total, cudaMemcpyHostToDevice));

    /* the reference */
    for (int k = 0; k < ch; ++k) {
        const size_t words = (size_t)c[k].nbins + 2 * GUARD;
        c[k].init = malloc(words * 8);
        c[k].got = malloc(words * 8);
        c[k].want = calloc(words, 8);
        cr_assert(c[k].init && c[k].got && c[k].want);
        GPUTEST_CUDA(gputest_malloc((void **)&c[k].dcounts, words * 8));
        for (size_t i = 0; i < words; ++i)
            c[k].init[i] = i < GUARD || i >= GUARD + (size_t)c[k].nbins || tc.mode == OVW
                               ? POISON
                               : gputest_rand() >> 1;
        memcpy(c[k].want, c[k].init, words * 8);
        if (tc.mode == OVW)
            memset(c[k].want + GUARD, 0, (size_t)c[k].nbins * 8);
    }
    for (size_t y = 0; y < height; ++y)
        for (size_t x = 0; x < width * ch; ++x) {
            const int k = (int)(x % (size_t)ch);
            const double v = get_sample(t, host + roi + y * stride + x * size);
            const int64_t b =
                tc.range ? ref_range(c[k].edges, c[k].nedges, v) : ref_even(t, &c[k].even, v);
            if (b >= 0)
                c[k].want[GUARD + b]++;
        }

    gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
    in.samples = dev + roi;
    in.type = t;
    in.channels = ch;
    in.width = width;
    in.height = height;
    in.row_stride_bytes = stride;
    gputile_hist_even levels[4];
    int32_t nedges[4];
    const double *edges[4];
    uint64_t *counts[4];
    for (int k = 0; k < ch; ++k) {
        levels[k] = c[k].even;
        nedges[k] = c[k].nedges;
        edges[k] = c[k].edges;
        counts[k] = c[k].dcounts + GUARD;
    }
    const int tiers[] = {GPUTILE_HIST_TIER_AUTO, GPUTILE_HIST_TIER_SHARED,
                         GPUTILE_HIST_TIER_GLOBAL};
    int ran = 0;
    for (int ti = 0; ti < 3; ++ti) {
        for (int k = 0; k < ch; ++k)
            GPUTEST_CUDA(cudaMemcpy(c[k].dcounts, c[k].init, ((size_t)c[k].nbins + 2 * GUARD) * 8,
                                    cudaMemcpyHostToDevice));
        gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
        o.tier = tiers[ti];
        gputile_status s =
            tc.range ? gputile_histogram_range(&in, nedges, edges, counts, tc.mode, NULL, &o)
                     : gputile_histogram_even(&in, levels, counts, tc.mode, NULL, &o);
        if (s == GPUTILE_ERROR_UNSUPPORTED && tiers[ti] == GPUTILE_HIST_TIER_SHARED)
            continue; /* the bins do not fit one block */
        cr_assert_eq(s, GPUTILE_SUCCESS, "%s tier %s: %s (%s)", what,
                     gputile_hist_tier_name(tiers[ti]), gputile_status_name(s),
                     gputile_last_cuda_error_name());
        GPUTEST_CUDA(cudaDeviceSynchronize());
        ++ran;
        if (tiers[ti] != GPUTILE_HIST_TIER_AUTO)
            cr_assert_eq(o.tier_used, tiers[ti], "%s: ran %s", what,
                         gputile_hist_tier_name(o.tier_used));
        cr_assert(o.blocks_used >= 1 && o.cluster_size_used == 1, "%s: plan report", what);
        for (int k = 0; k < ch; ++k) {
            const size_t words = (size_t)c[k].nbins + 2 * GUARD;
            GPUTEST_CUDA(cudaMemcpy(c[k].got, c[k].dcounts, words * 8, cudaMemcpyDeviceToHost));
            for (size_t i = 0; i < words; ++i) {
                if (i < GUARD || i >= GUARD + (size_t)c[k].nbins)
                    cr_assert(c[k].got[i] == c[k].want[i], "%s: channel %d guard word %ld written",
                              what, k, (long)i - GUARD);
                else
                    cr_assert(c[k].got[i] == c[k].want[i],
                              "%s: tier %s, channel %d bin %zu = %llu, expected %llu", what,
                              gputile_hist_tier_name(o.tier_used), k, i - GUARD,
                              (unsigned long long)c[k].got[i], (unsigned long long)c[k].want[i]);
            }
        }
    }
    cr_assert(ran >= 2, "%s: only %d tiers ran", what, ran);
    for (int k = 0; k < ch; ++k) {
        free(c[k].edges);
        free(c[k].init);
        free(c[k].got);
        free(c[k].want);
        free(special[k]);
        GPUTEST_CUDA(cudaFree(c[k].dcounts));
    }
    free(host);
    GPUTEST_CUDA(cudaFree(dev));
}

ParameterizedTestParameters(histogram_image, against_cpu)
{
    return cr_make_param_array(struct img_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct img_case *tc, histogram_image, against_cpu, .init = gputest_require_device,
                  .timeout = 300)
{
    const uint64_t key =
        ((((((uint64_t)tc->type * 5 + (uint64_t)tc->channels) * 1000003 + tc->width) * 1000003 +
           tc->height) *
              131 +
          (uint64_t)(tc->pad + 1)) *
             67 +
         (uint64_t)tc->off) *
            1000003 +
        (uint64_t)(uint32_t)tc->nb * 7 + (uint64_t)(tc->delta + 1) * 3 + (uint64_t)tc->range;
    if (!gputest_in_shard(key))
        cr_skip_test("GPUTEST_SHARD: another shard's case");
    run_case(*tc);
}

/* Images large enough (64-256 MiB) that the grid takes many trips per
 * thread, where GPUTEST_SMALL would shrink every other case: odd offsets
 * and pitches, 1 to 4 channels, 32-bit, 16-bit and computed counts, every
 * row with a head and a tail. Never shrunk, so that compute-sanitizer sees
 * full-size launches too (run them alone: --filter='*large_images*'). */
static struct img_case large[] = {
    C(U8, 1, 16001, 16003, 29, 3, 0, 256, 0, UNIFORM, OVW), /* the bench's ROI, near enough */
    C(U8, 4, 4001, 4099, 12, 1, 0, 256, 0, UNIFORM, ACC),   /* RGBA8 */
    C(U8, 3, 5003, 4001, 7, 2, 0, 200, 0, FEW, OVW),
    C(U16, 1, 8001, 4001, 6, 2, 0, 65536, 0, UNIFORM, OVW),
    C(I16, 2, 4001, 4003, 2, 6, 0, 5000, 0, EDGES, OVW),
    C(F32, 1, 4003, 4001, 4, 4, 0, 777, 0, EDGES, OVW),
    C(U8, 2, 8191, 4001, 1, 9, 1, 100, 0, UNIFORM, OVW), /* range bins: the table */
    C(U16, 1, 8001, 4001, 6, 0, 0, 4096, 0, UNIFORM, OVW),
    C(I16, 4, 2001, 4001, 2, 4, 0, 1024, 0, UNIFORM, OVW),
    /* contiguous, one launch: its first vector past a head of a few samples */
    C(U8, 3, 5000, 3001, CONTIG, 5, 0, 256, 0, UNIFORM, OVW),
    C(U16, 3, 3001, 2001, CONTIG, 2, 0, 4096, 0, UNIFORM, ACC),
    C(F32, 4, 2001, 2003, CONTIG, 12, 1, 64, 0, UNIFORM, OVW),
};

ParameterizedTestParameters(histogram_image, large_images)
{
    return cr_make_param_array(struct img_case, large, sizeof large / sizeof large[0]);
}

ParameterizedTest(struct img_case *tc, histogram_image, large_images,
                  .init = gputest_require_device, .timeout = 600)
{
    full_size = true;
    run_case(*tc);
}

/* The plan: small bins take the shared tier with several copies; the DSM
 * tier is refused; a 2^24-bin channel runs in the global tier. */
Test(histogram_image, plan, .init = gputest_require_device)
{
    uint64_t *d;
    GPUTEST_CUDA(gputest_malloc((void **)&d, ((size_t)1 << 24) * 8));
    gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
    in.type = U8;
    in.channels = 4;
    gputile_hist_even e[4];
    uint64_t *cp[4];
    for (int k = 0; k < 4; ++k) {
        e[k] = (gputile_hist_even){256, 0, 0.0, 256.0};
        cp[k] = d + 256 * k;
    }
    gputile_histogram_options o = GPUTILE_HISTOGRAM_OPTIONS_INIT;
    cr_assert_eq(gputile_histogram_even(&in, e, cp, OVW, NULL, &o), GPUTILE_SUCCESS);
    cr_assert_eq(o.tier_used, GPUTILE_HIST_TIER_SHARED);
    cr_assert(o.copies_used >= 2, "RGBA8: %d copies", o.copies_used);
    cr_assert_eq(o.bins_per_block, 1024);
    o = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    o.tier = GPUTILE_HIST_TIER_DSM;
    cr_assert_eq(gputile_histogram_even(&in, e, cp, OVW, NULL, &o), GPUTILE_ERROR_UNSUPPORTED);
    in.channels = 1;
    in.type = I32;
    e[0] = (gputile_hist_even){1 << 24, 0, -(double)(1 << 30), (double)(1 << 30)};
    o = (gputile_histogram_options)GPUTILE_HISTOGRAM_OPTIONS_INIT;
    cr_assert_eq(gputile_histogram_even(&in, e, cp, OVW, NULL, &o), GPUTILE_SUCCESS);
    cr_assert_eq(o.tier_used, GPUTILE_HIST_TIER_GLOBAL);
    cr_assert_eq(o.copies_used, 0);
    o.tier = GPUTILE_HIST_TIER_SHARED;
    cr_assert_eq(gputile_histogram_even(&in, e, cp, OVW, NULL, &o), GPUTILE_ERROR_UNSUPPORTED);
    GPUTEST_CUDA(cudaDeviceSynchronize());
    GPUTEST_CUDA(cudaFree(d));
}

/* A stream other than the default one; the host edges may be freed (or
 * overwritten) as soon as the call returns. */
Test(histogram_image, stream_and_edges_lifetime, .init = gputest_require_device)
{
    const size_t n = 1 << 20;
    float *x;
    uint64_t *c;
    cudaStream_t st;
    GPUTEST_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    GPUTEST_CUDA(cudaMallocManaged((void **)&x, n * 4, cudaMemAttachGlobal));
    GPUTEST_CUDA(cudaMallocManaged((void **)&c, 64 * 8, cudaMemAttachGlobal));
    double *edges = malloc(65 * sizeof *edges);
    cr_assert_not_null(edges);
    for (int i = 0; i <= 64; ++i)
        edges[i] = i * i;
    uint64_t want[64] = {0};
    for (size_t i = 0; i < n; ++i) {
        x[i] = (float)(rnd01() * 5000.0 - 500.0);
        int64_t b = ref_range(edges, 65, x[i]);
        if (b >= 0)
            want[b]++;
    }
    gputile_hist_input in = GPUTILE_HIST_INPUT_INIT;
    in.samples = x;
    in.type = F32;
    in.width = n;
    in.height = 1;
    int32_t ne[1] = {65};
    const double *ep[1] = {edges};
    uint64_t *cp[1] = {c};
    cr_assert_eq(gputile_histogram_range(&in, ne, ep, cp, OVW, st, NULL), GPUTILE_SUCCESS);
    for (int i = 0; i <= 64; ++i)
        edges[i] = -1.0; /* the call has its own copy */
    free(edges);
    GPUTEST_CUDA(cudaStreamSynchronize(st));
    for (int i = 0; i < 64; ++i)
        cr_assert_eq(c[i], want[i], "bin %d: %llu, expected %llu", i, (unsigned long long)c[i],
                     (unsigned long long)want[i]);
    GPUTEST_CUDA(cudaFree(x));
    GPUTEST_CUDA(cudaFree(c));
    GPUTEST_CUDA(cudaStreamDestroy(st));
}
