/* SPDX-License-Identifier: MIT */
/*
 * common.c: timing and flags shared by gputile-bench's subcommands.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gputile.h"

const char *bench_cuda_text(cudaError_t err)
{
    /* lib/status.c maps both to GPUTILE_ERROR_NO_DEVICE */
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        return gputile_strerror(GPUTILE_ERROR_NO_DEVICE);
    return cudaGetErrorString(err);
}

void bench_cuda_check(cudaError_t err, const char *what, const char *file, int line)
{
    if (err == cudaSuccess)
        return;
    fprintf(stderr, "gputile-bench: %s:%d: %s: %s\n", file, line, what, bench_cuda_text(err));
    exit(1);
}

void bench_require_device(const char *command)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaSuccess && n > 0)
        return;
    fprintf(stderr, "gputile-bench %s: %s: run it on a machine with a GPU\n", command,
            err != cudaSuccess ? bench_cuda_text(err) : gputile_strerror(GPUTILE_ERROR_NO_DEVICE));
    exit(1);
}

bool bench_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int bench_usage(const char *text, bool help)
{
    fputs(text, help ? stdout : stderr);
    return help ? 0 : 2;
}

int bench_parse_common(int argc, char **argv, bench_options *o)
{
    int out = 1;
    o->csv = false;
    o->runs = 20;
    o->warmup = 3;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--csv") == 0) {
            o->csv = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            o->runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
            o->warmup = atoi(argv[++i]);
        } else {
            argv[out++] = argv[i];
        }
    }
    if (o->runs < 20)
        o->runs = 20; /* a median of fewer runs is not worth printing */
    if (o->warmup < 1)
        o->warmup = 1;
    return out;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_time(bench_item *items, int n, const bench_options *o, cudaStream_t stream)
{
    cudaEvent_t *start = calloc((size_t)n * o->runs, sizeof *start);
    cudaEvent_t *stop = calloc((size_t)n * o->runs, sizeof *stop);
    double *ms = calloc((size_t)o->runs, sizeof *ms);
    if (start == NULL || stop == NULL || ms == NULL) {
        fprintf(stderr, "gputile-bench: out of memory\n");
        exit(1);
    }
    for (int w = 0; w < o->warmup; ++w)
        for (int i = 0; i < n; ++i)
            items[i].enqueue(items[i].ctx, stream);
    for (int e = 0; e < n * o->runs; ++e) {
        BENCH_CUDA(cudaEventCreate(&start[e]));
        BENCH_CUDA(cudaEventCreate(&stop[e]));
    }
    BENCH_CUDA(cudaStreamSynchronize(stream));
    /* Interleaved: round r runs every item once, starting at item r, so
     * drift in clocks or temperature touches every item alike and no item
     * always runs after the same one. */
    for (int r = 0; r < o->runs; ++r)
        for (int j = 0; j < n; ++j) {
            const int i = (j + r) % n;
            if (items[i].drain)
                BENCH_CUDA(cudaStreamSynchronize(stream));
            BENCH_CUDA(cudaEventRecord(start[r * n + i], stream));
            items[i].enqueue(items[i].ctx, stream);
            BENCH_CUDA(cudaEventRecord(stop[r * n + i], stream));
        }
    BENCH_CUDA(cudaStreamSynchronize(stream));
    for (int i = 0; i < n; ++i) {
        for (int r = 0; r < o->runs; ++r) {
            float t;
            BENCH_CUDA(cudaEventElapsedTime(&t, start[r * n + i], stop[r * n + i]));
            ms[r] = t;
        }
        items[i].median_ms = bench_median(ms, o->runs);
    }
    for (int e = 0; e < n * o->runs; ++e) {
        cudaEventDestroy(start[e]);
        cudaEventDestroy(stop[e]);
    }
    free(start);
    free(stop);
    free(ms);
}

void bench_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* (bench.h) */
int bench_parse_list(const char *arg, long lo, long hi, long *out, int max)
{
    int n = 0;
    for (const char *p = arg; *p != '\0'; ++n) {
        char *end;
        const long v = strtol(p, &end, 0);
        if (n == max || end == p || v < lo || v > hi || (*end != ',' && *end != '\0'))
            return -1;
        out[n] = v;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* (bench.h) */
bool bench_parse_algorithms(const char *arg, int *ids, int *splits, int *count, int max)
{
    char list[512];
    if (strlen(arg) >= sizeof list)
        return false;
    snprintf(list, sizeof list, "%s", arg);
    *count = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save)) {
        int id = -1, split = 0;
        char *colon = strchr(t, ':');
        if (colon != NULL) {
            char *end;
            const long v = strtol(colon + 1, &end, 10);
            if (*end != '\0' || v < 1 || v > GPUTILE_MAX_SPLIT_K)
                return false;
            split = (int)v;
            *colon = '\0';
        }
        for (int a = 0; a < 256 && id < 0; ++a)
            if (gputile_algorithm_name(a) != NULL && strcmp(gputile_algorithm_name(a), t) == 0)
                id = a;
        if (id < 0 || *count == max)
            return false;
        splits[*count] = split;
        ids[(*count)++] = id;
    }
    return *count > 0;
}
