/* SPDX-License-Identifier: MIT */
/*
 * gemm_batched_fit.c: offline fitting harness for the batched-GEMM
 * planner's cost model (gputile__gemm_batched_model in lib/gemm_plan.c).
 * It fits the model's constants, persistent_candidates[] (each persistent
 * row's dram_bytes_per_us, l2_bytes_per_us, pair_us), fp32_candidates[]'
 * `batch` factors and BATCH_ASYNC_SCALE, to calibration CSVs by coordinate
 * search on the geometric mean of the model's picks' measured speed, and
 * prints them as they would be pasted into gemm_plan.c.
 *
 * It includes plan_fit.c, a copy of lib/gemm_plan.c with those constants
 * made writable, which bench/gemm_batched_fit.sh generates (by sed) into a
 * build directory before compiling this file against the built
 * libgputile.a. An offline tool: make neither builds nor runs it.
 *
 *   bench/gemm_batched_fit.sh [BUILD_DIR]      prints the program's path
 *   gemm_batched_fit eval [--device h200|h100] [--drop NAMES] [--missing skip|worst] FILES...
 *   gemm_batched_fit fit  [--device h200|h100] [--drop NAMES] [--missing skip|worst]
 *                         [--params persistent,batch,scale|all] [--only NAMES] [--reg W]
 *                         TRAIN_FILES... [--holdout HOLDOUT_FILES...] [--train TRAIN_FILES...]
 *
 * FILES are `gputile-bench gemm --batched --csv --algorithms ROWS` output:
 * its "forced" lines give every forced row's measured speed (cuBLAS time /
 * row time), its "fp32" lines AUTO's. A file name may be prefixed, in this
 * order, with
 *   wN:    its shapes weigh N in the score (default 1), e.g. w20:anchors.csv
 *   h100:  it was measured on an H100: its shapes are scored with the model
 *          run for an H100 whatever --device says, and kept apart from the
 *          same shapes measured on the --device
 * as in w20:h100:path.csv (a path that itself starts with `w' and holds a
 * `:' needs a ./ before it).
 *
 * eval scores the current constants: the picks' geomean against cuBLAS,
 * the best forced row per shape (the oracle), AUTO as measured, and the
 * shapes where the pick falls furthest below the best row. fit moves each
 * constant of the --params groups (default all) in turn by factors of 0.5
 * to 2 and keeps a move that raises the training objective (the picks'
 * weighted mean log speed less --reg W (default 0.001) times the mean
 * squared log of the constants' change), sweep after sweep until none
 * does (at most 30); then rounds them to 3 significant digits and reports
 * the training and --holdout sets before and after, the moved constants,
 * the tables to paste, and the picks that changed.
 *
 * --only: of the --params groups, only the named candidates' constants move
 * (a new row fitted beside the others' constants as they are).
 *
 * --device: the described device the model runs for (h200: memory_scale 1;
 * h100 SXM: 0.697). --drop: candidates taken out of the model (e.g. rows the
 * calibration did not force). --missing: a pick with no forced measurement
 * is skipped (the default of eval) or scored as the shape's slowest forced
 * row (the default of fit: otherwise a fit could steer shapes onto rows
 * that were never measured).
 */
#include "plan_fit.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV GPUTILE__GEMM_N_VARIANTS
#define N_PERSISTENT (sizeof persistent_candidates / sizeof persistent_candidates[0])
#define N_FP32 (sizeof fp32_candidates / sizeof fp32_candidates[0])

/* ---------------------------------------------------------------- device */

static gputile__device dev, dev_h100;
/* the file being loaded: measured on an H100 (prefix h100:); its shapes'
 * weight (prefix wN:) */
static int load_h100;
static double load_w = 1.0;

static gputile__device described(const char *which)
{
    /* As the driver describes them (tests/test_gemm_plan.c): memory_scale
     * 1.0 on the H200, 0.697 on the H100 SXM. */
    gputile__device d = {.ordinal = -1, /* no CUDA device: nothing asked of a driver */
                         .sms = 132,
                         .major = 9,
                         .minor = 0,
                         .smem_optin = 232448,
                         .smem_per_sm = 233472,
                         .smem_reserved = 1024,
                         .clusters = 1,
                         .can_map_host = 1,
                         .host_register = 1,
                         .mem_clock_khz = 3201000,
                         .mem_bus_bits = 6016,
                         .total_mem = (size_t)150e9};
    if (strcmp(which, "h100") == 0) {
        d.mem_clock_khz = 2619000;
        d.mem_bus_bits = 5120;
        d.total_mem = (size_t)80e9;
    } else if (strcmp(which, "h200") != 0) {
        fprintf(stderr, "gemm_batched_fit: --device h200|h100, not '%s'\n", which);
        exit(2);
    }
    return d;
}

