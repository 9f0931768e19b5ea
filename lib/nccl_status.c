/* SPDX-License-Identifier: MIT */
/*
 * nccl_status.c: the per-thread NCCL error behind the last
 * GPUTILE_ERROR_NCCL (issue 22), in every build (0 when NCCL is absent),
 * and the communicator checks the NCCL calls share.
 */
#include "dist.h"

static _Thread_local int last_nccl_error; /* ncclSuccess */

gputile_status gputile__nccl_status(int result)
{
    if (result == 0)
        return GPUTILE_SUCCESS;
    last_nccl_error = result;
    return GPUTILE_ERROR_NCCL;
}

int gputile_last_nccl_error(void)
{
    return last_nccl_error;
}

/* NCCL's ncclResult_t names (nccl.h, 2.x); NCCL itself only has texts. */
const char *gputile_last_nccl_error_name(void)
{
    static const char *const names[] = {
        "ncclSuccess",         "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
        "ncclInvalidArgument", "ncclInvalidUsage",       "ncclRemoteError", "ncclInProgress",
    };
    const int e = last_nccl_error;
    return e >= 0 && e < (int)(sizeof names / sizeof names[0]) ? names[e] : "ncclUnknownError";
}

#ifdef GPUTILE_WITH_NCCL
gputile_status gputile__comm_open(void *comm, gputile__comm *out)
{
    int device = -1, current = -1;
    gputile_status s;
    out->comm = (ncclComm_t)comm;
    if ((s = gputile__nccl_status(ncclCommCount(out->comm, &out->ranks))) != GPUTILE_SUCCESS ||
        (s = gputile__nccl_status(ncclCommUserRank(out->comm, &out->rank))) != GPUTILE_SUCCESS ||
        (s = gputile__nccl_status(ncclCommCuDevice(out->comm, &device))) != GPUTILE_SUCCESS ||
        (s = gputile__cuda_status(cudaGetDevice(&current))) != GPUTILE_SUCCESS)
        return s;
    return device == current ? GPUTILE_SUCCESS : GPUTILE_ERROR_WRONG_DEVICE;
}
#endif
