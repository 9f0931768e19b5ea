/*
 * info.c: gputile-bench info (to be written with the GEMM-speed issue).
 */
#include <stdio.h>

#include "bench.h"

int bench_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gputile-bench: info: not implemented yet\n");
    return 1;
}