/* ------------------------------------------------------ variants, names */

static const char *vname(int v)
{
    const char *s = gputile_algorithm_name(rows[v].algorithm);
    return s != NULL ? s : "?";
}

/* the FP32 variant of a public algorithm name; -1 if none */
static int variant_of_name(const char *name)
{
    for (int alg = 1; alg < 256; ++alg) {
        const char *s = gputile_algorithm_name(alg);
        if (s != NULL && strcmp(s, name) == 0)
            return gputile__gemm_variant(alg, GPUTILE_PRECISION_FP32);
    }
    return -1;
}

/* candidate i of the model: the persistent rows, then the cp.async ones */
static int candidate_variant(size_t i)
{
    return i < N_PERSISTENT ? persistent_candidates[i].variant
                            : fp32_candidates[i - N_PERSISTENT].variant;
}

/* every candidate's variant maps back to itself through its public name */
static void check_names(void)
{
    int bad = 0;
    for (size_t i = 0; i < N_PERSISTENT + N_FP32; ++i) {
        const int v = candidate_variant(i);
        if (gputile_algorithm_name(rows[v].algorithm) == NULL || variant_of_name(vname(v)) != v) {
            fprintf(stderr,
                    "gemm_batched_fit: variant %d (%s) does not map to a public name and back\n", v,
                    rows[v].id);
            bad = 1;
        }
    }
    if (bad)
        exit(1);
}

/* ---------------------------------------------------------------- data */

typedef struct shape {
    int64_t m, n, k, count;
    double flog[NV]; /* sum of log(forced ratio) per variant */
    int fn[NV];      /* forced measurements per variant */
    double alog;     /* sum of log(AUTO's ratio) */
    int an;
    char apick[32]; /* AUTO's pick (first file's) */
    int h100;
    double w; /* weight in the score (wN: prefix) */
} shape;

typedef struct set {
    const char *name;
    shape *s;
    int n, cap;
    int rows_auto, rows_forced, merged, dropped, unknown;
} set;

static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p != '\0'; ++p)
        if (*p == ',') {
            *p = '\0';
            if (n < max)
                f[n++] = p + 1;
        }
    return n;
}

static shape *find_shape(set *S, int64_t m, int64_t n, int64_t k, int64_t count)
{
    for (int i = 0; i < S->n; ++i)
        if (S->s[i].m == m && S->s[i].n == n && S->s[i].k == k && S->s[i].count == count &&
            S->s[i].h100 == load_h100)
            return &S->s[i];
    if (S->n == S->cap) {
        S->cap = S->cap ? 2 * S->cap : 256;
        S->s = realloc(S->s, S->cap * sizeof *S->s);
        if (S->s == NULL) {
            perror("gemm_batched_fit: realloc");
            exit(1);
        }
    }
    shape *s = &S->s[S->n++];
    memset(s, 0, sizeof *s);
    s->m = m, s->n = n, s->k = k, s->count = count;
    s->h100 = load_h100;
    s->w = load_w;
    return s;
}

