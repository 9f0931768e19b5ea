/* SPDX-License-Identifier: MIT */
/*
 * bench.h: what gputile-bench's subcommands share. The benchmark is a
 * program, not the library: it may print and exit.
 */
#ifndef GPUTILE_BENCH_H
#define GPUTILE_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exits with a message on stderr when a CUDA call fails. */
#define BENCH_CUDA(call) bench_cuda_check((call), #call, __FILE__, __LINE__)
void bench_cuda_check(cudaError_t err, const char *what, const char *file, int line);

/* What a CUDA error means to the user: for cudaErrorNoDevice and
 * cudaErrorInsufficientDriver the library's own words for its
 * GPUTILE_ERROR_NO_DEVICE ("no usable CUDA device (or no driver)"), since
 * CUDA says "driver version is insufficient" on a machine with no driver
 * at all; CUDA's text for any other error. */
const char *bench_cuda_text(cudaError_t err);

/* Exits 1, saying why, when there is no usable CUDA device. Each command
 * calls it once its arguments are read, so that --help and argument errors
 * answer on a machine without a GPU too. */
void bench_require_device(const char *command);

/* A command's usage text: on stdout and 0 for --help (help true), on stderr
 * and 2 for an argument error. */
int bench_usage(const char *text, bool help);
/* True for --help and -h. */
bool bench_is_help(const char *arg);

/* Common flags: --csv, --runs N (>= 20), --warmup N. bench_parse_common()
 * removes them from argv and returns the remaining argc. */
typedef struct bench_options {
    bool csv;
    int runs;
    int warmup;
} bench_options;
int bench_parse_common(int argc, char **argv, bench_options *o);

/* Parses a comma-separated list of integers in [lo, hi] into out (at most
 * max; base 10, or 0x.. / 0.. as strtol reads them); returns how many, or
 * -1 for anything else (an empty item, a stray character, one too many). */
int bench_parse_list(const char *arg, long lo, long hi, long *out, int max);
/* --algorithms: a comma-separated list of gputile_algorithm_name() names,
 * each with an optional :S (split_k S), into ids and splits (0: none);
 * false on an unknown name or split, an empty list or more than max. */
bool bench_parse_algorithms(const char *arg, int *ids, int *splits, int *count, int max);

/* One timed thing: enqueue(ctx, stream) queues one run of it on the stream. */
typedef struct bench_item {
    const char *name;
    void (*enqueue)(void *ctx, cudaStream_t stream);
    void *ctx;
    double median_ms; /* out */
    /* The stream is synchronised before the item's start event: for calls
     * that block the host (pageable copies, host-matrix GEMM). Without it
     * the start event waits behind the previous item's queued work while
     * the host already runs this call, and the item looks faster than it
     * is (or slower, after an item that leaves nothing queued). */
    bool drain;
} bench_item;

/* Times items interleaved on one stream with CUDA events: o->warmup runs of
 * each, then o->runs rounds in which each item runs once between its own
 * pair of events, the order rotated by one from each round to the next (so
 * no item always follows the same one); stores each item's median. */
void bench_time(bench_item *items, int n, const bench_options *o, cudaStream_t stream);

double bench_median(double *v, int n);

/* Progress for the human: stderr, so stdout stays a clean table or CSV. */
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The current device's multiprocessors. */
int bench_sm_count(void);
/* Ceilings measured now (bench/ceilings.c): FFMA TFLOP/s from independent
 * FMA chains; device read GB/s from a 1 GiB float4 read. */
double bench_ffma_tflops(const bench_options *o, cudaStream_t stream);
double bench_read_gbs(const bench_options *o, cudaStream_t stream);

/* Subcommands: argv[0] is the command's name. */
int bench_info(int argc, char **argv);
int bench_gemm(int argc, char **argv);
int bench_histogram(int argc, char **argv);
/* The image rows of `histogram` (bench/histogram_image.c, issue 19); 0 when every
 * result matched CUB. */
/* The image rows (all, or those whose name holds `row` when not NULL). */
int bench_histogram_image(const bench_options *o, const char *row, cudaStream_t stream);
int bench_transfer(int argc, char **argv);
int bench_multi(int argc, char **argv); /* issue 22: bench/multi.c */

#ifdef __cplusplus
}
#endif

#endif
