/*
 * gemm_plan.h: the GEMM planner's interface to lib/gemm.c (internal).
 */
#ifndef GPUTILE_GEMM_PLAN_H
#define GPUTILE_GEMM_PLAN_H

#include <stdbool.h>

#include "internal.h"
#include "../kernels/kernels.h"

typedef cudaError_t (*gputile__gemm_launcher)(const gputile__gemm_args *, cudaStream_t);

/* True for AUTO and every named algorithm. */
bool gputile__gemm_known(int algorithm);
/* True for algorithms that take a split of k (and for AUTO). */
bool gputile__gemm_splits(int algorithm);
/* True for the tensor-core (wgmma) algorithms. */
bool gputile__gemm_tensor(int algorithm);
/* The algorithm that runs for `requested` (AUTO resolved) on this shape and
 * a device with `sms` multiprocessors (0: unknown), `aligned` when A's and
 * B's rows start 16-byte aligned, `tensor` when AUTO is to pick a
 * tensor-core algorithm; sets args->splits from split_k (0: the planner's
 * choice). */
int gputile__gemm_plan(int requested, int split_k, int sms, bool aligned, bool tensor,
                       gputile__gemm_args *args);
/* The launcher of a named (not AUTO) algorithm. */
gputile__gemm_launcher gputile__gemm_launcher_of(int algorithm);

#endif /* GPUTILE_GEMM_PLAN_H */
