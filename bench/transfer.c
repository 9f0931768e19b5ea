/*
 * transfer.c: gputile-bench transfer (to be written with its issue).
 */
#include <stdio.h>

#include "bench.h"

int bench_transfer(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gputile-bench: transfer: not implemented yet\n");
    return 1;
}
