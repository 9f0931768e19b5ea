/* SPDX-License-Identifier: MIT */
/*
 * fuzz.h: what the fuzz target's files share.
 */
#ifndef GPUTILE_FUZZ_H
#define GPUTILE_FUZZ_H

/* CUDA runtime calls made since the counter was last cleared (cuda_stub.c). */
extern unsigned long fuzz_cuda_calls;

#endif