static void load(set *S, const char *path)
{
    load_w = 1.0;
    if (path[0] == 'w' && strchr(path, ':') != NULL) {
        load_w = atof(path + 1);
        path = strchr(path, ':') + 1;
    }
    load_h100 = strncmp(path, "h100:", 5) == 0;
    if (load_h100)
        path += 5;
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        perror(path);
        exit(1);
    }
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, fp) != NULL) {
        ++lineno;
        line[strcspn(line, "\r\n")] = '\0';
        const bool is_auto = strncmp(line, "fp32,", 5) == 0;
        const bool is_forced = strncmp(line, "forced,", 7) == 0;
        if (!is_auto && !is_forced) /* header, progress lines, blanks, other precisions */
            continue;
        char *f[24];
        const int nf = split_csv(line, f, 24);
        if (nf < 13) {
            fprintf(stderr, "gemm_batched_fit: %s:%d: %d fields, skipped\n", path, lineno, nf);
            continue;
        }
        const int64_t m = strtoll(f[1], NULL, 10), n = strtoll(f[2], NULL, 10),
                      k = strtoll(f[3], NULL, 10), count = strtoll(f[4], NULL, 10);
        char *end;
        const double ratio = strtod(f[9], &end);
        if (end == f[9] || !(ratio > 0.0) || !isfinite(ratio) || m < 1 || n < 1 || k < 1 ||
            count < 1) {
            fprintf(stderr, "gemm_batched_fit: %s:%d: bad shape or ratio '%s', skipped\n", path,
                    lineno, f[9]);
            continue;
        }
        shape *s = find_shape(S, m, n, k, count);
        if (is_auto) {
            if (s->an > 0)
                S->merged++;
            else
                snprintf(s->apick, sizeof s->apick, "%s", f[12]);
            s->alog += log(ratio);
            s->an++;
            S->rows_auto++;
        } else {
            const int v = variant_of_name(f[12]);
            if (v < 0) {
                fprintf(stderr, "gemm_batched_fit: %s:%d: unknown algorithm '%s', skipped\n", path,
                        lineno, f[12]);
                S->unknown++;
                continue;
            }
            s->flog[v] += log(ratio);
            s->fn[v]++;
            S->rows_forced++;
        }
    }
    fclose(fp);
}

/* drop shapes without forced ratios */
static void finish(set *S)
{
    int w = 0;
    for (int i = 0; i < S->n; ++i) {
        int any = 0;
        for (int v = 0; v < NV; ++v)
            any |= S->s[i].fn[v] > 0;
        if (any)
            S->s[w++] = S->s[i];
        else
            S->dropped++;
    }
    S->n = w;
}

static double forced_ratio(const shape *s, int v) /* NAN: not measured */
{
    return v >= 0 && s->fn[v] > 0 ? exp(s->flog[v] / s->fn[v]) : NAN;
}

static int best_forced(const shape *s)
{
    int b = -1;
    for (int v = 0; v < NV; ++v)
        if (s->fn[v] > 0 && (b < 0 || s->flog[v] / s->fn[v] > s->flog[b] / s->fn[b]))
            b = v;
    return b;
}

/* ------------------------------------------------- dropped candidates */

/* --drop NAMES: candidates taken out of the model (to replay a library that
 * lacked them): an FP32 row's `batch` factor made tiny, a persistent row's
 * pair cost huge (mute_dropped); their constants are put back for printing
 * (unmute_dropped). */
static bool p_dropped[16], f_dropped[16];
static double f_saved[16], p_saved[16];
_Static_assert(N_PERSISTENT <= 16 && N_FP32 <= 16, "p_dropped[] and f_dropped[] hold 16");

static void mute_dropped(void)
{
    for (size_t i = 0; i < N_PERSISTENT; ++i)
        if (p_dropped[i])
            p_saved[i] = persistent_candidates[i].pair_us, persistent_candidates[i].pair_us = 1e30;
    for (size_t i = 0; i < N_FP32; ++i)
        if (f_dropped[i])
            f_saved[i] = fp32_candidates[i].batch, fp32_candidates[i].batch = 1e-12;
}

static void unmute_dropped(void)
{
    for (size_t i = 0; i < N_PERSISTENT; ++i)
        if (p_dropped[i])
            persistent_candidates[i].pair_us = p_saved[i];
    for (size_t i = 0; i < N_FP32; ++i)
        if (f_dropped[i])
            fp32_candidates[i].batch = f_saved[i];
}

static void drop_candidates(const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t != NULL; t = strtok(NULL, ",")) {
        bool found = false;
        for (size_t i = 0; i < N_PERSISTENT; ++i)
            if (strcmp(vname(persistent_candidates[i].variant), t) == 0)
                p_dropped[i] = found = true;
        for (size_t i = 0; i < N_FP32; ++i)
            if (strcmp(vname(fp32_candidates[i].variant), t) == 0)
                f_dropped[i] = found = true;
        if (!found) {
            fprintf(stderr, "gemm_batched_fit: --drop: '%s' is not a candidate\n", t);
            exit(2);
        }
    }
    mute_dropped();
}

/* ---------------------------------------------------------------- model */

/* As gputile_gemm_strided_batched() forms it for the bench's packed
 * row-major batch (lib/gemm_batched.c): A m x k (stride k, batch stride
 * m k), B k x n (stride n, batch stride k n), C m x n (stride n, batch
 * stride m n), bases 256-byte aligned. */
static bool packed_rows_aligned(const shape *s, int64_t rows, int64_t cols)
{
    return cols % 4 == 0 && (s->count == 1 || (rows * cols) % 4 == 0);
}

