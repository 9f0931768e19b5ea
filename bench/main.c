/* SPDX-License-Identifier: MIT */
/*
 * gputile-bench: libgputile side by side with cuBLAS and CUB, in one run.
 *
 *   gputile-bench info | gemm | histogram | transfer [--csv] [--runs N] ...
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static int usage(void)
{
    fprintf(stderr, "usage: gputile-bench info|gemm|histogram|transfer [--csv] [--runs N] [--warmup N] [args]\n"
                    "       gputile-bench <command> --help\n");
    return 2;
}

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
        return usage();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(argv[1], commands[i].name) == 0) {
            int n = 0;
            cudaError_t err = cudaGetDeviceCount(&n);
            if (err != cudaSuccess || n == 0) {
                fprintf(stderr, "gputile-bench: no CUDA device (%s): run it on a machine with a GPU\n",
                        err != cudaSuccess ? cudaGetErrorString(err) : "none found");
                return 1;
            }
            return commands[i].run(argc - 1, argv + 1);
        }
    return usage();
}
