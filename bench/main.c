/* SPDX-License-Identifier: MIT */
/*
 * gputile-bench: libgputile side by side with cuBLAS and CUB, in one run.
 *
 *   gputile-bench info | gemm | histogram | transfer [--csv] [--runs N] ...
 *   gputile-bench <command> --help
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const char usage_text[] =
    "usage: gputile-bench info|gemm|histogram|transfer [--csv] [--runs N] [--warmup N] [args]\n"
    "       gputile-bench <command> --help\n";

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"info", bench_info},
        {"gemm", bench_gemm},
        {"histogram", bench_histogram},
        {"transfer", bench_transfer},
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
