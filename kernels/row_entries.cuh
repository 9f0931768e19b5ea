/* SPDX-License-Identifier: MIT */
/*
 * row_entries.cuh: the entry points of one row of gemm_variants.h in the
 * kernel file that runs it (internal). The file defines a template
 * row<...>(p, plan, stream, ta, tb, va, vb, blocks) that picks the
 * instantiation for the transposes and 16-byte copies and, with blocks,
 * asks how many of its blocks fit on an SM, else launches.
 */
#ifndef GPUTILE_ROW_ENTRIES_CUH
#define GPUTILE_ROW_ENTRIES_CUH

#include "kernels.h"

/* row_<ID>(...): the row's row<...> with the template arguments given. */
#define GPUTILE__ROW_QUERY(id, ...)                                                               \
    static cudaError_t row_##id(const gputile__gemm_args *p, const gputile__gemm_plan *plan,      \
                                cudaStream_t stream, int ta, int tb, int va, int vb, int *blocks) \
    {                                                                                             \
        return row<__VA_ARGS__>(p, plan, stream, ta, tb, va, vb, blocks);                         \
    }

/* gputile__gemm_run_<ID> (kernels.h): the launch lib/ planned, with the
 * plan's transposes and 16-byte copies. */
#define GPUTILE__ROW_RUN(id)                                                                      \
    extern "C" cudaError_t gputile__gemm_run_##id(                                                \
        const gputile__gemm_args *p, const gputile__gemm_plan *plan, cudaStream_t stream)         \
    {                                                                                             \
        return row_##id(p, plan, stream, p->trans_a, p->trans_b, plan->vec_a, plan->vec_b, NULL); \
    }

#endif /* GPUTILE_ROW_ENTRIES_CUH */