static unsigned form_of(const shape *s)
{
    const bool a = packed_rows_aligned(s, s->m, s->k), b = packed_rows_aligned(s, s->k, s->n);
    return gputile__gemm_form(a && b, packed_rows_aligned(s, s->m, s->n), false, false);
}

static int pick_of(const shape *s)
{
    return gputile__gemm_batched_model(s->h100 ? &dev_h100 : &dev, form_of(s), s->m, s->n, s->k,
                                       s->count, NULL);
}

/* a pick that was not measured: skipped, or scored as the shape's slowest
 * forced row (--missing worst: no gain from steering shapes there) */
static bool missing_worst;
static int missing_mode = -1; /* -1: the mode's default (eval: skip, fit: worst) */

typedef struct score {
    double sum; /* of log(pick's forced ratio) */
    double used;
    int missing;
} score;

static score score_set(const set *S, int *picks)
{
    score r = {0};
    for (int i = 0; i < S->n; ++i) {
        const int p = pick_of(&S->s[i]);
        if (picks != NULL)
            picks[i] = p;
        const shape *s = &S->s[i];
        if (s->fn[p] > 0) {
            r.sum += s->w * s->flog[p] / s->fn[p];
            r.used += s->w;
        } else {
            r.missing++;
            if (missing_worst) {
                double lo = INFINITY;
                for (int v = 0; v < NV; ++v)
                    if (s->fn[v] > 0 && s->flog[v] / s->fn[v] < lo)
                        lo = s->flog[v] / s->fn[v];
                r.sum += s->w * lo;
                r.used += s->w;
            }
        }
    }
    return r;
}

static double geo(score r)
{
    return r.used > 0 ? exp(r.sum / r.used) : NAN;
}

/* -------------------------------------------------------------- params */

enum { G_PERSISTENT = 1, G_BATCH = 2, G_SCALE = 4 };

typedef struct param {
    char label[64];
    double *p;
    double orig;
} param;

static param P[64];
static int NP;
_Static_assert(3 * N_PERSISTENT + N_FP32 + 1 <= 64, "P[] holds every constant");

static void add_param(double *p, const char *fmt, const char *a, const char *b)
{
    param *q = &P[NP++];
    snprintf(q->label, sizeof q->label, fmt, a, b);
    q->p = p;
    q->orig = *p;
}

/* --only NAMES: the candidates whose constants may move (all if empty) */
static bool only_set, only[NV];

static void only_candidates(const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, ","); t != NULL; t = strtok(NULL, ",")) {
        const int v = variant_of_name(t);
        if (v < 0) {
            fprintf(stderr, "gemm_batched_fit: --only: '%s' is not an FP32 algorithm\n", t);
            exit(2);
        }
        only[v] = only_set = true;
    }
}

/* the constants of the --params groups, less those of dropped candidates,
 * of candidates never forced in the training files (never[variant]) and,
 * under --only, of the candidates it does not name */
static void build_params(int groups, const bool never[NV])
{
    NP = 0;
    if (groups & G_PERSISTENT)
        for (size_t i = 0; i < N_PERSISTENT; ++i) {
            struct persistent_candidate *c = &persistent_candidates[i];
            if (p_dropped[i] || never[c->variant] || (only_set && !only[c->variant]))
                continue;
            const char *nm = vname(c->variant);
            add_param(&c->dram_bytes_per_us, "%s.%s", nm, "dram_bytes_per_us");
            add_param(&c->l2_bytes_per_us, "%s.%s", nm, "l2_bytes_per_us");
            add_param(&c->pair_us, "%s.%s", nm, "pair_us");
        }
    if (groups & G_BATCH)
        for (size_t i = 0; i < N_FP32; ++i)
            if (!f_dropped[i] && !never[fp32_candidates[i].variant] &&
                (!only_set || only[fp32_candidates[i].variant]))
                add_param(&fp32_candidates[i].batch, "%s.%s", vname(fp32_candidates[i].variant),
                          "batch");
    if (groups & G_SCALE)
        add_param(&BATCH_ASYNC_SCALE, "%s%s", "BATCH_ASYNC_SCALE", "");
}

static double penalty(double w)
{
    if (NP == 0 || w == 0.0)
        return 0.0;
    double s = 0.0;
    for (int i = 0; i < NP; ++i) {
        const double l = log(*P[i].p / P[i].orig);
        s += l * l;
    }
    return w * s / NP;
}

