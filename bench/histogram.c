/*
 * histogram.c: gputile-bench histogram (to be written with its issue).
 */
#include <stdio.h>

#include "bench.h"

int bench_histogram(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gputile-bench: histogram: not implemented yet\n");
    return 1;
}
