/* SPDX-License-Identifier: MIT */
/*
 * test_fork.c (CPU, TAP, no Criterion: its workers are forked processes
 * whose exit handlers a grandchild must not run): a process forked after
 * the copy threads started copies with them and exits. The child inherits
 * the helpers' bookkeeping but not the threads; before the fork handler,
 * its exit's broadcast to the helpers waited for sleepers that no longer
 * existed, for ever (glibc). A child that hangs is killed by its alarm.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/copy_threads.h"

#define BYTES ((size_t)64 << 20)

static int copy_and_check(unsigned char *dst, const unsigned char *src)
{
    memset(dst, 0, BYTES);
    gputile__parallel_copy2d(dst, BYTES, src, BYTES, BYTES, 1); /* parts on the helpers */
    return memcmp(dst, src, BYTES) == 0;
}

int main(void)
{
    unsigned char *src = malloc(BYTES), *dst = malloc(BYTES);
    printf("1..3\n");
    if (src == NULL || dst == NULL) {
        printf("Bail out! no memory\n");
        return 1;
    }
    for (size_t i = 0; i < BYTES; ++i)
        src[i] = (unsigned char)(i * 2654435761u >> 24);
    gputile__copy_threads_set(4);
    printf("%s 1 - the parent copies with its helpers\n",
           copy_and_check(dst, src) ? "ok" : "not ok");
    /* let the helpers spin out and fall asleep on their condition variable */
    const struct timespec rest = {0, 300 * 1000 * 1000};
    nanosleep(&rest, NULL);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(15);
        exit(copy_and_check(dst, src) ? 0 : 3); /* exit(): the library's destructor runs */
    }
    int status = 0;
    const int waited = pid > 0 && waitpid(pid, &status, 0) == pid;
    printf("%s 2 - a forked child copies and exits (%s %d)\n",
           waited && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "not ok",
           !waited               ? "not waited"
           : WIFSIGNALED(status) ? "signal"
                                 : "exit status",
           !waited               ? 0
           : WIFSIGNALED(status) ? WTERMSIG(status)
                                 : WEXITSTATUS(status));
    printf("%s 3 - the parent still copies\n", copy_and_check(dst, src) ? "ok" : "not ok");
    free(src);
    free(dst);
    return 0;
}