/* the training objective: mean log ratio of the picks less the penalty */
static double objective(const set *S, double w)
{
    const score r = score_set(S, NULL);
    return r.used > 0 ? r.sum / r.used - penalty(w) : -INFINITY;
}

/* 3 significant digits in the source's style: 9.83e6, 1.70e-4, 0.0468 */
static const char *fmt3(double v, char *buf, size_t size)
{
    const double a = fabs(v);
    if (a != 0.0 && (a >= 1e4 || a < 1e-3)) {
        char t[32];
        snprintf(t, sizeof t, "%.2e", v); /* d.dde+XX */
        char *e = strchr(t, 'e');
        *e = '\0';
        snprintf(buf, size, "%se%d", t, atoi(e + 1));
    } else
        snprintf(buf, size, "%.3g", v);
    return buf;
}

static double round3(double v)
{
    char b[64];
    return strtod(fmt3(v, b, sizeof b), NULL);
}

static void print_constants(void)
{
    char b[6][64];
    printf("static const struct fp32_candidate {...} fp32_candidates[] = {\n");
    for (size_t i = 0; i < N_FP32; ++i) {
        const struct fp32_candidate *c = &fp32_candidates[i];
        printf("    {GPUTILE__GEMM_V_%s, %s, %s, %s, %s, %s, %s},\n", rows[c->variant].id,
               fmt3(c->eff, b[0], 64), fmt3(c->epi_us, b[1], 64), fmt3(c->bytes_per_us, b[2], 64),
               c->cluster ? "true" : "false", fmt3(c->batch, b[3], 64),
               fmt3(c->unaligned_c_bytes_per_us, b[4], 64));
    }
    printf("};\n\nstatic const struct persistent_candidate {...} persistent_candidates[] = {\n");
    for (size_t i = 0; i < N_PERSISTENT; ++i) {
        const struct persistent_candidate *c = &persistent_candidates[i];
        printf("    {GPUTILE__GEMM_V_%s, %s, %s, %s},\n", rows[c->variant].id,
               fmt3(c->dram_bytes_per_us, b[0], 64), fmt3(c->l2_bytes_per_us, b[1], 64),
               fmt3(c->pair_us, b[2], 64));
    }
    printf("};\n\n#define BATCH_ASYNC_SCALE %s\n", fmt3(BATCH_ASYNC_SCALE, b[0], 64));
}

/* -------------------------------------------------------------- reports */

static void describe_set(const set *S)
{
    printf("%s: %d usable shapes (%d fp32 rows, %d forced rows; %d repeated AUTO rows merged "
           "by geomean; %d shapes without forced rows dropped; %d rows of unknown algorithms)\n",
           S->name, S->n, S->rows_auto, S->rows_forced, S->merged, S->dropped, S->unknown);
}

static void summary(const set *S, const char *what)
{
    int *picks = malloc((S->n + 1) * sizeof *picks);
    const score r = score_set(S, picks);
    double olog = 0.0, alog = 0.0, olog_used = 0.0;
    int an = 0, agree = 0, measured = 0, pick_below = 0, best_below = 0;
    for (int i = 0; i < S->n; ++i) {
        const shape *s = &S->s[i];
        const int b = best_forced(s);
        olog += s->flog[b] / s->fn[b];
        best_below += s->flog[b] < 0.0;
        if (s->fn[picks[i]] > 0) {
            olog_used += s->flog[b] / s->fn[b], measured++;
            pick_below += s->flog[picks[i]] < 0.0;
        }
        if (s->an > 0) {
            alog += s->alog / s->an;
            an++;
            agree += strcmp(s->apick, vname(picks[i])) == 0;
        }
    }
    printf("  %-8s model picks (%s): geomean %.4f of cuBLAS over %.0f shapes (%d picks unmeasured, "
           "%s)\n",
           S->name, what, geo(r), r.used, r.missing,
           missing_worst ? "scored as the shape's slowest row" : "skipped");
    printf("  %-8s oracle (best forced row per shape): %.4f over %d shapes (%.4f over the %d "
           "with the pick measured)\n",
           S->name, exp(olog / S->n), S->n, measured ? exp(olog_used / measured) : NAN, measured);
    printf("  %-8s below cuBLAS: the pick on %d of the %d shapes with it measured, the best "
           "forced row on %d of %d\n",
           S->name, pick_below, measured, best_below, S->n);
    printf("  %-8s AUTO measured (fp32 rows): %.4f over %d shapes; model pick == AUTO's measured "
           "pick on %d of %d\n",
           S->name, an ? exp(alog / an) : NAN, an, agree, an);
    if (r.missing > 0) {
        int cnt[NV] = {0};
        for (int i = 0; i < S->n; ++i)
            if (S->s[i].fn[picks[i]] == 0)
                cnt[picks[i]]++;
        printf("  %-8s unmeasured picks:", S->name);
        for (int v = 0; v < NV; ++v)
            if (cnt[v])
                printf(" %s x%d", vname(v), cnt[v]);
        printf("\n");
    }
    free(picks);
}

