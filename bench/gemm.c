/*
 * gemm.c: gputile-bench gemm (to be written with the GEMM-speed issue).
 */
#include <stdio.h>

#include "bench.h"

int bench_gemm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gputile-bench: gemm: not implemented yet\n");
    return 1;
}
