/* SPDX-License-Identifier: MIT */
/*
 * histogram_image.c: gputile_histogram_even() and gputile_histogram_range():
 * validate the image and each channel's bins, turn the bins into what the
 * kernels evaluate (kernels/histogram_image.h), plan, zero the counts
 * (overwrite), launch, report the plan.
 *
 * Checks, in the order the man page lists them (all before anything is
 * written or the device is asked): the input struct (size, type,
 * channels), mode, each channel's bins, NULL pointers, alignment, the row
 * stride, sizes that overflow, counts that overlap the samples' extent or
 * each other.
 *
 * Plan: the shared tier while one block's opt-in shared memory holds every
 * channel's counts (32-bit) plus the UINT8 table or the range keys, with
 * the most interleaved copies (up to 32) that still let two blocks share
 * an SM (or, where registers keep one block per SM anyway, as many as one
 * block holds); then, other than UINT8, the shared tier with 16-bit counts (one
 * copy: 65,536 bins of uint16 fit); else 64-bit atomics on the counts
 * (global tier). Range keys live in shared memory in the shared tier and
 * are read from device memory in the global tier, so any number of edges
 * up to GPUTILE_HIST_MAX_BINS + 1 works under AUTO.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "histogram_plan.h"
#include "../kernels/histogram_image.h"

#define MAX_COPIES_LOG2 5
#define INT_BOUND 8589934592.0 /* 2^33: integer even-bin bounds */

/* The table's row of each public sample type, and its value range. */
static const struct {
    int row;
    int64_t min, max;
} types[] = {
    [GPUTILE_SAMPLE_U8] = {GPUTILE__HIST_SAMPLE_UINT8, 0, UINT8_MAX},
    [GPUTILE_SAMPLE_U16] = {GPUTILE__HIST_SAMPLE_UINT16, 0, UINT16_MAX},
    [GPUTILE_SAMPLE_I16] = {GPUTILE__HIST_SAMPLE_INT16, INT16_MIN, INT16_MAX},
    [GPUTILE_SAMPLE_I32] = {GPUTILE__HIST_SAMPLE_INT32, INT32_MIN, INT32_MAX},
    [GPUTILE_SAMPLE_F32] = {GPUTILE__HIST_SAMPLE_FLOAT, 0, 0},
};

static bool overlap(uintptr_t a, size_t abytes, uintptr_t b, size_t bbytes)
{
    return abytes != 0 && bbytes != 0 && a < b + bbytes && b < a + abytes;
}