typedef struct worst {
    int i, pick;
    double regret;
} worst;

static int by_regret(const void *a, const void *b)
{
    const double x = ((const worst *)a)->regret, y = ((const worst *)b)->regret;
    return x < y ? -1 : x > y;
}

static void worst_table(const set *S, int nshow)
{
    worst *w = malloc((S->n + 1) * sizeof *w);
    int nw = 0;
    for (int i = 0; i < S->n; ++i) {
        const shape *s = &S->s[i];
        const int p = pick_of(s), b = best_forced(s);
        /* unmeasured picks first (regret -1: they cannot be judged) */
        w[nw++] = (worst){i, p, s->fn[p] ? forced_ratio(s, p) / forced_ratio(s, b) : -1.0};
    }
    qsort(w, nw, sizeof *w, by_regret);
    printf("\nworst %d shapes (pick ratio / best ratio; '-' = pick not measured):\n", nshow);
    printf("  %-26s %-14s %7s  %-14s %7s  %7s  %-14s %7s\n", "m x n x k x count", "pick", "ratio",
           "best row", "ratio", "pick/best", "AUTO measured", "ratio");
    for (int j = 0; j < nw && j < nshow; ++j) {
        const shape *s = &S->s[w[j].i];
        const int b = best_forced(s);
        char sh[64], pr[16], rg[16], ar[16];
        snprintf(sh, sizeof sh, "%ld x %ld x %ld x %ld", (long)s->m, (long)s->n, (long)s->k,
                 (long)s->count);
        if (s->fn[w[j].pick]) {
            snprintf(pr, sizeof pr, "%.3f", forced_ratio(s, w[j].pick));
            snprintf(rg, sizeof rg, "%.3f", w[j].regret);
        } else {
            snprintf(pr, sizeof pr, "-");
            snprintf(rg, sizeof rg, "-");
        }
        if (s->an)
            snprintf(ar, sizeof ar, "%.3f", exp(s->alog / s->an));
        else
            snprintf(ar, sizeof ar, "-");
        printf("  %-26s %-14s %7s  %-14s %7.3f  %9s  %-14s %7s\n", sh, vname(w[j].pick), pr,
               vname(b), forced_ratio(s, b), rg, s->an ? s->apick : "-", ar);
    }
    free(w);
}

/* ---------------------------------------------------------------- main */

static void usage(void)
{
    fprintf(stderr,
            "usage: gemm_batched_fit eval [OPTIONS] FILES...\n"
            "       gemm_batched_fit fit  [OPTIONS] [--params GROUPS] [--only NAMES] [--reg W]\n"
            "                             TRAIN_FILES... [--holdout FILES...] [--train FILES...]\n"
            "OPTIONS: [--device h200|h100] [--drop NAMES] [--missing skip|worst]\n"
            "GROUPS: persistent,batch,scale (any of them, comma-separated) or all\n"
            "FILES: [wN:][h100:]PATH.csv (weight N; measured on an H100)\n");
    exit(2);
}

