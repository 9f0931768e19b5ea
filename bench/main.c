/* SPDX-License-Identifier: MIT */
/*
 * gputile-bench: libgputile side by side with cuBLAS and CUB, in one run.
 *
 *   gputile-bench info | gemm | histogram | transfer [--csv] [--runs N] ...
 *   gputile-bench all [--quick] [--csv] [--runs N] [--warmup N]
 *   gputile-bench <command> --help
 *   gputile-bench gemm --sweep-shapes | --list-shapes | --latency ...  (issue 17)
 *   gputile-bench multi ...  (issue 22: scaling over the GPUs of one host; not in `all')
 *
 * `all' runs every section in turn (info, gemm, gemm --batched, histogram,
 * transfer) with
 * their default arguments (304 s on an H200, 2026-11-23); with --quick on
 * fewer shapes, samples and sizes (29 s there): the run to make after
 * any change to bench/, kernels/ or lib/, so that no section breaks
 * unnoticed. It goes on after a section fails and exits 1 if any did.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char usage_text[] =
    "usage: gputile-bench info|gemm|histogram|transfer [--csv] [--runs N] [--warmup N] [args]\n"
    "       gputile-bench all [--quick] [--csv] [--runs N] [--warmup N]\n"
    "       gputile-bench gemm --sweep-shapes | --list-shapes | --latency [args]\n"
    "       gputile-bench multi [args]   (several GPUs; not part of all)\n"
    "       gputile-bench <command> --help\n";

static const char all_usage[] =
    "usage: gputile-bench all [--quick] [--csv] [--runs N] [--warmup N]\n"
    "  every section in turn: info, gemm, gemm --batched, histogram, transfer (minutes);\n"
    "  --quick: fewer GEMM shapes and batches, 2^26 histogram samples over 5 bin counts,\n"
    "  transfers up to 256 MiB without the staging sweep, host GEMM from 8 to 2048\n";

/* One section of `all': the command and its arguments, full and --quick. */
typedef struct section {
    const char *name;
    int (*run)(int, char **);
    const char *full[8], *quick[8];
} section;

static int bench_all(int argc, char **argv)
{
    static const section sections[] = {
        {"info", bench_info, {NULL}, {NULL}},
        {"gemm",
         bench_gemm,
         {NULL},
         {"2048x2048x2048", "4096x4096x4096", "4097x4097x4097", "8192x128x8192", "127x8192x8192",
          NULL}},
        {"gemm", bench_gemm, {"--batched", NULL}, {"--batched", "--quick", NULL}},
        {"histogram",
         bench_histogram,
         {NULL},
         {"--samples", "67108864", "--bins", "1,256,4096,65536,1048576", NULL}},
        {"transfer",
         bench_transfer,
         {NULL},
         {"--max-mib", "256", "--no-sweep", "--gemm-max", "2048", NULL}},
    };
    bool quick = false;
    const char *common[8];
    int ncommon = 0;
    for (int i = 1; i < argc; ++i) {
        if (bench_is_help(argv[i]))
            return bench_usage(all_usage, true);
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--csv") == 0 && ncommon < 6) {
            common[ncommon++] = argv[i];
        } else if ((strcmp(argv[i], "--runs") == 0 || strcmp(argv[i], "--warmup") == 0) &&
                   i + 1 < argc && ncommon < 6) {
            common[ncommon++] = argv[i];
            common[ncommon++] = argv[++i];
        } else {
            fprintf(stderr, "gputile-bench all: unknown argument %s\n", argv[i]);
            return bench_usage(all_usage, false);
        }
    }
    bench_require_device("all");

    int failed = 0;
    const char *failures[8];
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; ++s) {
        const section *x = &sections[s];
        char *args[24];
        int n = 0;
        args[n++] = (char *)x->name;
        for (int i = 0; i < ncommon; ++i)
            args[n++] = (char *)common[i];
        for (const char *const *a = quick ? x->quick : x->full; *a != NULL; ++a)
            args[n++] = (char *)*a;
        args[n] = NULL;
        fprintf(stderr, "gputile-bench all:");
        for (int i = 0; i < n; ++i)
            fprintf(stderr, " %s", args[i]);
        fprintf(stderr, "\n");
        printf("%s# gputile-bench", s > 0 ? "\n" : "");
        for (int i = 0; i < n; ++i)
            printf(" %s", args[i]);
        printf("\n");
        fflush(stdout);
        if (x->run(n, args) != 0)
            failures[failed++] = x->name;
        fflush(stdout);
    }
    if (failed) {
        fprintf(stderr, "gputile-bench all: FAILED:");
        for (int i = 0; i < failed; ++i)
            fprintf(stderr, " %s", failures[i]);
        fprintf(stderr, "\n");
        return 1;
    }
    fprintf(stderr, "gputile-bench all: every section completed\n");
    return 0;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"info", bench_info},         {"gemm", bench_gemm}, {"histogram", bench_histogram},
        {"transfer", bench_transfer}, {"all", bench_all},   {"multi", bench_multi},
    };
    if (argc < 2)
        return bench_usage(usage_text, false);
    if (bench_is_help(argv[1]) || strcmp(argv[1], "help") == 0)
        return bench_usage(usage_text, true);
    /* Each command reads its arguments (--help, errors) before it asks for
     * a device (bench_require_device). */
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "gputile-bench: unknown command %s\n", argv[1]);
    return bench_usage(usage_text, false);
}