/* The input struct's own fields. */
static gputile_status check_header(const gputile_hist_input *in)
{
    if (in == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    if (in->size < sizeof(gputile_hist_input) || in->type < GPUTILE_SAMPLE_U8 ||
        in->type > GPUTILE_SAMPLE_F32 || in->channels < 1 ||
        in->channels > GPUTILE__HIMG_MAX_CHANNELS)
        return GPUTILE_ERROR_INVALID_VALUE;
    return GPUTILE_SUCCESS;
}

/* Pointers, alignment, stride, sizes and overlaps; nbins[c] counts per
 * channel. Fills a's geometry. */
static gputile_status check_memory_layout(const gputile_hist_input *in, uint64_t *const counts[],
                                          const uint32_t *nbins, gputile__himg_args *a)
{
    const gputile__hist_type *t = gputile__hist_type_of(types[in->type].row);
    const size_t size = t->bytes, half = SIZE_MAX / 2;
    const bool empty = in->width == 0 || in->height == 0;
    for (int c = 0; c < in->channels; ++c)
        if (counts[c] == NULL)
            return GPUTILE_ERROR_NULL_POINTER;
    if (!empty && in->samples == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    for (int c = 0; c < in->channels; ++c)
        if ((uintptr_t)counts[c] % sizeof(uint64_t) != 0)
            return GPUTILE_ERROR_INVALID_VALUE;
    /* row_stride_bytes is not read for one row (the man page) */
    if ((uintptr_t)in->samples % size != 0 ||
        (!empty && in->height > 1 && in->row_stride_bytes % size != 0))
        return GPUTILE_ERROR_INVALID_VALUE;
    /* Byte sizes stay below 2^63, as for matrices. */
    if (in->width > half / (size_t)in->channels / size)
        return GPUTILE_ERROR_OVERFLOW;
    const size_t row_bytes = in->width * (size_t)in->channels * size;
    if (!empty && in->height > 1 && in->row_stride_bytes < row_bytes)
        return GPUTILE_ERROR_INVALID_VALUE;
    size_t extent = 0;
    if (!empty) {
        if (in->height - 1 > (half - row_bytes) / (in->row_stride_bytes ? in->row_stride_bytes : 1))
            return GPUTILE_ERROR_OVERFLOW;
        extent = (in->height - 1) * in->row_stride_bytes + row_bytes;
        if ((uintptr_t)in->samples > UINTPTR_MAX - extent)
            return GPUTILE_ERROR_OVERFLOW;
    }
    for (int c = 0; c < in->channels; ++c)
        if ((uintptr_t)counts[c] > UINTPTR_MAX - (size_t)nbins[c] * sizeof(uint64_t))
            return GPUTILE_ERROR_OVERFLOW;
    for (int c = 0; c < in->channels; ++c) {
        const size_t cb = (size_t)nbins[c] * sizeof(uint64_t);
        if (overlap((uintptr_t)in->samples, extent, (uintptr_t)counts[c], cb))
            return GPUTILE_ERROR_ALIASING;
        for (int d = 0; d < c; ++d)
            if (overlap((uintptr_t)counts[d], (size_t)nbins[d] * sizeof(uint64_t),
                        (uintptr_t)counts[c], cb))
                return GPUTILE_ERROR_ALIASING;
    }
    memset(a, 0, sizeof *a);
    a->samples = in->samples;
    a->type = types[in->type].row;
    a->channels = in->channels;
    a->row_samples = (uint64_t)in->width * (uint64_t)in->channels;
    a->height = empty ? 0 : in->height;
    a->stride = in->height > 1 ? in->row_stride_bytes : row_bytes;
    for (int c = 0; c < in->channels; ++c) {
        a->ch[c].nbins = nbins[c];
        a->ch[c].counts = (unsigned long long *)counts[c];
    }
    return GPUTILE_SUCCESS;
}

static gputile_status check_even(int type, const gputile_hist_even *e)
{
    if (e->nbins < 1 || e->nbins > GPUTILE_HIST_MAX_BINS || e->reserved != 0)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (!isfinite(e->lower) || !isfinite(e->upper) || !(e->lower < e->upper) ||
        !isfinite(e->upper - e->lower) || !isfinite((double)e->nbins / (e->upper - e->lower)))
        return GPUTILE_ERROR_INVALID_VALUE; /* (the last: a range narrower than nbins / DBL_MAX) */
    if (type != GPUTILE_SAMPLE_F32 && (floor(e->lower) != e->lower || floor(e->upper) != e->upper ||
                                       e->lower < -INT_BOUND || e->upper > INT_BOUND))
        return GPUTILE_ERROR_INVALID_VALUE;
    return GPUTILE_SUCCESS;
}

static void even_channel(int type, const gputile_hist_even *e, gputile__himg_channel *c)
{
    if (type == GPUTILE_SAMPLE_F32) {
        c->flower = e->lower;
        c->fupper = e->upper;
        c->fscale = (double)e->nbins / (e->upper - e->lower);
    } else {
        c->ilower = (int64_t)e->lower;
        c->ispan = (uint64_t)((int64_t)e->upper - (int64_t)e->lower);
        c->iinv = (double)e->nbins / (double)c->ispan;
        /* bins of 2^k values: the kernels shift instead of dividing */
        const uint64_t w = c->ispan / (uint64_t)e->nbins;
        c->ishift = -1;
        if (c->ispan % (uint64_t)e->nbins == 0 && (w & (w - 1)) == 0)
            for (c->ishift = 0; ((uint64_t)1 << c->ishift) < w; ++c->ishift) {
            }
    }
}

static gputile_status check_edges(int32_t n, const double *e)
{
    if (n < 2 || n > GPUTILE_HIST_MAX_BINS + 1)
        return GPUTILE_ERROR_INVALID_VALUE;
    if (e == NULL)
        return GPUTILE_ERROR_NULL_POINTER;
    for (int32_t i = 0; i < n; ++i)
        if (!isfinite(e[i]) || (i > 0 && !(e[i - 1] < e[i])))
            return GPUTILE_ERROR_INVALID_VALUE;
    return GPUTILE_SUCCESS;
}

/* Search keys of one channel's edges: x >= edge exactly when x >= key.
 * Integers: ceil(edge), below the type's range raised to its least value,
 * keys above its greatest value dropped (no sample reaches them: the last
 * kept bin is then open above, top = nkeys). Floats: the least float >=
 * the edge (+inf above FLT_MAX). */
static void range_keys(int type, int32_t n, const double *e, uint32_t *keys,
                       gputile__himg_channel *c)
{
    uint32_t m = 0;
    for (int32_t i = 0; i < n; ++i) {
        if (type == GPUTILE_SAMPLE_F32) {
            float f = (float)e[i];
            if ((double)f < e[i])
                f = nextafterf(f, INFINITY);
            memcpy(&keys[m++], &f, sizeof f);
            continue;
        }
        double k = ceil(e[i]);
        if (k > (double)types[type].max)
            break;
        int32_t v = k < (double)types[type].min ? (int32_t)types[type].min : (int32_t)k;
        memcpy(&keys[m++], &v, sizeof v);
    }
    c->nkeys = m;
    c->top = m == (uint32_t)n ? m - 1 : m;
}

#define MAX_CELLS_LOG2 12

/* A key's order-preserving 32-bit pattern: integers + 2^31; floats'
 * bits with negatives flipped (-0 as +0). */
static uint32_t key_order(int type, uint32_t key)
{
    if (type != GPUTILE_SAMPLE_F32)
        return key ^ 0x80000000u;
    float f;
    uint32_t u;
    memcpy(&f, &key, sizeof f);
    f += 0.0f;
    memcpy(&u, &f, sizeof u);
    return u ^ ((u >> 31) ? 0xFFFFFFFFu : 0x80000000u);
}

/* Keys in the fullest cell under the map c describes (a host estimate of
 * the kernel's cell_of: only the choice of map rests on it). */
static uint32_t fullest_cell(int type, const uint32_t *keys, const gputile__himg_channel *c)
{
    uint32_t count[1u << MAX_CELLS_LOG2], most = 0;
    const uint32_t last = (1u << c->cells_log2) - 1;
    /* only the cells in use: range_cells() calls this once or twice per
     * doubling, and clearing all 4,096 each time cost microseconds a call */
    memset(count, 0, (last + 1) * sizeof count[0]);
    for (uint32_t i = 0; i < c->nkeys; ++i) {
        uint32_t cell;
        if (type == GPUTILE_SAMPLE_F32 && !c->cell_bits) {
            float f;
            memcpy(&f, &keys[i], sizeof f);
            const float t = (f - c->cell_lo) * c->cell_scale;
            cell = t >= (float)last ? last : t > 0.0f ? (uint32_t)t : 0u;
        } else {
            const uint32_t u = key_order(type, keys[i]);
            cell = u < c->cell_u0 ? 0 : (u - c->cell_u0) >> c->cell_shift;
            cell = cell < last ? cell : last;
        }
        most = ++count[cell] > most ? count[cell] : most;
    }
    return most;
}

/* The map of c->cells_log2 cells that leaves the fewest keys in the
 * fullest cell, and that count: the order-preserving bits' map (cells of
 * ~equal ratio) or, for floats, the linear map from the first key to the
 * last finite one (for evenly spread edges). */
static uint32_t cell_map(int type, const uint32_t *keys, gputile__himg_channel *c)
{
    const uint32_t n = c->nkeys, log2 = c->cells_log2;
    /* bits: the keys' patterns from the first to the last over the cells */
    const uint32_t u0 = key_order(type, keys[0]), u1 = key_order(type, keys[n - 1]);
    c->cell_bits = 1;
    c->cell_u0 = u0;
    c->cell_shift = 0;
    while (c->cell_shift < 31 && ((u1 - u0) >> c->cell_shift) >= (1u << log2))
        ++c->cell_shift;
    const uint32_t bits_most = fullest_cell(type, keys, c);
    if (type != GPUTILE_SAMPLE_F32 || n < 2)
        return bits_most;
    float lo, hi;
    memcpy(&lo, &keys[0], sizeof lo);
    uint32_t top = n - 1;
    memcpy(&hi, &keys[top], sizeof hi);
    while (top > 0 && !isfinite(hi))
        memcpy(&hi, &keys[--top], sizeof hi);
    const double wide = (double)(1u << log2) / ((double)hi - (double)lo);
    if (!(hi > lo) || !(wide <= FLT_MAX) || !((float)wide > 0.0f))
        return bits_most;
    gputile__himg_channel linear = *c;
    linear.cell_bits = 0;
    linear.cell_lo = lo;
    linear.cell_scale = (float)wide;
    const uint32_t linear_most = fullest_cell(type, keys, &linear);
    if (linear_most > bits_most)
        return bits_most;
    *c = linear;
    return linear_most;
}

/* The cells in front of the search of a channel's keys (other types than
 * uint8, whose table already holds every value's bin): at least twice as
 * many as keys, and more, up to 2^12, until no cell holds two keys (the
 * kernel then compares a sample with one key and searches only in cells
 * that hold more: kernels/histogram_image.cu); the map per cell_map().
 * plan() halves them where the shared tier's memory runs short. */
static void range_cells(int type, const uint32_t *keys, gputile__himg_channel *c)
{
    const uint32_t n = c->nkeys;
    uint32_t log2 = 0;
    while (log2 < MAX_CELLS_LOG2 && (1u << log2) < 2 * n)
        ++log2;
    c->cells_log2 = log2;
    if (n == 0)
        return;
    while (cell_map(type, keys, c) > 1 && c->cells_log2 < MAX_CELLS_LOG2)
        ++c->cells_log2;
}

/* Halves every channel's range cells (down to one, a plain search);
 * false when there were none to halve. */
static bool fewer_cells(gputile__himg_args *a)
{
    bool any = false;
    for (int c = 0; c < a->channels; ++c)
        if (a->mode == GPUTILE__HIMG_RANGE && a->ch[c].cells_log2 > 0) {
            --a->ch[c].cells_log2; /* each cell takes two: the same map, halved */
            a->ch[c].cell_scale *= 0.5f;
            a->ch[c].cell_shift += a->ch[c].cell_shift < 31;
            any = true;
        }
    return any;
}

/* The plan: tier, counting, copies and blocks (fewer range cells where
 * they would push the shared tier out of shared memory). */
static gputile_status plan(gputile__himg_args *a, int tier, gputile__himg_launch *l)
{
    const gputile__device *d;
    gputile_status s = gputile__device_current(&d);
    if (s != GPUTILE_SUCCESS)
        return s;
    const bool u8 = a->type == GPUTILE__HIST_SAMPLE_UINT8;
    /* UINT8 even bins of 2^k values each: words computed, not looked up
     * (lower bounded so that a value's offset from it fits 32 bits) */
    bool shift8 = u8 && a->mode == GPUTILE__HIMG_EVEN;
    bool all = true;   /* and every value 0..255 counted: no compare */
    bool ident = true; /* and one value per bin from 0 */
    for (int c = 0; c < a->channels; ++c) {
        const int64_t lo = a->ch[c].ilower;
        /* (a shift past 24 would be one of 32 bits or more: undefined) */
        shift8 =
            shift8 && a->ch[c].ishift >= 0 && a->ch[c].ishift <= 24 && lo >= -((int64_t)1 << 24);
        all = all && lo <= 0 && lo + (int64_t)a->ch[c].ispan >= 256;
        ident = ident && lo == 0 && a->ch[c].ishift == 0;
    }
    all = all && shift8;
    ident = ident && all;
    /* 16-bit samples, every value of the type counted in even bins of 2^k
     * values: with 16-bit counts, each sample's half is computed */
    const bool i16 = a->type == GPUTILE__HIST_SAMPLE_INT16;
    bool all16 = (i16 || a->type == GPUTILE__HIST_SAMPLE_UINT16) && a->mode == GPUTILE__HIMG_EVEN;
    for (int c = 0; c < a->channels; ++c) {
        const int64_t lo = a->ch[c].ilower, min = i16 ? INT16_MIN : 0;
        const int64_t max = i16 ? INT16_MAX : UINT16_MAX;
        all16 = all16 && a->ch[c].ishift >= 0 && a->ch[c].ishift <= 24 &&
                lo >= -((int64_t)1 << 24) && lo <= min && lo + (int64_t)a->ch[c].ispan > max;
    }
    const int wide = ident    ? GPUTILE__HIMG_IDENT8
                     : all    ? GPUTILE__HIMG_SHIFT8_ALL
                     : shift8 ? GPUTILE__HIMG_SHIFT8
                     : u8     ? GPUTILE__HIMG_TABLE
                     : all16  ? GPUTILE__HIMG_SHIFT16_ALL
                              : GPUTILE__HIMG_RUNS;
    const size_t optin = (size_t)d->smem_optin;
#define BYTES(tier_, counting, k) (gputile__himg_smem_words(a, (tier_), (counting), (k)) * 4)
    bool fits32, fits16;
    do { /* range cells are a speed-up: fewer of them before a slower tier */
        fits32 = BYTES(GPUTILE_HIST_TIER_SHARED, wide, 0) <= optin;
        fits16 = !u8 && BYTES(GPUTILE_HIST_TIER_SHARED, GPUTILE__HIMG_PACKED16, 0) <= optin;
    } while (!fits32 && fewer_cells(a));
    /* Only these tiers (not DSM, nor any other tier of the 1-D calls). */
    if ((tier != GPUTILE_HIST_TIER_AUTO && tier != GPUTILE_HIST_TIER_SHARED &&
         tier != GPUTILE_HIST_TIER_GLOBAL) ||
        (tier == GPUTILE_HIST_TIER_SHARED && !fits32 && !fits16))
        return GPUTILE_ERROR_UNSUPPORTED;
    memset(l, 0, sizeof *l);
    l->smem_optin = d->smem_optin;
    if (tier != GPUTILE_HIST_TIER_GLOBAL && fits32) {
        /* the most copies that still let two blocks share an SM */
        const size_t per_sm_half = (size_t)d->smem_per_sm / 2, reserved = (size_t)d->smem_reserved;
        const size_t two_per_sm = per_sm_half > reserved ? per_sm_half - reserved : 0;
        int k = MAX_COPIES_LOG2;
        while (k > 0 && BYTES(GPUTILE_HIST_TIER_SHARED, wide, k) > two_per_sm)
            --k;
        l->tier = GPUTILE_HIST_TIER_SHARED;
        l->counting = wide;
        l->copies_log2 = k;
    } else if (tier != GPUTILE_HIST_TIER_GLOBAL && fits16) {
        l->tier = GPUTILE_HIST_TIER_SHARED;
        l->counting = all16 ? GPUTILE__HIMG_PACKED16_ALL : GPUTILE__HIMG_PACKED16;
    } else {
        l->tier = GPUTILE_HIST_TIER_GLOBAL;
        l->counting = GPUTILE__HIMG_RUNS;
    }
    l->smem = BYTES(l->tier, l->counting, l->copies_log2);
#undef BYTES
    if (l->smem > optin)
        return GPUTILE_ERROR_UNSUPPORTED; /* a forced shared tier beyond shared memory */
    int per_sm = 0;
    if ((s = gputile__cuda_status(gputile__himg_blocks_per_sm(
             a, l->counting, l->smem, d->smem_optin, &per_sm))) != GPUTILE_SUCCESS)
        return s;
    if (per_sm < 1)
        return GPUTILE_ERROR_UNSUPPORTED;
    /* One block per SM whatever its shared memory (its registers: 1,024
     * threads of more than 32): then it may as well take more copies. */
    if (per_sm == 1 && l->tier == GPUTILE_HIST_TIER_SHARED && !GPUTILE__HIMG_PACKED(l->counting))
        while (l->copies_log2 < MAX_COPIES_LOG2 &&
               gputile__himg_smem_words(a, l->tier, l->counting, l->copies_log2 + 1) * 4 <= optin) {
            ++l->copies_log2;
            l->smem = gputile__himg_smem_words(a, l->tier, l->counting, l->copies_log2) * 4;
        }
    l->blocks = per_sm * d->sms;
    return GPUTILE_SUCCESS;
}

static void report(gputile_histogram_options *o, const gputile__himg_args *a,
                   const gputile__himg_launch *l)
{
    if (o == NULL)
        return;
    int32_t bins = 0;
    for (int c = 0; c < a->channels; ++c)
        bins += (int32_t)a->ch[c].nbins;
    o->tier_used = l->tier;
    o->cluster_size_used = 1;
    o->copies_used = l->tier == GPUTILE_HIST_TIER_SHARED ? 1 << l->copies_log2 : 0; /* 16-bit: 1 */
    o->bins_per_block = l->tier == GPUTILE_HIST_TIER_SHARED ? bins : 0;
    o->blocks_used = l->blocks;
}

/* Everything after the bins are known: memory, plan, keys, zeroing, launch. */
static gputile_status run(gputile__himg_args *a, const uint32_t *keys, size_t nkeys,
                          gputile_hist_mode mode, int tier, cudaStream_t stream,
                          gputile_histogram_options *options)
{
    gputile_status s;
    for (int c = 0; c < a->channels; ++c)
        if ((s = gputile__hist_check_memory(a->ch[c].counts)) != GPUTILE_SUCCESS)
            return s;
    if (a->height != 0 && (s = gputile__hist_check_memory(a->samples)) != GPUTILE_SUCCESS)
        return s;
    gputile__himg_launch l;
    if ((s = plan(a, tier, &l)) != GPUTILE_SUCCESS)
        return s;

    uint32_t *dkeys = NULL;
    if (nkeys != 0 && a->height != 0) {
        const gputile__device *d;
        /* the keys are copied from the library's own host array */
        if ((s = gputile__refuse_capture(stream)) != GPUTILE_SUCCESS ||
            (s = gputile__device_current(&d)) != GPUTILE_SUCCESS ||
            (s = gputile__cuda_status(gputile__workspace_acquire(
                 (void **)&dkeys, nkeys * sizeof *dkeys, d->ordinal, stream))) != GPUTILE_SUCCESS)
            return s;
        /* A pageable source is staged before cudaMemcpyAsync returns. */
        if ((s = gputile__cuda_status(cudaMemcpyAsync(dkeys, keys, nkeys * sizeof *dkeys,
                                                      cudaMemcpyHostToDevice, stream))) !=
            GPUTILE_SUCCESS) {
            (void)gputile__workspace_release(dkeys, stream);
            return s;
        }
        for (int c = 0, off = 0; c < a->channels; off += (int)a->ch[c].nkeys, ++c)
            a->ch[c].keys = dkeys + off;
    }
    for (int c = 0; c < a->channels && mode == GPUTILE_HIST_OVERWRITE; ++c)
        if ((s = gputile__cuda_status(cudaMemsetAsync(
                 a->ch[c].counts, 0, (size_t)a->ch[c].nbins * sizeof(uint64_t), stream))) !=
            GPUTILE_SUCCESS)
            break;
    if (s == GPUTILE_SUCCESS && a->height != 0 && a->row_samples != 0)
        s = gputile__cuda_status(gputile__himg_run(a, &l, stream));
    if (dkeys != NULL) {
        gputile_status r = gputile__cuda_status(gputile__workspace_release(dkeys, stream));
        s = s != GPUTILE_SUCCESS ? s : r;
    }
    if (s == GPUTILE_SUCCESS)
        report(options, a, &l);
    return s;
}

/* What both calls check first: the input struct, that the per-channel
 * arrays are there (arrays: none of them NULL), the options, the mode. */
static gputile_status check_call(const gputile_hist_input *input, bool arrays,
                                 const gputile_histogram_options *options, gputile_hist_mode mode,
                                 int *tier)
{
    int cluster;
    gputile_status s;
    if ((s = check_header(input)) != GPUTILE_SUCCESS)
        return s;
    if (!arrays)
        return GPUTILE_ERROR_NULL_POINTER;
    if ((s = gputile__hist_read_options(options, tier, &cluster)) != GPUTILE_SUCCESS)
        return s;
    return mode == GPUTILE_HIST_OVERWRITE || mode == GPUTILE_HIST_ACCUMULATE
               ? GPUTILE_SUCCESS
               : GPUTILE_ERROR_INVALID_VALUE;
}

gputile_status gputile_histogram_even(const gputile_hist_input *input,
                                      const gputile_hist_even levels[], uint64_t *const counts[],
                                      gputile_hist_mode mode, struct CUstream_st *stream,
                                      gputile_histogram_options *options)
{
    int tier;
    gputile_status s = check_call(input, levels != NULL && counts != NULL, options, mode, &tier);
    if (s != GPUTILE_SUCCESS)
        return s;
    uint32_t nbins[GPUTILE__HIMG_MAX_CHANNELS];
    for (int c = 0; c < input->channels; ++c) {
        if ((s = check_even(input->type, &levels[c])) != GPUTILE_SUCCESS)
            return s;
        nbins[c] = (uint32_t)levels[c].nbins;
    }
    gputile__himg_args a;
    if ((s = check_memory_layout(input, counts, nbins, &a)) != GPUTILE_SUCCESS)
        return s;
    a.mode = GPUTILE__HIMG_EVEN;
    for (int c = 0; c < input->channels; ++c)
        even_channel(input->type, &levels[c], &a.ch[c]);
    return run(&a, NULL, 0, mode, tier, stream, options);
}

gputile_status gputile_histogram_range(const gputile_hist_input *input, const int32_t nedges[],
                                       const double *const edges[], uint64_t *const counts[],
                                       gputile_hist_mode mode, struct CUstream_st *stream,
                                       gputile_histogram_options *options)
{
    int tier;
    gputile_status s =
        check_call(input, nedges != NULL && edges != NULL && counts != NULL, options, mode, &tier);
    if (s != GPUTILE_SUCCESS)
        return s;
    uint32_t nbins[GPUTILE__HIMG_MAX_CHANNELS];
    size_t total = 0;
    for (int c = 0; c < input->channels; ++c) {
        if ((s = check_edges(nedges[c], edges[c])) != GPUTILE_SUCCESS)
            return s;
        nbins[c] = (uint32_t)nedges[c] - 1;
        total += (size_t)nedges[c];
    }
    gputile__himg_args a;
    if ((s = check_memory_layout(input, counts, nbins, &a)) != GPUTILE_SUCCESS)
        return s;
    a.mode = GPUTILE__HIMG_RANGE;
    uint32_t *keys = malloc(total * sizeof *keys);
    if (keys == NULL)
        return GPUTILE_ERROR_OUT_OF_MEMORY;
    size_t off = 0;
    for (int c = 0; c < input->channels; ++c) {
        range_keys(input->type, nedges[c], edges[c], keys + off, &a.ch[c]);
        if (input->type != GPUTILE_SAMPLE_U8) /* its table holds every value's bin */
            range_cells(input->type, keys + off, &a.ch[c]);
        off += a.ch[c].nkeys;
    }
    s = run(&a, keys, off, mode, tier, stream, options);
    free(keys);
    return s;
}