static int parse_groups(const char *s)
{
    int g = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *t = strtok(buf, ","); t != NULL; t = strtok(NULL, ",")) {
        if (strcmp(t, "persistent") == 0)
            g |= G_PERSISTENT;
        else if (strcmp(t, "batch") == 0)
            g |= G_BATCH;
        else if (strcmp(t, "scale") == 0)
            g |= G_SCALE;
        else if (strcmp(t, "all") == 0)
            g |= G_PERSISTENT | G_BATCH | G_SCALE;
        else {
            fprintf(stderr, "gemm_batched_fit: --params: unknown group '%s'\n", t);
            exit(2);
        }
    }
    if (g == 0)
        usage();
    return g;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const bool do_fit = strcmp(argv[1], "fit") == 0;
    if (!do_fit && strcmp(argv[1], "eval") != 0)
        usage();
    const char *device = "h200", *drop = NULL;
    int groups = G_PERSISTENT | G_BATCH | G_SCALE;
    double reg = 0.001;
    set train = {.name = do_fit ? "train" : "all"}, hold = {.name = "holdout"};
    set *cur = &train;
    const char *train_files[64], *hold_files[64];
    int ntf = 0, nhf = 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device = argv[++i];
        else if (strcmp(argv[i], "--drop") == 0 && i + 1 < argc)
            drop = argv[++i];
        else if (strcmp(argv[i], "--missing") == 0 && i + 1 < argc) {
            ++i;
            if (strcmp(argv[i], "worst") == 0)
                missing_mode = 1;
            else if (strcmp(argv[i], "skip") == 0)
                missing_mode = 0;
            else
                usage();
        } else if (do_fit && strcmp(argv[i], "--params") == 0 && i + 1 < argc)
            groups = parse_groups(argv[++i]);
        else if (do_fit && strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only_candidates(argv[++i]);
        else if (do_fit && strcmp(argv[i], "--reg") == 0 && i + 1 < argc)
            reg = atof(argv[++i]);
        else if (do_fit && strcmp(argv[i], "--holdout") == 0)
            cur = &hold;
        else if (do_fit && strcmp(argv[i], "--train") == 0)
            cur = &train;
        else if (argv[i][0] == '-' && argv[i][1] == '-')
            usage();
        else if (cur == &train && ntf < 64)
            train_files[ntf++] = argv[i];
        else if (cur == &hold && nhf < 64)
            hold_files[nhf++] = argv[i];
        else
            usage();
    }
    if (ntf == 0)
        usage();
    dev_h100 = described("h100");
    dev = described(device);
    check_names();
    if (drop != NULL)
        drop_candidates(drop);
    /* Skipping unmeasured picks lets a fit steer hard shapes onto rows the
     * calibration never forced (and score only the easy rest): fit scores
     * them as the shape's slowest row unless told otherwise. */
    missing_worst = missing_mode < 0 ? do_fit : missing_mode == 1;
    for (int i = 0; i < ntf; ++i)
        load(&train, train_files[i]);
    for (int i = 0; i < nhf; ++i)
        load(&hold, hold_files[i]);
    finish(&train);
    finish(&hold);
    if (train.n == 0) {
        fprintf(stderr,
                "gemm_batched_fit: no usable shapes (no forced rows) in the training files\n");
        return 1;
    }

    printf("device: %s described (sms %d, sm_%d%d, memory %d kHz x %d bits: memory_scale %.3f)\n",
           device, dev.sms, dev.major, dev.minor, dev.mem_clock_khz, dev.mem_bus_bits,
           memory_scale(&dev));
    printf("candidates:");
    for (size_t i = 0; i < N_PERSISTENT; ++i)
        printf(" %s%s", vname(persistent_candidates[i].variant), p_dropped[i] ? "(dropped)" : "");
    for (size_t i = 0; i < N_FP32; ++i)
        printf(" %s%s", vname(fp32_candidates[i].variant), f_dropped[i] ? "(dropped)" : "");
    printf("\n");
    describe_set(&train);
    if (hold.n > 0 || nhf > 0)
        describe_set(&hold);

    if (!do_fit) {
        summary(&train, "current constants");
        worst_table(&train, 15);
        return 0;
    }

    /* candidates never forced in the training files: their picks cannot be
     * judged and their constants cannot be fitted */
    bool never[NV] = {false};
    for (size_t i = 0; i < N_PERSISTENT + N_FP32; ++i) {
        const int v = candidate_variant(i);
        const bool dropped = i < N_PERSISTENT ? p_dropped[i] : f_dropped[i - N_PERSISTENT];
        int seen = 0;
        for (int j = 0; j < train.n; ++j)
            seen += train.s[j].fn[v] > 0;
        if (seen == 0 && !dropped) {
            never[v] = true;
            printf("WARNING: %s is a candidate but was never forced in the training files: its "
                   "constants are left out of the fit and its picks are %s (--drop %s takes it "
                   "out of the model)\n",
                   vname(v), missing_worst ? "scored as the shape's slowest row" : "skipped",
                   vname(v));
        }
    }
    build_params(groups, never);
    int *before_t = malloc((train.n + 1) * sizeof(int)),
        *before_h = malloc((hold.n + 1) * sizeof(int));
    const score t0 = score_set(&train, before_t), h0 = score_set(&hold, before_h);
    printf("\nfitting %d parameters, reg %g\n", NP, reg);
    summary(&train, "start");
    if (hold.n > 0)
        summary(&hold, "start");
    printf("sweep  0: train %.4f (%d unmeasured)  holdout %.4f (%d unmeasured)  objective %.5f\n",
           geo(t0), t0.missing, geo(h0), h0.missing, objective(&train, reg));

    static const double factors[] = {0.5, 0.7, 0.85, 0.93, 0.97, 1.03, 1.07, 1.15, 1.4, 2.0};
    double obj = objective(&train, reg);
    for (int sweep = 1; sweep <= 30; ++sweep) {
        int accepted = 0;
        for (int j = 0; j < NP; ++j) {
            const double base = *P[j].p;
            double best_obj = obj, best_f = 1.0;
            for (size_t f = 0; f < sizeof factors / sizeof factors[0]; ++f) {
                *P[j].p = base * factors[f];
                const double o = objective(&train, reg);
                if (o > best_obj) {
                    best_obj = o;
                    best_f = factors[f];
                }
            }
            if (best_obj > obj + 1e-5) {
                *P[j].p = base * best_f;
                obj = best_obj;
                accepted++;
            } else
                *P[j].p = base;
        }
        const score t = score_set(&train, NULL), h = score_set(&hold, NULL);
        printf("sweep %2d: train %.4f (%d unmeasured)  holdout %.4f (%d unmeasured)  objective "
               "%.5f  moves %d\n",
               sweep, geo(t), t.missing, geo(h), h.missing, obj, accepted);
        if (accepted == 0)
            break;
    }

    /* the constants as they would be pasted: 3 significant digits */
    for (int j = 0; j < NP; ++j)
        *P[j].p = round3(*P[j].p);
    const score t1 = score_set(&train, NULL), h1 = score_set(&hold, NULL);
    printf("\nrounded to 3 digits: train %.4f (%d unmeasured)  holdout %.4f (%d unmeasured)  "
           "penalty %.5f\n",
           geo(t1), t1.missing, geo(h1), h1.missing, penalty(reg));
    summary(&train, "fitted");
    if (hold.n > 0)
        summary(&hold, "fitted");

    printf("\nparameters moved:\n");
    for (int j = 0; j < NP; ++j)
        if (*P[j].p != P[j].orig) {
            char a[64], b[64];
            printf("  %-40s %10s -> %-10s (x%.3f)\n", P[j].label, fmt3(P[j].orig, a, 64),
                   fmt3(*P[j].p, b, 64), *P[j].p / P[j].orig);
        }
    printf("\n");
    /* picks below are with the candidates dropped; the printed table has them back */
    bool any_dropped = false;
    for (size_t i = 0; i < 16; ++i)
        any_dropped |= p_dropped[i] || f_dropped[i];
    unmute_dropped();
    if (any_dropped)
        printf("(dropped candidates printed with their original constants)\n");
    print_constants();
    mute_dropped();

    for (int pass = 0; pass < 2; ++pass) {
        const set *S = pass == 0 ? &train : &hold;
        const int *before = pass == 0 ? before_t : before_h;
        int changed = 0, better = 0, worse = 0, unknown = 0;
        if (S->n == 0)
            continue;
        if (pass == 1)
            printf("\npicks changed on the holdout (measured ratio of cuBLAS, before -> after):\n");
        for (int i = 0; i < S->n; ++i) {
            const shape *s = &S->s[i];
            const int a = pick_of(s), b = before[i];
            if (a == b)
                continue;
            changed++;
            const double rb = forced_ratio(s, b), ra = forced_ratio(s, a);
            if (isnan(rb) || isnan(ra))
                unknown++;
            else if (ra > rb)
                better++;
            else if (ra < rb)
                worse++;
            if (pass == 1)
                printf("  %5ld x %5ld x %5ld x %7ld  %-14s %6.3f -> %-14s %6.3f  (best %s %.3f)\n",
                       (long)s->m, (long)s->n, (long)s->k, (long)s->count, vname(b), rb, vname(a),
                       ra, vname(best_forced(s)), forced_ratio(s, best_forced(s)));
        }
        printf("%s: %d picks changed: %d faster, %d slower, %d not judged (a pick unmeasured)\n",
               S->name, changed, better, worse, unknown);
    }
    free(before_t);
    free(before_h);
    return 0;
}
